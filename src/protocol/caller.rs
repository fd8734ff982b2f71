//! Is the caller still there? A GUI or script that dies closes the pipe it
//! read our stdout from; the engine then has no one to answer and should
//! leave rather than finish a long search.

/// True when stdout is a pipe or socket whose reading end is closed. Asked
/// without writing (a probe line would corrupt the protocol stream): a
/// poll of the descriptor reports an error or hang-up then.
#[cfg(unix)]
pub fn stdout_closed() -> bool {
    let mut fd = libc::pollfd {
        fd: libc::STDOUT_FILENO,
        events: 0,
        revents: 0,
    };
    // SAFETY: one valid pollfd, a zero timeout; poll only reads and writes it.
    let ready = unsafe { libc::poll(&mut fd, 1, 0) };
    ready > 0 && fd.revents & (libc::POLLERR | libc::POLLHUP | libc::POLLNVAL) != 0
}

/// Elsewhere only a failed write tells (see `Output::line`).
#[cfg(not(unix))]
pub fn stdout_closed() -> bool {
    false
}
