//! Generators of the hostile shapes of issue 22, shared by `tests/bombs.rs` (which runs them
//! under a memory cap) and `tests/cost.rs` (which measures them at growing sizes): each makes
//! the template of one shape at size `n`.

// Each test binary uses some of them.
#![allow(dead_code)]

use std::path::Path;

pub const SIMPLE: &str = "tosca_definitions_version: tosca_simple_yaml_1_3\n";
pub const TOSCA2: &str = "tosca_definitions_version: tosca_2_0\n";

pub fn plain_list(n: usize) -> String {
    format!("{SIMPLE}metadata:\n  x: [{}]\n", vec!["1"; n].join(","))
}

pub fn property_chain_of_nodes(n: usize) -> String {
    let mut t = format!(
        "{SIMPLE}node_types:\n  T:\n    derived_from: tosca.nodes.Root\n    properties:\n      v: {{ type: string }}\ntopology_template:\n  node_templates:\n    n0: {{ type: T, properties: {{ v: x }} }}\n"
    );
    for i in 1..n {
        t.push_str(&format!(
            "    n{i}: {{ type: T, properties: {{ v: {{ get_property: [ n{}, v ] }} }} }}\n",
            i - 1
        ));
    }
    t
}

pub fn property_chain_of_properties(n: usize) -> String {
    let mut t =
        format!("{SIMPLE}node_types:\n  T:\n    derived_from: tosca.nodes.Root\n    properties:\n");
    for i in 0..n {
        t.push_str(&format!("      p{i}: {{ type: string }}\n"));
    }
    t.push_str("topology_template:\n  node_templates:\n    a:\n      type: T\n      properties:\n        p0: x\n");
    for i in 1..n {
        t.push_str(&format!(
            "        p{i}: {{ get_property: [ SELF, p{} ] }}\n",
            i - 1
        ));
    }
    t
}

pub fn property_chain_2_0(n: usize) -> String {
    let mut t = format!(
        "{TOSCA2}node_types:\n  T:\n    properties:\n      v: {{ type: string }}\nservice_template:\n  node_templates:\n    n0: {{ type: T, properties: {{ v: x }} }}\n"
    );
    for i in 1..n {
        t.push_str(&format!(
            "    n{i}: {{ type: T, properties: {{ v: {{ $get_property: [ n{}, v ] }} }} }}\n",
            i - 1
        ));
    }
    t
}

pub fn reversed_property_chain(n: usize) -> String {
    // Each node reads the next, so the first evaluation follows the whole chain.
    let mut t = format!(
        "{SIMPLE}node_types:\n  T:\n    derived_from: tosca.nodes.Root\n    properties:\n      v: {{ type: string }}\ntopology_template:\n  node_templates:\n"
    );
    for i in 0..n - 1 {
        t.push_str(&format!(
            "    n{i}: {{ type: T, properties: {{ v: {{ get_property: [ n{}, v ] }} }} }}\n",
            i + 1
        ));
    }
    t.push_str(&format!(
        "    n{}: {{ type: T, properties: {{ v: x }} }}\n",
        n - 1
    ));
    t
}

pub fn hosting_chain(n: usize) -> String {
    let mut t = format!(
        "{SIMPLE}topology_template:\n  node_templates:\n    n0: {{ type: tosca.nodes.Compute }}\n"
    );
    for i in 1..n {
        t.push_str(&format!(
            "    n{i}: {{ type: tosca.nodes.SoftwareComponent, requirements: [ {{ host: n{} }} ] }}\n",
            i - 1
        ));
    }
    t
}

