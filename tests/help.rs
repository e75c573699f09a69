//! The command line's help: `-h` fits on a screen, `--help` is grouped under headings, every
//! command has an example, no command offers a flag it would ignore, the alias binaries describe
//! themselves (no internal comment leaks), and completions cover every installed name.

mod common;

use assert_cmd::Command;

use common::{stderr, toscana};

fn help(args: &[&str]) -> String {
    let out = toscana().args(args).output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    String::from_utf8(out.stdout).unwrap()
}

/// The commands that read a template.
const READERS: &[&str] = &[
    "check", "ir", "k8s", "tf", "dot", "render", "resolve", "convert",
];

#[test]
fn short_help_fits_on_one_screen() {
    for command in READERS {
        let text = help(&[command, "-h"]);
        let lines = text.lines().count();
        assert!(lines <= 40, "`{command} -h` has {lines} lines:\n{text}");
    }
    let check = help(&["check", "-h"]);
    assert!(check.lines().count() <= 30, "{check}");
    assert!(!check.contains("--max-file-size"), "{check}");
}

#[test]
fn long_help_is_grouped_under_headings() {
    let text = help(&["check", "--help"]);
    for heading in [
        "\nInput:\n",
        "\nValues:\n",
        "\nLenient modes:\n",
        "\nDiagnostics:\n",
        "\nLimits:\n",
    ] {
        assert!(text.contains(heading), "no {heading:?} in:\n{text}");
    }
    let k8s = help(&["k8s", "--help"]);
    for heading in ["\nOutput:\n", "\nKubernetes:\n"] {
        assert!(k8s.contains(heading), "no {heading:?} in:\n{k8s}");
    }
    // The limits are in order and each says its default.
    assert!(text.contains("--max-node-templates <N>"), "{text}");
    // A lenient mode's help is one line, not its whole documentation.
    let quirks = &text[text.find("Possible values:").unwrap()..];
    let winery = quirks.lines().find(|l| l.contains("- winery:")).unwrap();
    assert!(winery.len() < 100, "{winery}");
}

#[test]
fn every_command_shows_an_example() {
    for command in READERS.iter().chain(&["explain", "completions"]) {
        for flag in ["-h", "--help"] {
            let text = help(&[command, flag]);
            assert!(
                text.contains("Example:\n  toscana "),
                "`{command} {flag}` has no example:\n{text}"
            );
        }
    }
}

#[test]
fn commands_do_not_offer_flags_they_ignore() {
    for (command, flag) in [
        ("check", "-o"),
        ("check", "--backend-dir"),
        ("ir", "--backend-dir"),
        ("resolve", "--backend-dir"),
        ("convert", "--set"),
    ] {
        let out = toscana()
            .args([command, "examples/hello.yaml", flag, "x"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{command} {flag}");
        assert!(
            stderr(&out).contains(&format!("unexpected argument '{flag}'")),
            "{command} {flag}: {}",
            stderr(&out)
        );
    }
}

#[test]
fn the_aliases_describe_themselves() {
    for (alias, first, same) in [
        (
            "tosca2k8s",
            "Translates a TOSCA service template into Kubernetes manifests",
            "toscana k8s",
        ),
        (
            "tosca2tf",
            "Translates a TOSCA service template into a Terraform configuration",
            "toscana tf",
        ),
        (
            "tosca2dot",
            "Draws a TOSCA service template as a Graphviz diagram",
            "toscana dot",
        ),
    ] {
        for flag in ["-h", "--help"] {
            let out = Command::cargo_bin(alias)
                .unwrap()
                .arg(flag)
                .output()
                .unwrap();
            let text = String::from_utf8(out.stdout).unwrap();
            assert!(text.starts_with(first), "{alias} {flag}:\n{text}");
            assert!(text.contains(same), "{alias} {flag}:\n{text}");
            assert!(text.contains(&format!("Example:\n  {alias} ")), "{text}");
            // Rust doc comments of the flag groups are not help.
            assert!(!text.contains("take these"), "{alias} {flag}:\n{text}");
        }
    }
}

#[test]
fn completions_cover_every_installed_name() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let text = help(&["completions", shell]);
        for name in ["toscana", "tosca2k8s", "tosca2tf", "tosca2dot"] {
            assert!(text.contains(name), "{shell}: no {name}");
        }
    }
    let zsh = help(&["completions", "zsh", "--name", "tosca2k8s"]);
    assert!(zsh.starts_with("#compdef tosca2k8s"), "{zsh}");
    let bash = help(&["completions", "bash"]);
    assert!(
        bash.contains("--namespace"),
        "the alias's own flags are completed"
    );
}
