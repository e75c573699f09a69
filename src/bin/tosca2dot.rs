//! `tosca2dot`: the same as `toscana dot`.

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    toscana::cli::alias_main(toscana::cli::Target::Graphviz)
}
