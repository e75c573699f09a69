//! Value definitions name data types: the valid counterparts of the `value-type-*` bad-input
//! cases. Built-in types, scalar-unit types, normative and own data types, as a definition's
//! `type` and as its `entry_schema` and `key_schema`, check with no error in types no template
//! uses; constraint clauses whose operands fit their types are accepted as well.

mod common;

use common::assert_checks_clean as accepted;
use common::toscana;

#[test]
fn simple_profile_definitions_naming_data_types_are_accepted() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.yaml");
    std::fs::write(
        &path,
        "tosca_definitions_version: tosca_simple_yaml_1_3
data_types:
  example.Member:
    derived_from: tosca.datatypes.Root
    properties:
      name: { type: string }
node_types:
  example.Cluster:
    derived_from: tosca.nodes.Root
    properties:
      members:
        type: map
        key_schema: string
        entry_schema:
          type: example.Member
      sizes:
        type: list
        entry_schema: scalar-unit.size
      credential:
        type: tosca.datatypes.Credential
        required: false
      window:
        type: range
        required: false
",
    )
    .unwrap();
    let out = toscana().arg("check").arg(&path).output().unwrap();
    let stderr = common::stderr(&out);
    assert!(
        out.status.success() && !stderr.contains("error"),
        "{stderr}"
    );
}

/// The valid counterpart of `data-type-2-0-scalar-properties`: a scalar type narrows its values
/// with `validation`, and a complex type (derived from no built-in type) holds properties,
/// one of them of the scalar type.
#[test]
fn tosca2_scalar_types_without_properties_are_accepted() {
    common::assert_checks_clean(
        "tosca_definitions_version: tosca_2_0
data_types:
  Speed:
    derived_from: scalar
    units:
      m/s: 1
    validation: { $greater_or_equal: [ $value, 0 m/s ] }
  Measured:
    properties:
      speed: { type: Speed }
      precision: { type: integer }
service_template:
  inputs:
    reading:
      type: Measured
      default: { speed: 3 m/s, precision: 2 }
  node_templates: {}
",
    );
}

/// The valid counterparts of `value-type-*-operation-input-schema` and
/// `value-type-2-0-service-input-schema`: interface parameters and service inputs whose schemas
/// name data types.
#[test]
fn parameter_schemas_that_name_data_types_are_accepted() {
    accepted(
        "tosca_definitions_version: tosca_simple_yaml_1_3
data_types:
  Host:
    derived_from: tosca.datatypes.Root
    properties:
      name: { type: string }
interface_types:
  Deploy:
    derived_from: tosca.interfaces.Root
    run:
      inputs:
        hosts: { type: list, entry_schema: Host, required: false }
        labels: { type: map, entry_schema: { type: string }, required: false }
",
    );
    accepted(
        "tosca_definitions_version: tosca_2_0
data_types:
  Host:
    properties:
      name: { type: string }
node_types:
  App:
    interfaces:
      deploy:
        operations:
          run:
            inputs:
              hosts: { type: list, entry_schema: Host, required: false }
service_template:
  inputs:
    hosts: { type: map, entry_schema: { type: Host }, required: false }
  node_templates:
    app:
      type: App
",
    );
}

#[test]
fn simple_profile_constraint_clauses_that_fit_their_types_are_accepted() {
    // The valid counterparts of the `constraint-1-x-*` cases and data-type-1-x-constraint-operand:
    // operands of every constrained type, `in_range` bounds of a `range` (its integers) and
    // `UNBOUNDED`, versions kept as written (`1.10`), a data type's own constraints, schema
    // and topology input clauses, all judged where they are written.
    accepted(
        "tosca_definitions_version: tosca_simple_yaml_1_3
data_types:
  Port:
    derived_from: integer
    constraints:
      - in_range: [ 1, 65535 ]
  Label:
    derived_from: string
    constraints:
      - pattern: \"[a-z]+\"
      - max_length: 63
node_types:
  Server:
    derived_from: tosca.nodes.Root
    properties:
      disk:
        type: scalar-unit.size
        required: false
        constraints:
          - greater_or_equal: 1 GB
          - valid_values: [ 1 GB, 2 GiB ]
      ports:
        type: range
        required: false
        constraints:
          - in_range: [ 1, UNBOUNDED ]
      release:
        type: version
        required: false
        constraints:
          - valid_values: [ 1.10, 2.0.1.beta-2 ]
      since:
        type: timestamp
        required: false
        constraints:
          - greater_than: 2001-12-14t21:59:43.10-05:00
      names:
        type: list
        required: false
        constraints:
          - min_length: 1
        entry_schema:
          type: string
          constraints:
            - length: 3
      port:
        type: Port
        required: false
        constraints:
          - less_than: 1024
topology_template:
  inputs:
    replicas:
      type: integer
      default: 2
      constraints:
        - in_range: [ 1, 10 ]
  node_templates:
    server:
      type: Server
",
    );
}

