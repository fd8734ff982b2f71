//! Start-up of the `crescendo` binary on Linux with glibc.
//!
//! The engine is started once per question by match runners and scripts
//! (`crescendo mate --fen ...` per position), so its start-up counts:
//!
//! - Linked at a fixed address (`-no-pie`). A position-independent
//!   executable has every pointer in its read-only data (about 6,800 of
//!   them) relocated by the dynamic loader at each start, each relocated
//!   page a fresh copy: 38 of the 195 page faults of an easy `crescendo
//!   mate`, about 0.2 ms of its 1.9 ms (bench/mate.md). The code is the
//!   same; only the address is fixed. Only the binaries get the flag
//!   (proc-macro crates are shared objects and stay position-independent).
//! - The unwinder linked in from GCC's static `libgcc_eh.a` instead of the
//!   shared `libgcc_s.so.1`. The standard library asks for `-lgcc_s`, but
//!   this library comes first on the link line, so the linker (with
//!   `--as-needed`) finds nothing left for `libgcc_s` and drops it: one
//!   shared library fewer to load at each start, and no run of its
//!   constructor, which probes the CPU with `cpuid` (a trap to the
//!   hypervisor on virtual machines). 0.16-0.19 ms of an easy `crescendo
//!   mate`'s 1.6 ms (bench/mate.md). It is the same unwinder (GCC's), as in
//!   `-static-libgcc` C++ programs; panics unwind as before.

fn main() {
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    if os == "linux" && env == "gnu" {
        println!("cargo:rustc-link-arg-bins=-no-pie");
        // (`-bundle`: named on the final link line, not copied into the
        // library; gcc finds it in its own directory.)
        println!("cargo:rustc-link-lib=static:-bundle=gcc_eh");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
