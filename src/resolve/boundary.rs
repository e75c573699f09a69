//! Whether a substitution boundary fits the node type it substitutes (checklist SP-SUB-02,
//! SP-SUB-04, SP-SUB-05).
//!
//! - Each capability or requirement the mappings name must be one the node type defines, and the
//!   inner node it is mapped onto must have a capability (a requirement) of the inner name.
//! - Before Simple Profile 1.2, whose `properties` mapping made the link explicit, the node
//!   type's properties are the substituting template's inputs, matched by name (§12 Using node
//!   template substitution for model composition): a property the node type requires without a
//!   default needs an input of its name, and an input that stands for no property needs a default,
//!   "since no values can be assigned through properties in a substitution case".

use std::collections::HashSet;

use super::nodes::defs_complete;
use super::types::definitions;
use super::typing::definitions_of;
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::{NodeId, Topology};
use crate::model::Revision;
use crate::model::substitution::{SubstitutionMappings, Target};
use crate::model::{Model, TopologyTemplate, TypeDef, TypeKind};

/// Capability names, or requirement names, that the definitions on a type chain define.
fn defined_names<'m>(defs: &[&'m TypeDef], section: &str) -> Vec<&'m str> {
    match section {
        "capabilities" => super::filters::capability_names(defs),
        _ => super::occurrences::requirement_definitions(defs)
            .into_keys()
            .collect(),
    }
}

/// Checks the `capabilities` and `requirements` sections of `mappings` against the node type
/// (whose ancestry is `node_types`) and the inner nodes they point at.
pub fn check_mapped_names(
    model: &Model,
    mappings: &SubstitutionMappings,
    node_types: &[String],
    topology: &Topology,
    nodes: &crate::hash::FastMap<&str, NodeId>,
    diags: &mut Diagnostics,
) {
    let outer_defs = definitions(model, TypeKind::Node, node_types);
    let outer_known = defs_complete(model, &outer_defs);
    let node_type = node_types.first().map_or("", String::as_str);
    for (section, noun, mapped) in [
        ("capabilities", "capability", &mappings.capabilities),
        ("requirements", "requirement", &mappings.requirements),
    ] {
        if mapped.entries.is_empty() {
            continue;
        }
        let outer = defined_names(&outer_defs, section);
        for entry in &mapped.entries {
            let Some(name) = entry.name() else {
                continue;
            };
            if outer_known && !outer.contains(&name) {
                let mut known = outer.clone();
                known.sort_unstable();
                diags.push(
                    Diagnostic::error(
                        codes::TOSCA_UNKNOWN_NAME,
                        format!(
                            "substitution maps {noun} `{name}`, which node type `{node_type}` does not define"
                        ),
                    )
                    .at_with(entry.key.span, format!("not a {noun} of `{node_type}`"))
                    .did_you_mean(
                        name,
                        &known,
                        Some(format!("the {section} of `{node_type}`: {}", known.join(", "))),
                    ),
                );
            }
            for target in entry.targets.iter().flatten() {
                let Target::Pair(inner_node, inner) = target else {
                    continue;
                };
                let (node_name, inner_name) = (inner_node.text.as_str(), inner.text.as_str());
                let Some(&id) = nodes.get(node_name) else {
                    continue; // reported where the mapping is read
                };
                let node = &topology.nodes[id.index()];
                let inner_defs = definitions(model, TypeKind::Node, &node.types);
                if !defs_complete(model, &inner_defs) {
                    continue;
                }
                let found = match section {
                    "capabilities" => node.capabilities.contains_key(inner_name),
                    _ => defined_names(&inner_defs, section).contains(&inner_name),
                };
                if !found {
                    diags.push(
                        Diagnostic::error(
                            codes::TOSCA_UNKNOWN_NAME,
                            format!(
                                "substitution maps {noun} `{name}` onto `{inner_name}` of node template `{node_name}`, whose type `{}` has no {noun} `{inner_name}`",
                                node.type_name
                            ),
                        )
                        .at_with(inner.span, format!("not a {noun} of `{node_name}`")),
                    );
                }
            }
        }
    }
}

