//! Links the `crescendo` binary at a fixed address on Linux (`-no-pie`).
//!
//! The engine is started once per question by match runners and scripts
//! (`crescendo mate --fen ...` per position), so its start-up counts. A
//! position-independent executable has every pointer in its read-only data
//! (about 6,800 of them) relocated by the dynamic loader at each start,
//! each relocated page a fresh copy: 38 of the 195 page faults of an
//! easy `crescendo mate`, about 0.2 ms of its 1.9 ms (bench/mate.md).
//! The code is the same; only the address is fixed. Only the binaries get
//! the flag (proc-macro crates are shared objects and stay
//! position-independent).

fn main() {
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    if os == "linux" && env == "gnu" {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
