//! `toscana tf` and `tosca2tf` on the command line: providers, warnings, `--backend-dir`
//! overrides, and the loud failure when a template writes something that is not HCL.

use std::fs;
use std::path::PathBuf;

mod common;

use assert_cmd::Command;

use common::{stderr, toscana};

const CONTAINERS: &str = "golden/tf-aws-containers/input.yaml";

/// Writes `template` as `t.yaml` into a fresh folder, with `files` (the scripts it names,
/// as (name, text)) beside it; the folder lives as long as the returned handle.
fn template_folder(template: &str, files: &[(&str, &str)]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        fs::write(dir.path().join(name), text).unwrap();
    }
    let input = dir.path().join("t.yaml");
    fs::write(&input, template).unwrap();
    (dir, input)
}

/// `toscana tf ARGS… t.yaml` on `template` (see [`template_folder`]), which must succeed:
/// its stdout (the configuration) and stderr (the warnings).
fn tf_ok(template: &str, files: &[(&str, &str)], args: &[&str]) -> (String, String) {
    let (_dir, input) = template_folder(template, files);
    let out = toscana().arg("tf").args(args).arg(&input).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr(&out),
    )
}

#[test]
fn container_applications_on_aws_are_warnings_that_suggest_the_kubernetes_provider() {
    let out = toscana()
        .args(["tf", CONTAINERS, "--message-format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    let frontend = err
        .lines()
        .find(|l| l.contains("terraform::unsupported") && l.contains("`frontend`"))
        .unwrap_or_else(|| panic!("no warning for frontend:\n{err}"));
    assert!(frontend.contains("--provider kubernetes"), "{frontend}");
    assert!(frontend.contains("\"line\":29"), "{frontend}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("# ==> main.tf <==\n"), "{stdout}");
    assert!(stdout.contains("\n# ==> versions.tf <==\n"));
}

#[test]
fn the_kubernetes_provider_translates_them_without_a_warning_about_them() {
    let out = toscana()
        .args(["tf", CONTAINERS, "--provider", "kubernetes"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let about_frontend = stderr(&out)
        .lines()
        .any(|l| l.contains("[terraform::") && l.contains("`frontend`"));
    assert!(!about_frontend, "{}", stderr(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("resource \"kubernetes_deployment_v1\" \"frontend\""));
}

#[test]
fn tosca2tf_takes_the_provider_flag_too() {
    let out = Command::cargo_bin("tosca2tf")
        .unwrap()
        .args([CONTAINERS, "--provider", "openstack"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("terraform-provider-openstack/openstack"));
}

#[test]
fn a_backend_dir_adds_rules_and_replaces_templates_of_the_chosen_provider() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir_all(dir.path().join("openstack")).unwrap();
    fs::write(
        dir.path().join("mapping.yaml"),
        "rules:\n  - match: { kind: node, type: tosca.nodes.Storage.ObjectStorage }\n    skip: \"we keep uploads elsewhere\"\n",
    )
    .unwrap();
    fs::write(
        dir.path().join("openstack/providers.tf.tera"),
        "provider \"openstack\" {\ncloud = \"prod\"\n}\n",
    )
    .unwrap();
    let out_dir = tempfile::tempdir().unwrap();
    let out = toscana()
        .args(["tf", CONTAINERS, "--provider", "openstack", "--backend-dir"])
        .arg(dir.path())
        .arg("-o")
        .arg(out_dir.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        fs::read_to_string(out_dir.path().join("providers.tf")).unwrap(),
        "provider \"openstack\" {\n  cloud = \"prod\"\n}\n"
    );
    let main = fs::read_to_string(out_dir.path().join("main.tf")).unwrap();
    assert!(!main.contains("objectstorage"), "{main}");
    assert!(main.contains("openstack_lb_loadbalancer_v2"), "{main}");
}

#[test]
fn a_template_that_writes_invalid_hcl_is_an_internal_error_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir_all(dir.path().join("aws")).unwrap();
    fs::write(
        dir.path().join("aws/providers.tf.tera"),
        "provider \"aws\" {\nregion = \n}\n",
    )
    .unwrap();
    let out_dir = tempfile::tempdir().unwrap();
    let target = out_dir.path().join("tf");
    let out = toscana()
        .args(["tf", CONTAINERS, "--backend-dir"])
        .arg(dir.path())
        .arg("-o")
        .arg(&target)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("error[terraform::internal]"), "{err}");
    assert!(err.contains("providers.tf is not valid HCL"), "{err}");
    assert!(!target.exists(), "nothing may be written");
}

#[test]
fn names_never_clash_with_provider_settings_or_each_other() {
    let (stdout, _) = tf_ok(
        r#"tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  inputs:
    aws_region:
      type: string
      default: eu-west-1
  node_templates:
    Web-VM:
      type: tosca.nodes.Compute
      requirements:
        - local_storage:
            node: disk
            relationship: { type: tosca.relationships.AttachesTo, properties: { location: /a } }
        - local_storage:
            node: disk
            relationship: { type: tosca.relationships.AttachesTo, properties: { location: /b } }
    web_vm:
      type: tosca.nodes.Compute
    disk:
      type: tosca.nodes.Storage.BlockStorage
      properties: { name: disk, size: 1 GiB }
"#,
        &[],
        &[],
    );
    assert!(
        stdout.contains("variable \"aws_region_value\" {"),
        "{stdout}"
    );
    assert!(stdout.contains("resource \"aws_instance\" \"web_vm\" {"));
    assert!(stdout.contains("resource \"aws_instance\" \"web_vm_2\" {"));
    assert_eq!(
        stdout.matches("resource \"aws_volume_attachment\"").count(),
        1,
        "{stdout}"
    );
}

#[test]
fn host_walks_down_the_hosting_chain_and_a_machine_cannot_read_its_own_address() {
    let (stdout, err) = tf_ok(
        r#"tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    app:
      type: tosca.nodes.WebApplication
      requirements:
        - host: server
      interfaces:
        Standard:
          start:
            implementation: run.sh
            inputs:
              VM_CPUS: { get_property: [ HOST, host, num_cpus ] }
              MY_IP: { get_attribute: [ HOST, private_address ] }
    server:
      type: tosca.nodes.WebServer
      requirements:
        - host: vm
    vm:
      type: tosca.nodes.Compute
      capabilities:
        host:
          properties: { num_cpus: 4 }
"#,
        &[("run.sh", "#!/bin/sh\necho run\n")],
        &[],
    );
    assert!(stdout.contains("\"export VM_CPUS='4'\""), "{stdout}");
    assert!(!stdout.contains("MY_IP"), "{stdout}");
    assert!(
        err.contains("input `MY_IP`") && err.contains("the machine the script runs on"),
        "{err}"
    );
}

#[test]
fn machines_that_wait_for_each_other_are_warnings_not_cycles() {
    let (stdout, err) = tf_ok(
        r#"tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    a:
      type: tosca.nodes.SoftwareComponent
      requirements:
        - host: vm_a
        - dependency: b
      interfaces:
        Standard:
          configure:
            implementation: join.sh
            inputs:
              PEER: { get_attribute: [ vm_b, private_address ] }
    b:
      type: tosca.nodes.SoftwareComponent
      requirements:
        - host: vm_b
        - dependency: a
      interfaces:
        Standard:
          configure:
            implementation: join.sh
            inputs:
              PEER: { get_attribute: [ vm_a, private_address ] }
    vm_a:
      type: tosca.nodes.Compute
    vm_b:
      type: tosca.nodes.Compute
    x:
      type: tosca.nodes.Compute
      requirements:
        - dependency: y
    y:
      type: tosca.nodes.Compute
      requirements:
        - dependency: x
"#,
        &[("join.sh", "#!/bin/sh\necho join\n")],
        &[],
    );
    assert!(
        err.contains("`vm_a`, `vm_b` read each other's attributes"),
        "{err}"
    );
    assert_eq!(
        err.lines()
            .filter(|l| l.contains("warning[") && l.contains("would close a cycle"))
            .count(),
        2,
        "both dependencies between x and y are left out:\n{err}"
    );
    assert!(!stdout.contains("depends_on"), "{stdout}");
}

#[test]
fn a_size_no_provider_can_hold_is_an_error_at_its_node_never_inf() {
    let (dir, template) = template_folder(
        "tosca_definitions_version: tosca_simple_yaml_1_0\ntopology_template:\n  inputs:\n    disk_size:\n      type: string\n      default: 1e300 TB\n  node_templates:\n    vm:\n      type: tosca.nodes.Compute\n    disk:\n      type: tosca.nodes.BlockStorage\n      properties:\n        size: { get_input: disk_size }\n",
        &[],
    );
    let out_dir = dir.path().join("out");
    let out = toscana()
        .arg("tf")
        .arg(&template)
        .arg("-o")
        .arg(&out_dir)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(!out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    let line = err
        .lines()
        .find(|l| l.contains("error[terraform::out-of-range]"))
        .unwrap_or_else(|| panic!("no out-of-range error:\n{err}"));
    assert!(line.contains("t.yaml:10:5"), "{line}");
    assert!(
        line.contains("1e300 TB") && line.contains("9223372036854775807 GiB"),
        "{line}"
    );
    assert!(!out_dir.exists(), "nothing is written");
}

/// A resource a node's template derives from its name (load balancer `front`'s security
/// group, `front_lb`) never takes the name of a node's own resource of the same type (machine
/// `front_lb`'s group): both groups are written, under different names.
#[test]
fn a_derived_name_never_takes_a_node_name() {
    let (stdout, _) = tf_ok(
        r#"tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    front:
      type: tosca.nodes.LoadBalancer
      requirements:
        - application: app
    app:
      type: tosca.nodes.WebApplication
      requirements:
        - host: server
    server:
      type: tosca.nodes.WebServer
      requirements:
        - host: front_lb
    front_lb:
      type: tosca.nodes.Compute
      capabilities:
        endpoint:
          properties:
            port: 22
"#,
        &[],
        &[],
    );
    assert!(
        stdout.contains("resource \"aws_security_group\" \"front_lb\" {"),
        "{stdout}"
    );
    assert!(
        stdout.contains("resource \"aws_security_group\" \"front_lb_2\" {"),
        "{stdout}"
    );
    assert!(
        stdout.contains("[aws_security_group.front_lb_2.id, data.aws_security_group.default.id]"),
        "{stdout}"
    );
    assert_eq!(
        stdout
            .matches("resource \"aws_security_group\" \"front_lb\" {")
            .count(),
        1,
        "{stdout}"
    );
}

/// A load balancer is in the VPC of the first machine it routes to (here network `net`'s); a
/// machine in another VPC (the default one) could never register in its target group, so it
/// is left out with a warning that says where each is and what would be right.
#[test]
fn a_load_balancer_routes_only_to_machines_in_its_own_vpc() {
    let (stdout, err) = tf_ok(
        r#"tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    front:
      type: tosca.nodes.LoadBalancer
      requirements:
        - application: app_a
        - application: app_b
    app_a:
      type: tosca.nodes.WebApplication
      requirements:
        - host: server_a
    app_b:
      type: tosca.nodes.WebApplication
      requirements:
        - host: server_b
    server_a:
      type: tosca.nodes.WebServer
      requirements:
        - host: vm_a
    server_b:
      type: tosca.nodes.WebServer
      requirements:
        - host: vm_b
    vm_a:
      type: tosca.nodes.Compute
    vm_b:
      type: tosca.nodes.Compute
    net:
      type: tosca.nodes.network.Network
      properties:
        cidr: 10.1.0.0/16
    port_a:
      type: tosca.nodes.network.Port
      requirements:
        - link: net
        - binding: vm_a
"#,
        &[],
        &["--message-format", "json"],
    );
    let warning = err
        .lines()
        .find(|l| l.contains("does not route to machine `vm_b`"))
        .unwrap_or_else(|| panic!("no warning for vm_b:\n{err}"));
    assert!(warning.contains("terraform::unexpressed"), "{warning}");
    assert!(warning.contains("the default VPC"), "{warning}");
    assert!(warning.contains("network `net`"), "{warning}");
    assert!(warning.contains("in one network"), "{warning}");
    assert!(
        stdout.contains("target_id        = aws_instance.vm_a.id"),
        "{stdout}"
    );
    assert!(!stdout.contains("aws_instance.vm_b.id"), "{stdout}");
    assert!(stdout.contains("vpc_id   = aws_vpc.net.id"), "{stdout}");
    assert!(
        stdout.contains("subnets            = [aws_subnet.net_lb_1.id, aws_subnet.net_lb_2.id]"),
        "{stdout}"
    );
}

/// A machine in a private network of the template whose software runs a script gets a way
/// out (AWS: a NAT gateway and a route to it in the subnet's own route table; OpenStack: a
/// router to the external network) and waits for it; a private network whose machines run no
/// script gets none.
#[test]
fn scripts_in_a_private_network_get_a_route_out_and_wait_for_it() {
    let template = r#"tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    app:
      type: tosca.nodes.SoftwareComponent
      requirements:
        - host: vm
      interfaces:
        Standard:
          create: install.sh
    vm:
      type: tosca.nodes.Compute
    quiet:
      type: tosca.nodes.Compute
    net:
      type: tosca.nodes.network.Network
      properties: { cidr: 10.1.0.0/16 }
    calm:
      type: tosca.nodes.network.Network
      properties: { cidr: 10.2.0.0/16 }
    port:
      type: tosca.nodes.network.Port
      requirements:
        - link: net
        - binding: vm
    quiet_port:
      type: tosca.nodes.network.Port
      requirements:
        - link: calm
        - binding: quiet
"#;
    let files = [("install.sh", "#!/bin/sh\napt-get install -y nginx\n")];
    let (aws, _) = tf_ok(template, &files, &[]);
    for wanted in [
        "resource \"aws_nat_gateway\" \"net_nat_gateway\"",
        "subnet_id     = aws_subnet.net_nat.id",
        "nat_gateway_id         = aws_nat_gateway.net_nat_gateway.id",
        "subnet_id      = aws_subnet.net.id",
        "depends_on = [aws_route.net_out]",
    ] {
        assert!(aws.contains(wanted), "no {wanted}:\n{aws}");
    }
    assert!(!aws.contains("aws_nat_gateway\" \"calm"), "{aws}");
    assert!(!aws.contains("aws_internet_gateway\" \"calm"), "{aws}");
    let (openstack, _) = tf_ok(template, &files, &["--provider", "openstack"]);
    assert!(
        openstack.contains("resource \"openstack_networking_router_interface_v2\" \"net\""),
        "{openstack}"
    );
    assert!(
        openstack.contains("depends_on = [openstack_networking_router_interface_v2.net]"),
        "{openstack}"
    );
    assert!(!openstack.contains("router_v2\" \"calm"), "{openstack}");
}

/// Two attachments of one machine are each mounted, in order, before its scripts; a location
/// that is no absolute path is a warning at the relationship, not a mount.
#[test]
fn each_attachment_is_mounted_before_the_scripts_and_a_bad_location_is_a_warning() {
    let template = r#"tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    db:
      type: tosca.nodes.SoftwareComponent
      requirements:
        - host: vm
      interfaces:
        Standard:
          create: install.sh
    vm:
      type: tosca.nodes.Compute
      requirements:
        - local_storage:
            node: data
            relationship: { type: tosca.relationships.AttachesTo, properties: { location: /var/lib/mysql } }
        - local_storage:
            node: logs
            relationship: { type: tosca.relationships.AttachesTo, properties: { location: "/var/log/it's" } }
        - local_storage:
            node: odd
            relationship: { type: tosca.relationships.AttachesTo, properties: { location: relative/dir } }
    data:
      type: tosca.nodes.Storage.BlockStorage
      properties: { name: disk, size: 10 GiB }
    logs:
      type: tosca.nodes.Storage.BlockStorage
      properties: { name: disk, size: 10 GiB }
    odd:
      type: tosca.nodes.Storage.BlockStorage
      properties: { name: disk, size: 10 GiB }
"#;
    let files = [("install.sh", "#!/bin/sh\necho install\n")];
    let (aws, err) = tf_ok(template, &files, &[]);
    let data = aws
        .find("mount-volume '/var/lib/mysql' /dev/disk/by-id/nvme-Amazon_Elastic_Block_Store_${replace(aws_ebs_volume.data.id, \"-\", \"\")} '/dev/sdf' '/dev/xvdf' || exit 1")
        .unwrap_or_else(|| panic!("no mount of data:\n{aws}"));
    let logs = aws
        .find("mount-volume '/var/log/it'\\\\''s' ")
        .unwrap_or_else(|| panic!("no mount of logs:\n{aws}"));
    let script = aws.find("exec /opt/toscana/01-").expect("the script runs");
    assert!(data < logs && logs < script, "{aws}");
    assert!(!aws.contains("relative/dir'"), "{aws}");
    assert!(
        aws.contains("availability_zone = data.aws_availability_zones.available.names[0]"),
        "{aws}"
    );
    assert!(!aws.contains("aws_instance.vm.availability_zone"), "{aws}");
    assert!(
        err.contains("volume `odd` is attached to `vm` but not mounted")
            && err.contains("no absolute path"),
        "{err}"
    );
    let (openstack, _) = tf_ok(template, &files, &["--provider", "openstack"]);
    assert!(
        openstack.contains(
            "mount-volume '/var/lib/mysql' /dev/disk/by-id/virtio-${substr(openstack_blockstorage_volume_v3.data.id, 0, 20)} || exit 1"
        ),
        "{openstack}"
    );
}