/// The implicit property-to-input matching of Simple Profile 1.0 and 1.1 (§12 Using node template
/// substitution for model composition).
pub fn check_implicit_inputs(
    model: &Model,
    mappings: &SubstitutionMappings,
    node_types: &[String],
    template: &TopologyTemplate,
    diags: &mut Diagnostics,
) {
    let mappings_span = mappings.span;
    let before_1_2 = Revision::of(&model.version).is_some_and(|r| r < Revision::V1_2);
    if !before_1_2 || mappings.properties.is_some() {
        return;
    }
    let defs = definitions(model, TypeKind::Node, node_types);
    if !defs_complete(model, &defs) {
        return;
    }
    let node_type = node_types.first().map_or("", String::as_str);
    let inputs: HashSet<&str> = template.inputs.iter().map(|i| i.name.as_str()).collect();
    let properties = definitions_of(&defs, "properties");
    for (name, definition) in &properties {
        if definition.required() && definition.get("default").is_none() && !inputs.contains(name) {
            diags.push(
                Diagnostic::error(
                    codes::TOSCA_MISSING_KEY,
                    format!(
                        "this template substitutes `{node_type}`, whose required property `{name}` has no input of the same name"
                    ),
                )
                .at_with(mappings_span, format!("substitutes `{node_type}`"))
                .hint(format!(
                    "add an input `{name}`: in {} a substituting template's inputs stand for the node type's properties (Simple Profile §12.3 Definition of the database stack in a service template)",
                    model.version
                )),
            );
        }
    }
    for input in &template.inputs {
        let has_default = input
            .def
            .as_map()
            .is_some_and(|m| m.contains_key("default"));
        if !properties.contains_key(input.name.as_str()) && !has_default {
            diags.push(
                Diagnostic::error(
                    codes::TOSCA_MISSING_KEY,
                    format!(
                        "input `{}` stands for no property of `{node_type}`, which this template substitutes, and has no default",
                        input.name
                    ),
                )
                .at_with(input.span, "no value can reach it through a substitution")
                .hint("give it a `default` (Simple Profile §12.3 Definition of the database stack in a service template), or add the property to the node type"),
            );
        }
    }
}

/// `substitution_filter` (1.3) is a node filter and is held to the node filter grammar. The
/// form OpenStack tosca-parser reads, with the filter wrapped in a `node_filter:` key, is
/// unwrapped with a warning, so its content is checked rather than ignored.
pub fn check_substitution_filter(mappings: &SubstitutionMappings, diags: &mut Diagnostics) {
    let Some(filter) = &mappings.substitution_filter else {
        return;
    };
    let wrapped = match filter.as_map().map(|m| m.entries()) {
        Some([only]) if only.key.as_str() == Some("node_filter") => Some(only),
        _ => None,
    };
    let filter = match wrapped {
        Some(entry) => {
            diags.push(
                Diagnostic::warning(
                    codes::TOSCA_SHAPE,
                    "`substitution_filter` is itself a node filter; the `node_filter:` around its content is read as if it were not there",
                )
                .at_with(entry.key.span, "not part of the grammar")
                .hint("write `properties:` and `capabilities:` directly under `substitution_filter`"),
            );
            &entry.value
        }
        None => filter,
    };
    let _ = super::filters::read(filter, diags);
}

pub(super) mod mappings {
    //! What a TOSCA 2.0 substitution mapping names, checked on the substituting template itself,
    //! whether or not anything is substituted (§15.2 Property Mapping, §15.3 Attribute Mapping,
    //! §15.6 Interface Mapping). Capability and requirement mappings are [`crate::resolve::boundary`]'s and
    //! [`crate::resolve::requirement_mapping`]'s.
    //!
    //! - A property mapping `<property_name>: <input_name>` names "a property of the substituted
    //!   node (defined using a corresponding property definition in the specified node type)" and
    //!   "an input defined for the substituting service template"; "Mappings must be
    //!   type-compatible", and "Property mappings must be defined for all non-optional service
    //!   template inputs that do not define a default value" (§15.2).
    //! - An attribute mapping `<attribute_name>: <output_name>` names an attribute of the node type
    //!   and "an output defined in the substituting service template", of the attribute's type
    //!   (§15.3). A property counts as an attribute: TOSCA 2.0 keeps every property's value as an
    //!   attribute of the same name (§9.5 Attribute Definition).
    //! - An interface mapping `<interface>: { <operation>: <workflow> }` names an interface of the
    //!   node type, an operation of it and "a workflow defined in the substituting service
    //!   template" (§15.6).
    //!
    //! The `[CAPABILITY, ...]` and `[RELATIONSHIP, ...]` keys name their capability or requirement,
    //! checked here; their inner property is left to the substitution that reads it. Types are
    //! compared only when both sides are built-in types, so that a name written with a namespace
    //! prefix on one side is not taken for another type. The Simple Profile's property mappings
    //! (an input in a list, or a constant selecting nodes) are judged where a node is substituted.

