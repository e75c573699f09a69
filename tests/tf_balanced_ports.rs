//! A load balancer reaches the machines it routes to (issue 27, "infrastructure that works"):
//! the port it routes to on each machine is opened in the machine's security group, to the
//! load balancer's addresses, whether or not an endpoint declares it. On OpenStack a machine in
//! no network of the template admits the project network's subnet on that port (Octavia's
//! amphora is on it, and no member of the project's default group); its other private
//! endpoints stay open to the default group's members only.

mod common;

use std::collections::BTreeMap;

use common::{stderr, toscana};
use hcl_edit::structure::Body;

/// Two load balancers in front of one machine in no network of the template: `front` routes
/// to `shop`, whose endpoint declares no port (the default 80), `back` to `api` on its declared
/// port 8080; the web server's admin endpoint declares 9000, which no load balancer routes to.
const TEMPLATE: &str = r#"tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    front:
      type: tosca.nodes.LoadBalancer
      requirements:
        - application: shop
    back:
      type: tosca.nodes.LoadBalancer
      requirements:
        - application: api
    shop:
      type: tosca.nodes.WebApplication
      requirements:
        - host: server
    api:
      type: tosca.nodes.WebApplication
      capabilities:
        app_endpoint:
          properties:
            port: 8080
      requirements:
        - host: server
    server:
      type: tosca.nodes.WebServer
      capabilities:
        admin_endpoint:
          properties:
            port: 9000
      requirements:
        - host: vm
    vm:
      type: tosca.nodes.Compute
"#;

/// The same machine with a port in a network of the template.
const IN_A_NETWORK: &str = r#"
    net:
      type: tosca.nodes.network.Network
      properties:
        cidr: 10.1.0.0/16
    port:
      type: tosca.nodes.network.Port
      requirements:
        - link: net
        - binding: vm
"#;

/// `toscana tf --provider PROVIDER` on `template`: its `main.tf`, parsed.
fn main_tf(template: &str, provider: &str) -> Body {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("t.yaml");
    std::fs::write(&input, template).unwrap();
    let out = toscana()
        .args(["tf", "--provider", provider])
        .arg(&input)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let main = stdout
        .split("# ==> ")
        .find_map(|f| f.strip_prefix("main.tf <==\n"))
        .unwrap_or_else(|| panic!("no main.tf in:\n{stdout}"));
    main.parse::<Body>()
        .unwrap_or_else(|e| panic!("main.tf does not parse: {e}\n{main}"))
}

/// The blocks `kind "type" "name"` of `body`: name → attribute → its value as HCL text.
fn blocks(body: &Body, kind: &str, type_: &str) -> BTreeMap<String, BTreeMap<String, String>> {
    body.get_blocks(kind)
        .filter(|b| b.labels.first().is_some_and(|l| l.as_str() == type_))
        .filter_map(|b| {
            let name = b.labels.get(1)?.as_str().to_string();
            let attributes = b
                .body
                .attributes()
                .map(|a| {
                    (
                        a.key.as_str().to_string(),
                        a.value.to_string().trim().to_string(),
                    )
                })
                .collect();
            Some((name, attributes))
        })
        .collect()
}

