//! `tosca2tf`: the same as `toscana tf`.
fn main() -> std::process::ExitCode {
    toscana::cli::alias_main(toscana::cli::Target::Terraform)
}
