//! `tosca2k8s`: the same as `toscana k8s`.

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    toscana::cli::alias_main(toscana::cli::Target::Kubernetes)
}