#[test]
fn on_openstack_a_machine_in_no_network_admits_the_project_subnet_on_balanced_ports() {
    let body = main_tf(TEMPLATE, "openstack");
    let rules = blocks(&body, "resource", "openstack_networking_secgroup_rule_v2");
    for port in ["80", "8080"] {
        let rule = &rules[&format!("vm_tcp_{port}_private")];
        assert_eq!(rule["port_range_min"], port, "{rule:?}");
        assert_eq!(
            rule["remote_ip_prefix"], "data.openstack_networking_subnet_v2.default.cidr",
            "{rule:?}"
        );
        assert!(!rule.contains_key("remote_group_id"), "{rule:?}");
        assert!(rule["description"].contains("load balancer"), "{rule:?}");
    }
    // No load balancer routes to 9000: it stays open to the default group's members.
    let admin = &rules["vm_tcp_9000_private"];
    assert_eq!(
        admin["remote_group_id"],
        "data.openstack_networking_secgroup_v2.default.id"
    );
    assert!(!admin.contains_key("remote_ip_prefix"), "{admin:?}");
    let subnets = blocks(&body, "data", "openstack_networking_subnet_v2");
    let subnet = &subnets["default"];
    assert_eq!(
        subnet["network_id"],
        "data.openstack_networking_network_v2.default.id"
    );
    assert_eq!(subnet["ip_version"], "4");
    // Each load balancer's member is the machine on the port its rule opens.
    let members = blocks(&body, "resource", "openstack_lb_member_v2");
    assert_eq!(members["front_vm"]["protocol_port"], "80");
    assert_eq!(members["back_vm"]["protocol_port"], "8080");
    let servers = blocks(&body, "resource", "openstack_compute_instance_v2");
    assert_eq!(
        servers["vm"]["security_groups"],
        "[openstack_networking_secgroup_v2.vm.name, \"default\"]"
    );
}

#[test]
fn on_openstack_a_machine_in_a_network_admits_its_subnet_and_needs_no_project_subnet() {
    let body = main_tf(&format!("{TEMPLATE}{IN_A_NETWORK}"), "openstack");
    let rules = blocks(&body, "resource", "openstack_networking_secgroup_rule_v2");
    for port in ["80", "8080", "9000"] {
        assert_eq!(
            rules[&format!("vm_tcp_{port}_private")]["remote_ip_prefix"],
            "openstack_networking_subnet_v2.net.cidr"
        );
    }
    assert!(blocks(&body, "data", "openstack_networking_subnet_v2").is_empty());
    let members = blocks(&body, "resource", "openstack_lb_member_v2");
    assert_eq!(
        members["front_vm"]["subnet_id"],
        "openstack_networking_subnet_v2.net.id"
    );
}

/// On AWS the load balancer is in the default VPC's subnets, inside the VPC's range, which the
/// port it routes to admits even where no endpoint declares that port.
#[test]
fn on_aws_the_undeclared_port_a_load_balancer_routes_to_is_opened_to_the_vpc() {
    let body = main_tf(TEMPLATE, "aws");
    let rules = blocks(&body, "resource", "aws_vpc_security_group_ingress_rule");
    for port in ["80", "8080", "9000"] {
        let rule = &rules[&format!("vm_tcp_{port}_private")];
        assert_eq!(rule["from_port"], port, "{rule:?}");
        assert_eq!(rule["cidr_ipv4"], "data.aws_vpc.default.cidr_block");
    }
    let attachments = blocks(&body, "resource", "aws_lb_target_group_attachment");
    assert_eq!(attachments["front_vm"]["port"], "80");
}

/// In a network of the template the load balancer's subnets are in the range added to the
/// VPC, outside the network's `cidr`: the routed ports admit that range too, not only the VPC's
/// primary range, so the load balancer does not depend on the VPC's default group.
#[test]
fn on_aws_a_machine_in_a_network_admits_its_load_balancers_subnets_on_routed_ports() {
    let body = main_tf(&format!("{TEMPLATE}{IN_A_NETWORK}"), "aws");
    let rules = blocks(&body, "resource", "aws_vpc_security_group_ingress_rule");
    for port in ["80", "8080"] {
        let name = format!("vm_tcp_{port}_private");
        assert_eq!(rules[&name]["cidr_ipv4"], "aws_vpc.net.cidr_block");
        assert_eq!(
            rules[&format!("{name}_lb")]["cidr_ipv4"],
            "aws_vpc_ipv4_cidr_block_association.net_lb.cidr_block"
        );
    }
    // No load balancer routes to 9000: the network alone.
    assert!(rules.contains_key("vm_tcp_9000_private"));
    assert!(!rules.contains_key("vm_tcp_9000_private_lb"));
}
