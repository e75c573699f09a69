//! `tosca2tf`: the same as `toscana tf`.

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    toscana::cli::alias_main(toscana::cli::Target::Terraform)
}