/// The valid counterpart of the `schema-2-0-*` and `data-type-2-0-*-schema-*` cases: every
/// list and map says the type of its entries, a map's keys are strings or a type derived from
/// string, a data type derived from a list inherits its parent's entry schema, and a property
/// of such a type (or one refining an inherited list) needs no entry schema of its own
/// (§9.2 Data Type, §9.3 Schema Definition, §9.4 Property Definition).
#[test]
fn tosca2_schemas_that_fit_their_types_are_accepted() {
    common::assert_checks_clean(
        "tosca_definitions_version: tosca_2_0
data_types:
  Name:
    derived_from: string
  Names:
    derived_from: list
    entry_schema: Name
  ShortNames:
    derived_from: Names
    validation: { $less_than: [ { $length: [ $value ] }, 4 ] }
  Labels:
    derived_from: map
    key_schema: Name
    entry_schema: string
node_types:
  Base:
    properties:
      ports:
        type: list
        entry_schema: integer
      labels:
        type: map
        key_schema: Name
        entry_schema:
          type: list
          entry_schema: string
      tags:
        type: ShortNames
      env:
        type: Labels
      plain:
        type: map
        entry_schema: string
  Derived:
    derived_from: Base
    properties:
      ports:
        default: [ 80 ]
      # Restating the type keeps the inherited entry_schema (§9.4 Property Definition).
      plain:
        type: map
        description: refined
service_template:
  inputs:
    names:
      type: list
      entry_schema: string
      default: [ a ]
  node_templates:
    n:
      type: Derived
      properties:
        labels: { a: [ x ] }
        tags: [ ab ]
        env: { k: v }
        plain: { k: v }
",
    );
}

/// `.inf`, `-.inf` and `.nan` are YAML 1.2 floats, so values of TOSCA's `float` (A.2.2,
/// §9.1.1.3): the IR keeps them of kind `float`, written as their YAML spelling since JSON
/// has no number for them.
#[test]
fn non_finite_floats_are_floats_in_the_ir() {
    // A Simple Profile node type derives from tosca.nodes.Root (SP-TYPE-08); TOSCA 2.0 has no
    // root type without a profile, and a map there needs its entry_schema (§9.4 Property
    // Definition); a 1.x map may leave it out.
    for (version, topology, root, map) in [
        (
            "tosca_simple_yaml_1_3",
            "topology_template",
            "derived_from: tosca.nodes.Root",
            "type: map",
        ),
        (
            "tosca_2_0",
            "service_template",
            "description: a gauge",
            "type: map, entry_schema: float",
        ),
    ] {
        let ir = common::ir_clean(&format!(
            "tosca_definitions_version: {version}
node_types:
  Gauge:
    {root}
    properties:
      high: {{ type: float }}
      low: {{ type: float }}
      unknown: {{ type: float }}
      untyped: {{ {map} }}
{topology}:
  node_templates:
    gauge:
      type: Gauge
      properties:
        high: .inf
        low: -.Inf
        unknown: .nan
        untyped: {{ ratio: .INF }}
"
        ));
        let properties = &ir["nodes"][0]["properties"];
        for (name, text) in [("high", ".inf"), ("low", "-.inf"), ("unknown", ".nan")] {
            assert_eq!(properties[name]["kind"], "float", "{version}: {properties}");
            assert_eq!(properties[name]["value"], text, "{version}: {properties}");
        }
        let ratio = &properties["untyped"]["value"]["ratio"];
        assert_eq!(ratio["kind"], "float", "{version}: {properties}");
        assert_eq!(ratio["value"], ".inf", "{version}: {properties}");
    }
}

/// The valid counterparts of the `normative-1-x-*` cases: a Scalable capability whose
/// `default_instances` lies in [min_instances, max_instances] (bounds included), assigned
/// Endpoints that give `port` or `ports`, and normative endpoints a template leaves as its type
/// defines them (Compute's `endpoint`, which has neither), check clean (C.3.10.1 Properties,
/// C.3.4.4 Additional requirements).
#[test]
fn normative_capability_rules_accept_what_they_allow() {
    accepted(
        "tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    server:
      type: tosca.nodes.Compute
      capabilities:
        scalable:
          properties: { min_instances: 2, max_instances: 4, default_instances: 4 }
    web_server:
      type: tosca.nodes.WebServer
      requirements:
        - host: server
      capabilities:
        data_endpoint:
          properties: { protocol: http, port: 8080 }
        admin_endpoint:
          properties:
            ports:
              console: { protocol: tcp, target: 9990 }
",
    );
}

/// The valid counterpart of `node-filter-1-x-capability-by-type`: a node_filter that names the
/// target's capability by its type selects the template whose `host` capability passes
/// (A.5.4.4 Additional requirements of Node Filter).
#[test]
fn simple_profile_node_filters_may_name_a_capability_by_its_type() {
    let ir = common::ir_clean(
        "tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    app:
      type: tosca.nodes.SoftwareComponent
      requirements:
        - host:
            node: tosca.nodes.Compute
            node_filter:
              capabilities:
                - tosca.capabilities.Compute:
                    properties:
                      - num_cpus: { greater_or_equal: 4 }
    small:
      type: tosca.nodes.Compute
      capabilities:
        host:
          properties: { num_cpus: 2 }
    big:
      type: tosca.nodes.Compute
      capabilities:
        host:
          properties: { num_cpus: 8 }
",
    );
    let hosting = &ir["relationships"][0];
    let target = hosting["target"].as_u64().expect("a target node index") as usize;
    assert_eq!(ir["nodes"][target]["name"], "big", "{hosting}");
}