    use std::collections::HashSet;

    use crate::diag::{Diagnostic, Diagnostics, codes};
    use crate::ir::{Dialect, NodeId, Topology};
    use crate::model::substitution::SubstitutionMappings;
    use crate::model::value::{Value, ValueMap};
    use crate::model::{TypeDef, TypeKind};
    use crate::resolve::nodes::{NodeBuilder, defs_complete};
    use crate::resolve::types::definitions;
    use crate::resolve::typing::definitions_of;
    use crate::yaml::{Map, Node as Yaml};

    /// Whether `name` is a built-in type, whose name means the same wherever it is written
    /// (§9.1 TOSCA Built-In Types), the abstract `scalar` included.
    fn built_in(name: &str) -> bool {
        name == "scalar" || crate::resolve::tosca2_types::BUILT_IN.contains(&name)
    }

    /// Every check of the names a substitution mapping uses.
    pub fn check(
        builder: &mut NodeBuilder,
        mappings: &SubstitutionMappings,
        node_types: &[String],
        topology: &Topology,
        nodes: &crate::hash::FastMap<&str, NodeId>,
        diags: &mut Diagnostics,
    ) {
        let model = builder.model;
        crate::resolve::boundary::check_mapped_names(
            model, mappings, node_types, topology, nodes, diags,
        );
        let defs = definitions(model, TypeKind::Node, node_types);
        if model.dialect != Dialect::Tosca2 || !defs_complete(model, &defs) {
            return;
        }
        let outer = Outer {
            node_type: node_types.first().map_or("", String::as_str),
            defs: &defs,
            inputs: model.topology.as_ref().map_or(&[][..], |t| &t.inputs),
        };
        properties(&outer, mappings.properties.as_ref(), topology, diags);
        attributes(&outer, mappings.attributes.as_ref(), topology, diags);
        interfaces(
            builder,
            &outer,
            mappings.interfaces.as_ref(),
            topology,
            diags,
        );
    }

