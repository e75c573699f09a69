//! `toscana`: check, inspect and translate TOSCA service templates.

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    toscana::cli::main()
}
