//! `toscana`: check, inspect and translate TOSCA service templates.

// Without the `system-allocator` feature, which heap profilers need (Cargo.toml).
#[cfg(not(feature = "system-allocator"))]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    toscana::cli::main()
}