    /// The substituted node type and its definitions, most specific first.
    struct Outer<'a> {
        node_type: &'a str,
        defs: &'a [&'a TypeDef],
        /// The template's input definitions, where a report about one points.
        inputs: &'a [crate::model::Named],
    }

    impl Outer<'_> {
        /// The names of `section` the node type defines.
        fn names(&self, section: &str) -> Vec<&str> {
            let mut names: Vec<&str> = definitions_of(self.defs, section).into_keys().collect();
            names.sort_unstable();
            names
        }

        /// The declared type of the property or attribute `name`, when some layer writes one.
        fn type_of(&self, section: &str, name: &str) -> Option<&str> {
            definitions_of(self.defs, section)
                .get(name)
                .and_then(|d| d.type_name())
        }

        /// Whether a `[CAPABILITY, <name>, ...]` or `[RELATIONSHIP, <name>, ...]` key names a
        /// capability or requirement the node type defines; reports it when not.
        fn qualified_key(&self, key: &Value, diags: &mut Diagnostics) {
            let Some([kind, name, ..]) = key.as_list() else {
                return;
            };
            let (section, noun) = match kind.scalar_text() {
                Some("CAPABILITY") => ("capabilities", "capability"),
                Some("RELATIONSHIP") => ("requirements", "requirement"),
                _ => return,
            };
            let wanted = name.scalar_text().unwrap_or_default();
            let known: Vec<&str> = match section {
                "capabilities" => crate::resolve::filters::capability_names(self.defs),
                _ => crate::resolve::occurrences::requirement_definitions(self.defs)
                    .into_keys()
                    .collect(),
            };
            if !known.contains(&wanted) {
                diags.push(unknown(
                    format!("substitution mapping names {noun} `{wanted}`, which node type `{}` does not define", self.node_type),
                    name,
                    wanted,
                    &known,
                    "§15.2 Property Mapping, §15.3 Attribute Mapping",
                ));
            }
        }
    }

    /// `properties`: each key a property (or capability, requirement) of the node type, each value
    /// an input of the template of the same type; every required input without a default mapped.
    fn properties(
        outer: &Outer,
        section: Option<&Value>,
        topology: &Topology,
        diags: &mut Diagnostics,
    ) {
        let entries = section
            .and_then(Value::as_map)
            .map_or(&[][..], ValueMap::entries);
        let known = outer.names("properties");
        let inputs: Vec<&str> = topology.inputs.iter().map(|i| i.name.as_str()).collect();
        let mut mapped: HashSet<&str> = HashSet::new();
        for entry in entries {
            outer.qualified_key(&entry.key, diags);
            let input = entry.value.scalar_text();
            if let Some(input) = input {
                mapped.insert(input);
            }
            let property = entry.key.scalar_text();
            if let Some(property) = property
                && !known.contains(&property)
            {
                diags.push(unknown(
                    format!(
                        "substitution maps property `{property}`, which node type `{}` does not define",
                        outer.node_type
                    ),
                    &entry.key,
                    property,
                    &known,
                    "§15.2 Property Mapping",
                ));
                continue;
            }
            let Some(input) = input else {
                diags.push(
                    Diagnostic::error(
                        codes::TOSCA_SHAPE,
                        "a property mapping's value must be the name of an input of the template",
                    )
                    .at(entry.value.span)
                    .hint("write `<property_name>: <input_name>` (§15.2 Property Mapping)"),
                );
                continue;
            };
            let Some(declared) = topology.inputs.iter().find(|i| i.name == input) else {
                diags.push(unknown(
                    format!("substitution maps a property onto input `{input}`, which the template does not define"),
                    &entry.value,
                    input,
                    &inputs,
                    "§15.2 Property Mapping",
                ));
                continue;
            };
            let expected = property.and_then(|p| outer.type_of("properties", p));
            mismatch(
                expected,
                declared.type_name.as_deref(),
                &entry.value,
                "input",
                diags,
            );
        }
        for input in &topology.inputs {
            if input.required && input.default.is_none() && !mapped.contains(input.name.as_str()) {
                let written = outer.inputs.iter().find(|n| n.name == input.name);
                let Some(at) = written.map(|n| n.span).or(section.map(|s| s.span)) else {
                    continue;
                };
                diags.push(
                    Diagnostic::error(
                        codes::TOSCA_SUBSTITUTION,
                        format!("input `{}` is required and has no default, but no property mapping of `substitution_mappings` gives it a value", input.name),
                    )
                    .at(at)
                    .hint(format!("map a property of `{}` onto it (`<property>: {}`), give it a default, or make it `required: false` (§15.2 Property Mapping)", outer.node_type, input.name)),
                );
            }
        }
    }

    /// `attributes`: each key an attribute (or property) of the node type, each value an output of
    /// the template of the same type.
    fn attributes(
        outer: &Outer,
        section: Option<&Value>,
        topology: &Topology,
        diags: &mut Diagnostics,
    ) {
        let entries = section
            .and_then(Value::as_map)
            .map_or(&[][..], ValueMap::entries);
        let mut known = outer.names("attributes");
        known.extend(outer.names("properties"));
        let outputs: Vec<&str> = topology.outputs.iter().map(|o| o.name.as_str()).collect();
        for entry in entries {
            outer.qualified_key(&entry.key, diags);
            let attribute = entry.key.scalar_text();
            if let Some(attribute) = attribute
                && !known.contains(&attribute)
            {
                diags.push(unknown(
                    format!("substitution maps attribute `{attribute}`, which node type `{}` does not define", outer.node_type),
                    &entry.key,
                    attribute,
                    &known,
                    "§15.3 Attribute Mapping",
                ));
                continue;
            }
            let Some(output) = entry.value.scalar_text() else {
                // The Simple Profile's `[ <node_template>, <attribute> ]` is no 2.0 form: "an
                // output value of the substituting service template" is mapped, by its name.
                diags.push(
                    Diagnostic::error(
                        codes::TOSCA_SHAPE,
                        "an attribute mapping's value must be the name of an output of the template",
                    )
                    .at(entry.value.span)
                    .hint("write `<attribute_name>: <output_name>`, and give the template an output whose value reads the attribute, such as `{ $get_attribute: [ <node_template>, <attribute> ] }` (§15.3 Attribute Mapping)"),
                );
                continue;
            };
            let Some(declared) = topology.outputs.iter().find(|o| o.name == output) else {
                diags.push(unknown(
                    format!("substitution maps an attribute onto output `{output}`, which the template does not define"),
                    &entry.value,
                    output,
                    &outputs,
                    "§15.3 Attribute Mapping",
                ));
                continue;
            };
            let expected = attribute.and_then(|a| {
                outer
                    .type_of("attributes", a)
                    .or_else(|| outer.type_of("properties", a))
            });
            mismatch(
                expected,
                declared.type_name.as_deref(),
                &entry.value,
                "output",
                diags,
            );
        }
    }

    /// `interfaces`: each key an interface of the node type, each operation one of its operations,
    /// each value a workflow of the template.
    fn interfaces(
        builder: &mut NodeBuilder,
        outer: &Outer,
        section: Option<&Value>,
        topology: &Topology,
        diags: &mut Diagnostics,
    ) {
        let entries = section
            .and_then(Value::as_map)
            .map_or(&[][..], ValueMap::entries);
        let workflows: Vec<&str> = topology.workflows.iter().map(|w| w.name.as_str()).collect();
        let mut known: Vec<&str> = outer
            .defs
            .iter()
            .filter_map(|d| d.def.as_map()?.get("interfaces")?.as_map())
            .flat_map(|m| m.entries().iter().filter_map(|e| e.key.as_str()))
            .collect();
        known.sort_unstable();
        known.dedup();
        for entry in entries {
            let interface = entry.key.scalar_text().unwrap_or_default();
            if !known.contains(&interface) {
                diags.push(unknown(
                    format!("substitution maps interface `{interface}`, which node type `{}` does not define", outer.node_type),
                    &entry.key,
                    interface,
                    &known,
                    "§15.6 Interface Mapping",
                ));
                continue;
            }
            let operations = operations_of(builder, outer.defs, interface);
            for op in entry.value.as_map().map_or(&[][..], ValueMap::entries) {
                let operation = op.key.scalar_text().unwrap_or_default();
                if !operations.iter().any(|o| o == operation) {
                    let listed: Vec<&str> = operations.iter().map(String::as_str).collect();
                    diags.push(unknown(
                        format!("substitution maps operation `{interface}.{operation}`, which the interface does not define"),
                        &op.key,
                        operation,
                        &listed,
                        "§15.6 Interface Mapping",
                    ));
                }
                let workflow = op.value.scalar_text().unwrap_or_default();
                if !workflows.contains(&workflow) {
                    diags.push(unknown(
                        format!("substitution maps `{interface}.{operation}` onto workflow `{workflow}`, which the template does not define"),
                        &op.value,
                        workflow,
                        &workflows,
                        "§15.6 Interface Mapping",
                    ));
                }
            }
        }
    }

    /// The operation names of the node type's interface `name`: its definitions' and its interface
    /// type chain's.
    fn operations_of(builder: &mut NodeBuilder, defs: &[&TypeDef], name: &str) -> Vec<String> {
        let layers = crate::resolve::interface_parameters::definitions_named(defs, name);
        let mut out: Vec<String> = Vec::new();
        let mut add = |map: &Map| {
            let listed = map.get("operations").and_then(Yaml::as_map);
            out.extend(
                listed
                    .map_or(&[][..], Map::entries)
                    .iter()
                    .filter_map(|e| e.key.as_str().map(str::to_string)),
            );
        };
        for layer in &layers {
            add(layer);
        }
        let type_node = layers.iter().find_map(|m| m.get("type"));
        if let Some(type_node) = type_node
            && let Some(type_name) = type_node.scalar_text()
        {
            // The interface type is reported where the interface is read.
            let chain = builder.ancestry.of_reported_elsewhere(
                builder.model,
                TypeKind::Interface,
                type_name,
                type_node.span,
            );
            for def in definitions(builder.model, TypeKind::Interface, &chain) {
                if let Some(map) = def.def.as_map() {
                    add(map);
                }
            }
        }
        out
    }

    /// A mapped name that names nothing of its kind.
    fn unknown(
        message: String,
        at: &Value,
        wanted: &str,
        known: &[&str],
        rule: &str,
    ) -> Diagnostic {
        Diagnostic::error(codes::TOSCA_UNKNOWN_NAME, message)
            .at(at.span)
            .did_you_mean(
                wanted,
                known,
                Some(format!("known here: {} ({rule})", known.join(", "))),
            )
    }

    /// A mapping between two declared built-in types that differ.
    fn mismatch(
        expected: Option<&str>,
        declared: Option<&str>,
        at: &Value,
        noun: &str,
        diags: &mut Diagnostics,
    ) {
        let (Some(expected), Some(declared)) = (expected, declared) else {
            return;
        };
        if expected == declared || !built_in(expected) || !built_in(declared) {
            return;
        }
        diags.push(
            Diagnostic::error(
                codes::TOSCA_TYPE_MISMATCH,
                format!("substitution maps a value of type `{expected}` onto {noun} `{}`, which is of type `{declared}`", at.scalar_text().unwrap_or_default()),
            )
            .at(at.span)
            .hint(format!("\"Mappings must be type-compatible\": declare the {noun} as `{expected}` or map another one (§15.2 Property Mapping, §15.3 Attribute Mapping)")),
        );
    }
}