/// The valid counterparts of `normative-1-x-port-order-gap` and
/// `normative-1-x-two-default-ports`: Ports bound to one Compute with orders 1 and 0 (any
/// template order) and one default, and Ports that leave `order` to its default (no ordering
/// asked for) check clean (F.5.2.1 Properties of tosca.nodes.network.Port).
#[test]
fn simple_profile_ports_in_order_are_accepted() {
    accepted(
        "tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    server:
      type: tosca.nodes.Compute
    other:
      type: tosca.nodes.Compute
    net:
      type: tosca.nodes.network.Network
    second:
      type: tosca.nodes.network.Port
      properties: { order: 1 }
      requirements: [ { binding: server }, { link: net } ]
    first:
      type: tosca.nodes.network.Port
      properties: { order: 0, is_default: true }
      requirements: [ { binding: server }, { link: net } ]
    unordered_a:
      type: tosca.nodes.network.Port
      requirements: [ { binding: other }, { link: net } ]
    unordered_b:
      type: tosca.nodes.network.Port
      properties: { is_default: true }
      requirements: [ { binding: other }, { link: net } ]
",
    );
}

/// A version a YAML loader types as a float keeps the text written (SP-YAML-04): `14.10` is
/// not `14.1`, and `18.0` keeps its `.0` (A.2.2 TOSCA version).
#[test]
fn simple_profile_versions_written_as_floats_keep_their_text() {
    let ir = common::ir_clean(
        "tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  Release:
    derived_from: tosca.nodes.Root
    properties:
      ubuntu: { type: version }
      fedora: { type: version }
topology_template:
  node_templates:
    release:
      type: Release
      properties:
        ubuntu: 14.10
        fedora: 18.0
",
    );
    let properties = &ir["nodes"][0]["properties"];
    assert_eq!(
        properties["ubuntu"]["value"]["text"], "14.10",
        "{properties}"
    );
    assert_eq!(properties["ubuntu"]["value"]["minor"], 10, "{properties}");
    assert_eq!(
        properties["fedora"]["value"]["text"], "18.0",
        "{properties}"
    );
}

/// The valid counterparts of `value-1-x-port-spec-without-port` and
/// `value-1-x-port-range-outside`: PortSpec values with any one of `target`, `target_range`,
/// `source` or `source_range`, ranges within [1, 65535] (the bounds included), a port given by
/// `get_input`, in a list, a map and a single property, check clean (C.2.5 PortSpec).
#[test]
fn simple_profile_port_specs_with_a_port_are_accepted() {
    accepted(
        "tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  inputs:
    port: { type: integer, default: 8080 }
  node_templates:
    firewall:
      type: Firewall
      properties:
        rules:
          - { protocol: tcp, target: 443 }
          - { protocol: udp, source: 53 }
          - { target_range: [ 1, 65535 ] }
          - { protocol: tcp, source_range: [ 1024, 1024 ] }
          - { target: { get_input: port } }
        named: { web: { target: 80 }, all: { source_range: [ 1, 65535 ] } }
        one: { protocol: igmp, source: 1 }
node_types:
  Firewall:
    derived_from: tosca.nodes.Root
    properties:
      rules: { type: list, entry_schema: PortSpec }
      named: { type: map, entry_schema: tosca.datatypes.network.PortSpec }
      one: { type: tosca.datatypes.network.PortSpec }
",
    );
}

/// A schema written as a map names its entries' type under `type`, except where it refines the
/// schema of an inherited definition (a definition without its own `type`), which keeps the
/// inherited type (§9.3 Schema Definition's refinement rules; A.5.7.2 for 1.x). The cases
/// without `type` where nothing is inherited are bad-input cases
/// (`entry-schema-{1-x,2-0}-without-type`).
#[test]
fn schema_refinements_without_type_keep_the_inherited_type() {
    accepted(
        "tosca_definitions_version: tosca_2_0
node_types:
  Base:
    properties:
      sizes:
        type: map
        key_schema: { type: string }
        entry_schema: { type: integer, description: a size }
  Derived:
    derived_from: Base
    properties:
      sizes:
        entry_schema:
          description: a size, never negative
          validation: { $greater_or_equal: [ $value, 0 ] }
service_template:
  node_templates:
    d:
      type: Derived
      properties:
        sizes: { a: 1 }
",
    );
    accepted(
        "tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  my.Base:
    derived_from: tosca.nodes.Root
    properties:
      sizes:
        type: map
        entry_schema: { type: integer }
  my.Derived:
    derived_from: my.Base
    properties:
      sizes:
        entry_schema:
          description: a size, never negative
          constraints: [ { greater_or_equal: 0 } ]
topology_template:
  node_templates:
    d:
      type: my.Derived
      properties:
        sizes: { a: 1 }
",
    );
}
