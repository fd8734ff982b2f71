//! Memory for the big tables (the hash tables of the searches).
//!
//! A table is allocated zero-filled through the allocator's zeroed path:
//! fresh pages from the OS that are mapped only when first written. A large
//! `Hash` then costs nothing until the search fills it, and `quit` is not
//! slowed by the kernel tearing down pages that were never used (writing
//! the zeros ourselves made a 1 GiB table take half a second to exit).
//! Transparent huge pages were tried and dropped: the kernel's compaction
//! stalls on first touch delayed `stop` by up to 180 ms.

use std::sync::atomic::AtomicU64;

// The cast below relies on this.
const _: () = assert!(
    size_of::<AtomicU64>() == size_of::<u64>() && align_of::<AtomicU64>() == align_of::<u64>()
);

/// `len` words, all zero, in lazily mapped memory. A size the machine
/// cannot give is a panic that says so, never an abort (the flags and
/// options are range-checked first, so only a machine short of memory
/// gets here).
pub fn zeroed_words(len: usize) -> Vec<u64> {
    try_zeroed_words(len).unwrap_or_else(|e| panic!("{e}"))
}

/// `len` words, all zero, or an error when the allocation fails. The
/// allocator's zeroed path (calloc) hands out fresh pages mapped on first
/// write; unlike `vec![0; len]` its failure is a value, not an abort.
pub fn try_zeroed_words(len: usize) -> Result<Vec<u64>, String> {
    let too_big = || format!("cannot allocate a table of {len} words ({} MiB)", len >> 17);
    if len == 0 {
        return Ok(Vec::new());
    }
    let layout = std::alloc::Layout::array::<u64>(len).map_err(|_| too_big())?;
    // SAFETY: the layout has a non-zero size (len > 0).
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<u64>();
    if ptr.is_null() {
        return Err(too_big());
    }
    // SAFETY: `ptr` was allocated by the global allocator with the layout of
    // `len` u64s, and all its bytes are zero, a valid u64.
    Ok(unsafe { Vec::from_raw_parts(ptr, len, len) })
}

/// `len` atomics, all zero, in lazily mapped memory.
pub fn zeroed_atomics(len: usize) -> Box<[AtomicU64]> {
    let mut zeros = std::mem::ManuallyDrop::new(zeroed_words(len));
    let (ptr, len, capacity) = (zeros.as_mut_ptr(), zeros.len(), zeros.capacity());
    // SAFETY: the buffer came from a `Vec<u64>` of this length and capacity,
    // `AtomicU64` has the size and alignment of `u64` (asserted above), and
    // an all-zero `u64` is a valid `AtomicU64`. `ManuallyDrop` keeps the
    // original vector from freeing the buffer.
    let table = unsafe { Vec::from_raw_parts(ptr.cast::<AtomicU64>(), len, capacity) };
    table.into_boxed_slice()
}

/// Maps the pages of `table` now, in one system call, rather than one
/// page fault at a time as the search first writes them (a fault costs
/// microseconds, a mate query of a few milliseconds takes hundreds). A
/// hint: where the kernel cannot (before Linux 5.14, or off Linux), the
/// pages are mapped on first write as before.
pub fn populate<T>(table: &[T]) {
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let start = table.as_ptr() as usize;
        let end = start + std::mem::size_of_val(table);
        // Whole pages inside the slice only: its neighbours' pages are
        // not ours to advise.
        let (first, last) = (start.div_ceil(PAGE) * PAGE, end / PAGE * PAGE);
        if first < last {
            // SAFETY: the range lies inside memory this process owns (the
            // slice), and MADV_POPULATE_WRITE only maps its pages, as a
            // write of the same bytes would; it changes no contents.
            unsafe {
                libc::madvise(
                    first as *mut libc::c_void,
                    last - first,
                    libc::MADV_POPULATE_WRITE,
                );
            }
        }
    }
}

/// Asks the processor to bring the cache line of `p` in (a hint: no effect
/// on what any load returns, and none at all off x86-64).
#[inline]
pub fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch never faults and reads nothing into the program,
    // whatever the address.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(p.cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering;

    #[test]
    fn an_impossible_size_is_an_error_not_an_abort() {
        assert!(try_zeroed_words(usize::MAX / 4).is_err());
        assert!(try_zeroed_words(1 << 60).is_err());
        assert_eq!(try_zeroed_words(3).unwrap(), vec![0, 0, 0]);
    }

    #[test]
    fn tables_are_zero_and_writable() {
        for len in [0, 1, 1000, 1 << 20] {
            let table = zeroed_atomics(len);
            assert_eq!(table.len(), len);
            assert!(table.iter().all(|x| x.load(Ordering::Relaxed) == 0));
            if let Some(last) = table.last() {
                last.store(7, Ordering::Relaxed);
                assert_eq!(last.load(Ordering::Relaxed), 7);
            }
        }
    }
}
