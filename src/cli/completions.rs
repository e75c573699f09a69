//! `toscana completions SHELL`: completion scripts for every name `cargo install` installs:
//! `toscana` and its aliases `tosca2k8s`, `tosca2tf` and `tosca2dot`, one after the other, so
//! sourcing the output (`source <(toscana completions bash)`) completes all four. `--name`
//! gives one of them alone, for shells that load one file per command (zsh's `fpath`).

use std::process::ExitCode;

use super::Target;
use super::args::{CompletionArgs, Installed};

pub fn print(args: &CompletionArgs) -> ExitCode {
    let names = match args.name {
        Some(name) => vec![name],
        None => vec![
            Installed::Toscana,
            Installed::Tosca2k8s,
            Installed::Tosca2tf,
            Installed::Tosca2dot,
        ],
    };
    // clap_complete panics when its writer fails: it writes into memory, and the scripts go
    // out through a pipe that a closed reader ends quietly.
    let mut scripts = Vec::new();
    for name in names {
        let (mut command, bin) = match name {
            Installed::Toscana => (super::command(), "toscana"),
            Installed::Tosca2k8s => (super::alias_command(Target::Kubernetes), "tosca2k8s"),
            Installed::Tosca2tf => (super::alias_command(Target::Terraform), "tosca2tf"),
            Installed::Tosca2dot => (super::alias_command(Target::Graphviz), "tosca2dot"),
        };
        clap_complete::generate(args.shell, &mut command, bin, &mut scripts);
    }
    crate::cli::stdio::print(&String::from_utf8_lossy(&scripts), 0)
}