pub fn union_of_lists(n: usize) -> String {
    let items = |prefix: &str| {
        (0..n)
            .map(|i| format!("{prefix}{i}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "{TOSCA2}node_types:\n  T:\n    properties:\n      l: {{ type: list, entry_schema: string }}\nservice_template:\n  node_templates:\n    a:\n      type: T\n      properties:\n        l: {{ $union: [ [ {} ], [ {} ] ] }}\n",
        items("a"),
        items("b")
    )
}

pub fn derivation_chain(n: usize) -> String {
    // Most derived first: the whole chain is walked at once.
    let mut t = format!("{SIMPLE}node_types:\n");
    for i in (1..n).rev() {
        t.push_str(&format!("  T{i}:\n    derived_from: T{}\n", i - 1));
    }
    t.push_str("  T0:\n    derived_from: tosca.nodes.Root\n");
    t
}

pub fn counted(n: usize) -> String {
    format!(
        "{TOSCA2}node_types:\n  Server:\n    requirements:\n      - peer: {{ capability: Feature, relationship: Link, count_range: [0, UNBOUNDED] }}\n  Db:\n    capabilities:\n      feature: {{ type: Feature }}\ncapability_types:\n  Feature: {{}}\nrelationship_types:\n  Link: {{}}\nservice_template:\n  node_templates:\n    web:\n      type: Server\n      count: {n}\n      requirements:\n        - peer: db\n    db:\n      type: Db\n      count: {n}\n"
    )
}

pub fn long_line(n: usize) -> String {
    format!("{SIMPLE}description: {} : [\n", "x".repeat(n))
}

pub fn quoted_values(n: usize) -> String {
    let value = "v".repeat(64 * 1024);
    let mut t =
        format!("{SIMPLE}node_types:\n  T:\n    derived_from: tosca.nodes.Root\n    properties:\n");
    for i in 0..n {
        t.push_str(&format!("      p{i}: {{ type: integer }}\n"));
    }
    t.push_str("topology_template:\n  node_templates:\n    a:\n      type: T\n      properties:\n");
    for i in 0..n {
        t.push_str(&format!("        p{i}: {value}\n"));
    }
    t
}

pub fn distinct_patterns(n: usize) -> String {
    let mut t = format!("{SIMPLE}topology_template:\n  inputs:\n");
    for i in 0..n {
        t.push_str(&format!(
            "    i{i}:\n      type: string\n      default: a{i}\n      constraints:\n        - pattern: 'a{i}|b[0-9]{{{}}}'\n",
            i % 7 + 1
        ));
    }
    t
}

pub fn one_expensive_pattern(n: usize) -> String {
    let mut t = format!("{SIMPLE}topology_template:\n  inputs:\n");
    for i in 0..n {
        t.push_str(&format!(
            "    i{i}:\n      type: string\n      default: a\n      constraints:\n        - pattern: '(?:a{{100}}){{100}}'\n"
        ));
    }
    t
}

pub fn alias_copies(n: usize) -> String {
    format!(
        "{SIMPLE}metadata:\n  big: &big \"{}\"\n  copies: [{}]\n",
        "x".repeat(64 * 1024),
        vec!["*big"; n].join(", ")
    )
}

pub fn alias_bomb(levels: usize) -> String {
    let mut t = format!("{SIMPLE}metadata:\n  l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for level in 1..levels {
        let refs = vec![format!("*l{}", level - 1); 8].join(", ");
        t.push_str(&format!("  l{level}: &l{level} [{refs}]\n"));
    }
    t
}

pub fn doubling_concat(levels: usize) -> String {
    let mut t =
        format!("{SIMPLE}node_types:\n  T:\n    derived_from: tosca.nodes.Root\n    properties:\n");
    for i in 0..levels {
        t.push_str(&format!("      p{i}: {{ type: string }}\n"));
    }
    t.push_str("topology_template:\n  node_templates:\n    a:\n      type: T\n      properties:\n        p0: xx\n");
    for i in 1..levels {
        let p = i - 1;
        t.push_str(&format!("        p{i}: {{ concat: [ {{ get_property: [SELF, p{p}] }}, {{ get_property: [SELF, p{p}] }} ] }}\n"));
    }
    t
}

pub fn doubling_concat_2_0(levels: usize) -> String {
    let mut t = format!("{TOSCA2}node_types:\n  T:\n    properties:\n");
    for i in 0..levels {
        t.push_str(&format!("      p{i}: {{ type: string }}\n"));
    }
    t.push_str("service_template:\n  node_templates:\n    a:\n      type: T\n      properties:\n        p0: xx\n");
    for i in 1..levels {
        let p = i - 1;
        t.push_str(&format!("        p{i}: {{ $concat: [ {{ $get_property: [SELF, p{p}] }}, {{ $get_property: [SELF, p{p}] }} ] }}\n"));
    }
    t
}

pub fn doubling_expressions(levels: usize) -> String {
    let mut t = String::from(
        "tosca_definitions_version: tosca_variability_1_0\ntopology_template:\n  variability:\n    expressions:\n      e0: xx\n",
    );
    for i in 1..levels {
        let p = i - 1;
        t.push_str(&format!("      e{i}: {{ concat: [ {{ get_variability_expression: e{p} }}, {{ get_variability_expression: e{p} }} ] }}\n"));
    }
    t.push_str(&format!("  node_templates:\n    a:\n      type: tosca.nodes.Root\n      conditions: {{ equal: [ {{ get_variability_expression: e{} }}, x ] }}\n", levels - 1));
    t
}

/// [`hosting_chain`] as a variable template in Variability4TOSCA's current language
/// (`_rc_1`: no pruning, so every node stays and the solver decides each of them, and the
/// topology is minimised without keeping the optimum).
pub fn variable_hosting_chain(n: usize) -> String {
    hosting_chain(n).replacen(
        SIMPLE.trim_end(),
        "tosca_definitions_version: tosca_variability_1_0_rc_1",
        1,
    )
}

/// [`doubling_expressions`] in Variability4TOSCA's current language (`value_expression`, the
/// `_rc_3` definitions version), which has a resolver of its own.
pub fn doubling_value_expressions(levels: usize) -> String {
    let mut t = String::from(
        "tosca_definitions_version: tosca_variability_1_0_rc_3\ntopology_template:\n  variability:\n    expressions:\n      e0: xx\n",
    );
    for i in 1..levels {
        let p = i - 1;
        t.push_str(&format!("      e{i}: {{ concat: [ {{ value_expression: e{p} }}, {{ value_expression: e{p} }} ] }}\n"));
    }
    t.push_str(&format!("  node_templates:\n    a:\n      type: tosca.nodes.Root\n      conditions: {{ equal: [ {{ value_expression: e{} }}, x ] }}\n", levels - 1));
    t
}

pub fn overflowing_counts(n: usize) -> String {
    let mut t =
        format!("{TOSCA2}node_types:\n  Server: {{}}\nservice_template:\n  node_templates:\n");
    for i in 0..n {
        t.push_str(&format!(
            "    s{i}: {{ type: Server, count: 9223372036854775807 }}\n"
        ));
    }
    t
}

pub fn expensive_patterns(n: usize) -> String {
    let mut t = format!("{SIMPLE}topology_template:\n  inputs:\n");
    for i in 0..n {
        t.push_str(&format!(
            "    i{i}:\n      type: string\n      default: a\n      constraints:\n        - pattern: '(?:a{{1000}}){{{}}}'\n",
            1000 + i
        ));
    }
    t
}

/// `levels` levels of substitutions whose templates each hold `fan` nodes (written into `dir`,
/// the top template returned).
pub fn nested_substitutions(dir: &Path, levels: usize, fan: usize) -> String {
    let mut types = format!("{TOSCA2}node_types:\n");
    for k in 1..=levels + 1 {
        types.push_str(&format!("  L{k}: {{}}\n"));
    }
    std::fs::write(dir.join("types.yaml"), types).unwrap();
    let mut top = format!("{TOSCA2}imports:\n  - types.yaml\n");
    for k in 1..=levels {
        top.push_str(&format!("  - l{k}.yaml\n"));
        let mut level = format!(
            "{TOSCA2}imports:\n  - types.yaml\nservice_template:\n  substitution_mappings:\n    node_type: L{k}\n  node_templates:\n"
        );
        let directive = if k < levels {
            ", directives: [ substitute ]"
        } else {
            ""
        };
        for i in 0..fan {
            level.push_str(&format!("    n{i}: {{ type: L{}{directive} }}\n", k + 1));
        }
        std::fs::write(dir.join(format!("l{k}.yaml")), level).unwrap();
    }
    top.push_str("service_template:\n  node_templates:\n");
    for i in 0..fan {
        top.push_str(&format!(
            "    top{i}: {{ type: L1, directives: [ substitute ] }}\n"
        ));
    }
    top
}
