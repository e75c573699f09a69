//! `toscana`: check, inspect and translate TOSCA service templates.
fn main() -> std::process::ExitCode {
    toscana::cli::main()
}
