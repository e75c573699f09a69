//! `tosca2dot`: the same as `toscana dot`.
fn main() -> std::process::ExitCode {
    toscana::cli::alias_main(toscana::cli::Target::Graphviz)
}
