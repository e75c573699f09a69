//! `tosca2k8s`: the same as `toscana k8s`.
fn main() -> std::process::ExitCode {
    toscana::cli::alias_main(toscana::cli::Target::Kubernetes)
}
