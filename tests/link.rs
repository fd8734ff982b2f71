//! How the binaries are linked (build.rs): on Linux with glibc the unwinder
//! comes from GCC's static `libgcc_eh.a`, so the shared `libgcc_s.so.1` is
//! not loaded at start-up. Panics must still unwind.

#[path = "support/cli.rs"]
mod cli;

/// Counts its drops, to see that unwinding ran the destructors.
struct Dropped<'a>(&'a std::cell::Cell<u32>);

impl Drop for Dropped<'_> {
    fn drop(&mut self) {
        self.0.set(self.0.get() + 1);
    }
}

#[test]
fn a_panic_unwinds_and_runs_destructors() {
    let drops = std::cell::Cell::new(0);
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let _a = Dropped(&drops);
        let _b = Dropped(&drops);
        std::hint::black_box(None::<u32>).expect("the panic this test unwinds");
    }));
    assert!(caught.is_err());
    assert_eq!(drops.get(), 2);
    // And across a thread: the panic is the join's error, not an abort.
    let joined = std::thread::spawn(|| panic!("a worker's panic")).join();
    assert!(joined.is_err());
}

#[test]
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn the_binary_does_not_load_libgcc_s() {
    let bytes = std::fs::read(cli::BIN).expect("the binary is readable");
    // A needed library is named in the dynamic string table.
    assert!(
        bytes.windows(b"libc.so.6".len()).any(|w| w == b"libc.so.6"),
        "the binary names no libc.so.6: not a dynamic glibc binary?"
    );
    assert!(
        !bytes.windows(b"libgcc_s".len()).any(|w| w == b"libgcc_s"),
        "the binary still names libgcc_s"
    );
}
