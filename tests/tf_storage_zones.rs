//! `toscana tf` on block storage and placement zones (issue 27): a volume of a machine a
//! scaling policy scales is a block device of its launch template, each of a machine's
//! volumes takes a device of its own, a snapshot's volume is not shrunk to a type's default
//! size, and a placement policy's zones reach the instances, the groups, the subnets and the
//! OpenStack servers, with a warning where one cannot.

use std::fs;

mod common;

use common::{stderr, toscana};

/// `main.tf` and the warnings of `toscana tf` on `template` with `provider`.
fn translate(template: &str, provider: &str) -> (String, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.yaml");
    fs::write(&path, template).unwrap();
    let out_dir = dir.path().join("out");
    let out = toscana()
        .arg("tf")
        .arg(&path)
        .args(["--provider", provider, "-o"])
        .arg(&out_dir)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let main = fs::read_to_string(out_dir.join("main.tf")).unwrap();
    (main, stderr(&out))
}

/// The block `header { ... }` of `text` (from its header line to the closing brace at the
/// start of a line).
fn block<'t>(text: &'t str, header: &str) -> &'t str {
    let start = text
        .find(header)
        .unwrap_or_else(|| panic!("no `{header}` in:\n{text}"));
    let end = text[start..]
        .find("\n}\n")
        .map_or(text.len(), |e| start + e + 3);
    &text[start..end]
}

const SCALED_WITH_VOLUMES: &str = r#"tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    web:
      type: tosca.nodes.Compute
      requirements:
        - local_storage: { node: cache, relationship: { type: tosca.relationships.AttachesTo, properties: { location: /cache } } }
        - local_storage: { node: media, relationship: { type: tosca.relationships.AttachesTo, properties: { location: /media } } }
        - local_storage: { node: logs, relationship: { type: tosca.relationships.AttachesTo, properties: { location: /logs, device: /dev/sdk } } }
    solo:
      type: tosca.nodes.Compute
      requirements:
        - local_storage: { node: shared, relationship: { type: tosca.relationships.AttachesTo, properties: { location: /a } } }
        - local_storage: { node: other, relationship: { type: tosca.relationships.AttachesTo, properties: { location: /b } } }
    cache:
      type: tosca.nodes.Storage.BlockStorage
      properties: { name: cache, size: 20 GiB }
    media:
      type: tosca.nodes.Storage.BlockStorage
      properties: { name: media, snapshot_id: snap-1 }
    logs:
      type: tosca.nodes.Storage.BlockStorage
      properties: { name: logs, size: 5 GiB }
    shared:
      type: tosca.nodes.Storage.BlockStorage
      properties: { name: shared, size: 8 GiB }
    other:
      type: tosca.nodes.Storage.BlockStorage
      properties: { name: other, size: 8 GiB, snapshot_id: snap-2 }
  policies:
    - grow:
        type: tosca.policies.Scaling
        targets: [ web ]
        properties: { min_instances: 1, max_instances: 4, default_instances: 1 }
"#;

#[test]
fn volumes_of_a_scaled_aws_machine_are_block_devices_of_its_launch_template() {
    let (main, warnings) = translate(SCALED_WITH_VOLUMES, "aws");
    let template = block(&main, "resource \"aws_launch_template\" \"web\"");
    // The root disk, then one mapping per volume, devices from /dev/sdf on, a named one as named.
    assert_eq!(
        template.matches("block_device_mappings {").count(),
        4,
        "{template}"
    );
    let cache = block(template, "device_name = \"/dev/sdf\"");
    assert!(cache.contains("volume_size           = 20"), "{cache}");
    assert!(cache.contains("volume_type           = \"gp3\""), "{cache}");
    assert!(cache.contains("delete_on_termination = true"), "{cache}");
    let media = &template[template.find("\"/dev/sdg\"").expect("media at /dev/sdg")..];
    let media = &media[..media.find("\n  }\n").unwrap()];
    assert!(
        media.contains("snapshot_id           = \"snap-1\""),
        "{media}"
    );
    // Simple Profile 1.3's default size (1 MB) would ask for a volume smaller than the snapshot.
    assert!(!media.contains("volume_size"), "{media}");
    assert!(
        template.contains("device_name = \"/dev/sdk\""),
        "{template}"
    );
    // No volume resource nor attachment stands for them: they cannot attach to a group.
    for volume in ["cache", "media", "logs"] {
        assert!(
            !main.contains(&format!("resource \"aws_ebs_volume\" \"{volume}\"")),
            "{main}"
        );
    }
    assert!(
        !main.contains("_web\""),
        "no attachment to the scaled machine:\n{main}"
    );
    assert!(!warnings.contains("not attached"), "{warnings}");
}

