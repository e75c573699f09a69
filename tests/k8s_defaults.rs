//! The defaults a reviewer expects of every workload (issue 26, scope 4), and the flags that
//! switch each off, through `toscana k8s` and `tosca2k8s` alike: probes on the declared ports
//! (`--no-probes`) and a securityContext at the Pod Security Standards level the image allows
//! (`--no-security-context`).

mod common;

use assert_cmd::Command;

/// The manifests `program` writes for a golden input, with `extra` arguments.
fn manifests(program: &str, case: &str, input: &str, extra: &[&str]) -> String {
    let args = std::fs::read_to_string(format!("golden/{case}/args")).unwrap();
    let out = Command::cargo_bin(program)
        .unwrap()
        .env("NO_COLOR", "1")
        .args(if program == "toscana" {
            &["k8s"][..]
        } else {
            &[]
        })
        .arg(format!("golden/{case}/{input}"))
        .args(args.lines())
        .args(extra)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", common::stderr(&out));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn an_image_that_runs_as_non_root_is_restricted() {
    for program in ["toscana", "tosca2k8s"] {
        let grafana = manifests(program, "k8s-container-on-server", "input.yaml", &[]);
        for line in [
            "    toscana.io/pod-security: restricted\n",
            "        runAsNonRoot: true\n",
            "        runAsUser: 472\n",
            "          type: RuntimeDefault\n",
            "          allowPrivilegeEscalation: false\n",
            "          capabilities:\n            drop:\n            - ALL\n",
        ] {
            assert!(grafana.contains(line), "{line:?} missing from\n{grafana}");
        }
        let off = manifests(
            program,
            "k8s-container-on-server",
            "input.yaml",
            &["--no-security-context"],
        );
        assert!(!off.contains("securityContext"), "{off}");
        assert!(!off.contains("pod-security"), "{off}");
    }
}

#[test]
fn a_lifted_stack_is_baseline_and_probed_on_its_ports() {
    let wp = manifests(
        "toscana",
        "k8s-wordpress-mysql",
        "input/wordpress.yaml",
        &[],
    );
    // Its scripts install packages as root: baseline, with every default capability.
    assert_eq!(
        wp.matches("toscana.io/pod-security: baseline").count(),
        2,
        "{wp}"
    );
    assert!(!wp.contains("runAsNonRoot"), "{wp}");
    assert!(!wp.contains("drop:"), "{wp}");
    // Apache's endpoint says http: an HTTP GET; MySQL's does not: a TCP connection.
    assert!(
        wp.contains("        readinessProbe:\n          httpGet:\n            path: /\n            port: http\n            scheme: HTTP\n"),
        "{wp}"
    );
    assert!(
        wp.contains("        livenessProbe:\n          periodSeconds: 10\n          tcpSocket:\n            port: mysql-dbms\n"),
        "{wp}"
    );
    // A lifted stack may take 15 minutes to install its packages before liveness counts.
    assert!(wp.contains("          failureThreshold: 90\n"), "{wp}");
    for program in ["toscana", "tosca2k8s"] {
        let off = manifests(
            program,
            "k8s-wordpress-mysql",
            "input/wordpress.yaml",
            &["--no-probes"],
        );
        assert!(!off.contains("Probe:"), "{off}");
        assert!(off.contains("securityContext"), "{off}");
    }
}

/// No pod is given the service account's API token it has no use for (a template gives its
/// software no ServiceAccount or RBAC), unless `--service-account-token` asks for it; through
/// `toscana k8s` and `tosca2k8s` alike.
#[test]
fn pods_mount_no_service_account_token_unless_asked() {
    for program in ["toscana", "tosca2k8s"] {
        let wp = manifests(program, "k8s-wordpress-mysql", "input/wordpress.yaml", &[]);
        let pods = wp.matches("\nkind: Deployment\n").count()
            + wp.matches("\nkind: StatefulSet\n").count();
        assert!(pods > 0, "{wp}");
        assert_eq!(
            wp.matches("\n    spec:\n      automountServiceAccountToken: false\n")
                .count(),
            pods,
            "{wp}"
        );
        let on = manifests(
            program,
            "k8s-wordpress-mysql",
            "input/wordpress.yaml",
            &["--service-account-token"],
        );
        assert!(!on.contains("automountServiceAccountToken"), "{on}");
    }
}