#[test]
fn the_volumes_of_one_machine_take_distinct_devices() {
    let (main, _) = translate(SCALED_WITH_VOLUMES, "aws");
    let shared = block(&main, "resource \"aws_volume_attachment\" \"shared_solo\"");
    let other = block(&main, "resource \"aws_volume_attachment\" \"other_solo\"");
    assert!(shared.contains("\"/dev/sdf\""), "{shared}");
    assert!(other.contains("\"/dev/sdg\""), "{other}");
    // A size the template gives stays beside a snapshot.
    let other = block(&main, "resource \"aws_ebs_volume\" \"other\"");
    assert!(other.contains("size              = 8"), "{other}");
    assert!(other.contains("type              = \"gp3\""), "{other}");
}

const ZONES: &str = r#"tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    a:
      type: tosca.nodes.Compute
    b:
      type: tosca.nodes.Compute
    c:
      type: tosca.nodes.Compute
    web:
      type: tosca.nodes.Compute
    net:
      type: tosca.nodes.network.Network
      properties: { cidr: 10.1.0.0/16 }
    p1:
      type: tosca.nodes.network.Port
      requirements:
        - link: net
        - binding: inner_1
    p2:
      type: tosca.nodes.network.Port
      requirements:
        - link: net
        - binding: inner_2
    inner_1:
      type: tosca.nodes.Compute
    inner_2:
      type: tosca.nodes.Compute
  policies:
    - spread:
        type: tosca.policies.Placement
        targets: [ a, b, c ]
        properties: { zones: [ z-1, z-2 ] }
    - web_zones:
        type: tosca.policies.Placement
        targets: [ web ]
        properties: { availability_zones: [ z-1, z-2 ] }
    - inner_one:
        type: tosca.policies.Placement
        targets: [ inner_1 ]
        properties: { zone: z-1 }
    - inner_two:
        type: tosca.policies.Placement
        targets: [ inner_2 ]
        properties: { zone: z-2 }
    - grow:
        type: tosca.policies.Scaling
        targets: [ web ]
"#;

#[test]
fn placement_zones_reach_aws_instances_groups_and_subnets() {
    let (main, warnings) = translate(ZONES, "aws");
    // Machines spread over the zones in order, round the list.
    for (machine, zone) in [("a", "z-1"), ("b", "z-2"), ("c", "z-1")] {
        let instance = block(&main, &format!("resource \"aws_instance\" \"{machine}\""));
        assert!(
            instance.contains(&format!("availability_zone = \"{zone}\"")),
            "{instance}"
        );
    }
    // A scaled machine's group launches in the default VPC's subnets of all its zones.
    let subnets = block(&main, "data \"aws_subnets\" \"web_zones\"");
    assert!(subnets.contains("\"availability-zone\""), "{subnets}");
    assert!(subnets.contains("[\"z-1\", \"z-2\"]"), "{subnets}");
    let group = block(&main, "resource \"aws_autoscaling_group\" \"web\"");
    assert!(
        group.contains("vpc_zone_identifier = data.aws_subnets.web_zones.ids"),
        "{group}"
    );
    // A machine in a network of the template is in its subnet's zone: the first asked; the
    // other machine there is warned about.
    let subnet = block(&main, "resource \"aws_subnet\" \"net\"");
    assert!(subnet.contains("availability_zone = \"z-1\""), "{subnet}");
    let inner_2 = block(&main, "resource \"aws_instance\" \"inner_2\"");
    assert!(!inner_2.contains("availability_zone"), "{inner_2}");
    let warning = warnings
        .lines()
        .find(|l| l.contains("`inner_2` is placed in zone \"z-2\""))
        .unwrap_or_else(|| panic!("no warning for inner_2:\n{warnings}"));
    assert!(warning.contains("t.yaml:27:5"), "{warning}");
    assert!(warning.contains("zone \"z-1\""), "{warning}");
    // Zones replace a placement group, as `toscana k8s` reads such a policy.
    assert!(!main.contains("aws_placement_group"), "{main}");
    assert!(
        !warnings.contains("zones` of placement policy"),
        "{warnings}"
    );
}

#[test]
fn placement_zones_are_openstack_availability_zones() {
    let (main, _) = translate(ZONES, "openstack");
    for (machine, zone) in [("a", "z-1"), ("b", "z-2"), ("c", "z-1"), ("inner_2", "z-2")] {
        let server = block(
            &main,
            &format!("resource \"openstack_compute_instance_v2\" \"{machine}\""),
        );
        assert!(
            server.contains(&format!("availability_zone = \"{zone}\"")),
            "{server}"
        );
    }
}
