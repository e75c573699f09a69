//! Node filters of the Simple Profile (A.5.4, checklist SP-NF-01..04, SP-PF-01..02): read with
//! their shapes checked, checked against the node type a requirement asks for, and judged on
//! the node templates of the topology when a requirement is fulfilled by selection.
//!
//! ```yaml
//! node_filter:
//!   properties:                       # a list of single-entry property filters
//!     - num_cpus: { in_range: [ 1, 4 ] }
//!     - os: [ { equal: linux } ]      # a clause, or a list of clauses (all must hold)
//!     - flavour: small                # a bare value means `equal`
//!   capabilities:                     # a list: capability name (first) or type (second)
//!     - host:
//!         properties:
//!           - mem_size: { greater_or_equal: 2 GB }
//!     - tosca.capabilities.Endpoint   # a capability that must exist
//! ```
//!
//! Clauses are evaluated by [`super::constraints`], the same code that checks property
//! constraints, with their operands read as the filtered property's type.

use super::constraints;
use super::types::definitions;
use super::typing::{Definition, Typing, definitions_of};
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::{Capability, Node, Shared, Value, type_matches};
use crate::model::{Model, TypeDef, TypeKind};
use crate::source::Span;
use crate::yaml::{Map, Node as Yaml};

/// One constraint clause of a filter: `operator: operand` (a bare value is `equal`).
pub struct Clause<'y> {
    pub operator: &'y str,
    pub operand: &'y Yaml,
}

/// `<property>: <clause or list of clauses>`.
pub struct PropertyFilter<'y> {
    pub name: &'y str,
    pub at: Span,
    pub clauses: Vec<Clause<'y>>,
}

/// `<capability name or type>: {properties: [...]}`.
pub struct CapabilityFilter<'y> {
    pub name: &'y str,
    pub at: Span,
    pub properties: Vec<PropertyFilter<'y>>,
}

/// A node filter as written; malformed parts are reported and left out.
#[derive(Default)]
pub struct NodeFilter<'y> {
    pub properties: Vec<PropertyFilter<'y>>,
    pub capabilities: Vec<CapabilityFilter<'y>>,
}

/// Reads a `node_filter`, reporting every wrong shape (SP-ERR-32) and unknown operator.
pub fn read<'y>(node: &'y Yaml, diags: &mut Diagnostics) -> NodeFilter<'y> {
    read_to(node, &mut Some(diags))
}

/// [`read`], reporting to `diags` if any: `None` for a second reading of a filter whose
/// owner reports it where it reads it first (each caller names that place).
pub fn read_to<'y>(node: &'y Yaml, diags: &mut Option<&mut Diagnostics>) -> NodeFilter<'y> {
    let mut out = NodeFilter::default();
    let Some(map) = crate::model::shape::map_to(node, "`node_filter`", diags.as_deref_mut()) else {
        return out;
    };
    if let Some(diags) = diags.as_deref_mut() {
        let known = ["properties", "capabilities"];
        crate::model::shape::check_keys(map, &known, "`node_filter`", diags);
    }
    if let Some(properties) = map.get("properties") {
        out.properties = property_filters(properties, "`node_filter.properties`", diags);
    }
    let Some(capabilities) = map.get("capabilities") else {
        return out;
    };
    let Some(items) = list(capabilities, "`node_filter.capabilities`", diags) else {
        return out;
    };
    for item in items {
        if let Some(name) = item.as_str() {
            // A capability that must exist, without conditions on its properties (A.5.4.1).
            out.capabilities.push(CapabilityFilter {
                name,
                at: item.span,
                properties: Vec::new(),
            });
            continue;
        }
        let Some((key, value)) = single(item) else {
            report(diags, || {
                not_single(
                    item,
                    "a capability filter",
                    "`- <capability name or type>: {properties: [...]}`",
                )
            });
            continue;
        };
        let Some(name) = key.scalar_text() else {
            continue;
        };
        let mut filter = CapabilityFilter {
            name,
            at: key.span,
            properties: Vec::new(),
        };
        if !value.is_null() {
            let what = format!("capability filter `{name}`");
            if let Some(body) = crate::model::shape::map_to(value, &what, diags.as_deref_mut()) {
                if let Some(diags) = diags.as_deref_mut() {
                    crate::model::shape::check_keys(body, &["properties"], &what, diags);
                }
                if let Some(properties) = body.get("properties") {
                    filter.properties = property_filters(
                        properties,
                        &format!("`properties` of capability filter `{name}`"),
                        diags,
                    );
                }
            }
        }
        out.capabilities.push(filter);
    }
    out
}

/// A list (never a map: the filters are ordered, SP-NF-01), or `None` when it is not one.
fn list<'y>(
    node: &'y Yaml,
    what: &str,
    diags: &mut Option<&mut Diagnostics>,
) -> Option<&'y [Yaml]> {
    match node.as_map() {
        Some(_) => {
            report(diags, || {
                crate::model::shape::wrong_shape(node, what, "a list of single-entry maps")
                    .hint("write each filter as a list item: `- <name>: ...`")
            });
            None
        }
        None => crate::model::shape::seq_to(node, what, diags.as_deref_mut()),
    }
}

/// Reports the diagnostic `make` makes, if the reading reports (see [`read_to`]).
fn report(diags: &mut Option<&mut Diagnostics>, make: impl FnOnce() -> Diagnostic) {
    if let Some(diags) = diags {
        diags.push(make());
    }
}

fn single(item: &Yaml) -> Option<(&Yaml, &Yaml)> {
    match item.as_map().map(Map::entries) {
        Some([entry]) => Some((&entry.key, &entry.value)),
        _ => None,
    }
}

fn not_single(item: &Yaml, what: &str, form: &str) -> Diagnostic {
    let found = match item.as_map() {
        Some(map) => format!("{} entries", map.len()),
        None => item.describe().to_string(),
    };
    Diagnostic::error(
        codes::TOSCA_SHAPE,
        format!("{what} must be a map with one entry, found {found}"),
    )
    .at(item.span)
    .hint(format!("write {form}"))
}

/// A list of property filters (SP-PF-01).
fn property_filters<'y>(
    node: &'y Yaml,
    what: &str,
    diags: &mut Option<&mut Diagnostics>,
) -> Vec<PropertyFilter<'y>> {
    let Some(items) = list(node, what, diags) else {
        return Vec::new();
    };
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        let Some((key, value)) = single(item) else {
            report(diags, || {
                not_single(
                    item,
                    "a property filter",
                    "`- <property>: <constraint clause or list of clauses>`",
                )
            });
            continue;
        };
        let Some(name) = key.scalar_text() else {
            continue;
        };
        let clauses = match (value.as_seq(), value.as_map()) {
            (Some(items), _) => items
                .iter()
                .filter_map(|c| constraints::parse_to(c, diags.as_deref_mut()))
                .map(|(operator, operand)| Clause { operator, operand })
                .collect(),
            (_, Some(_)) => constraints::parse_to(value, diags.as_deref_mut())
                .map(|(operator, operand)| Clause { operator, operand })
                .into_iter()
                .collect(),
            // A bare value means `equal` (SP-CON-13).
            _ if !value.is_null() => vec![Clause {
                operator: "equal",
                operand: value,
            }],
            _ => {
                report(diags, || {
                    crate::model::shape::wrong_shape(
                        value,
                        format!("property filter `{name}`"),
                        "a constraint clause, a list of clauses or a value",
                    )
                    .hint(format!("e.g. `- {name}: {{ equal: <value> }}`"))
                });
                continue;
            }
        };
        out.push(PropertyFilter {
            name,
            at: key.span,
            clauses,
        });
    }
    out
}

/// Checks a filter against the node type a requirement asks for (`defs`, its whole chain known):
/// every property it filters exists on that type, every capability it names is a capability of
/// that type or a capability type, and every operand reads as the filtered property's type
/// (SP-PF-02, SP-ERR-05).
pub fn check_against_type<'m>(
    filter: &NodeFilter,
    typing: &mut Typing<'_, 'm>,
    type_name: &str,
    defs: &[&'m TypeDef],
    diags: &mut Diagnostics,
) {
    let properties = definitions_of(defs, "properties");
    check_properties(
        &filter.properties,
        typing,
        &properties,
        &format!("node type `{type_name}`"),
        diags,
    );
    for cap in &filter.capabilities {
        let declared = capability_type_of(defs, cap.name).map(|(t, at)| {
            typing
                .ancestry
                .full_name(typing.model, TypeKind::Capability, t, at.file)
                .unwrap_or_else(|| t.to_string())
        });
        let cap_type = declared.or_else(|| {
            typing
                .ancestry
                .resolve(typing.model, TypeKind::Capability, cap.name, cap.at, diags)
        });
        let Some(cap_type) = cap_type else {
            let names = capability_names(defs);
            diags.push(
                Diagnostic::error(
                    codes::TOSCA_UNKNOWN_NAME,
                    format!(
                        "the node filter names capability `{}`, which is neither a capability of node type `{type_name}` nor a capability type",
                        cap.name
                    ),
                )
                .at(cap.at)
                .did_you_mean(
                    cap.name,
                    &names,
                    Some(format!("capabilities of `{type_name}`: {}", names.join(", "))),
                ),
            );
            continue;
        };
        let types = typing
            .ancestry
            .chain(typing.model, TypeKind::Capability, &cap_type);
        let cap_defs = definitions(typing.model, TypeKind::Capability, &types);
        if !super::nodes::defs_complete(typing.model, &cap_defs) {
            continue;
        }
        check_properties(
            &cap.properties,
            typing,
            &definitions_of(&cap_defs, "properties"),
            &format!("capability `{}` ({cap_type})", cap.name),
            diags,
        );
    }
}

fn check_properties<'m>(
    filters: &[PropertyFilter],
    typing: &mut Typing<'_, 'm>,
    defined: &indexmap::IndexMap<&'m str, Definition<'m>>,
    owner: &str,
    diags: &mut Diagnostics,
) {
    for filter in filters {
        let Some(def) = defined.get(filter.name) else {
            let names: Vec<&str> = defined.keys().copied().collect();
            diags.push(
                Diagnostic::error(
                    codes::TOSCA_UNKNOWN_NAME,
                    format!(
                        "the node filter names property `{}`, which {owner} does not define",
                        filter.name
                    ),
                )
                .at(filter.at)
                .did_you_mean(
                    filter.name,
                    &names,
                    Some(format!("properties of {owner}: {}", names.join(", "))),
                ),
            );
            continue;
        };
        let type_name = def.type_name().unwrap_or_default();
        for clause in &filter.clauses {
            // Judging `null` reads (and reports) every operand without a verdict.
            constraints::holds(
                typing,
                &Value::Null,
                clause.operator,
                clause.operand,
                type_name,
                diags,
            );
        }
    }
}

/// The type of the capability named `name` along a node type chain (most specific first).
/// The type of capability `name` of a node type chain, as written, and where (the file it is
/// read in).
fn capability_type_of<'m>(defs: &[&'m TypeDef], name: &str) -> Option<(&'m str, Span)> {
    defs.iter().find_map(|d| {
        let def = d.def.as_map()?.get("capabilities")?.as_map()?.get(name)?;
        let t = if def.as_str().is_some() {
            def
        } else {
            def.as_map()?.get("type")?
        };
        t.as_str().map(|name| (name, t.span))
    })
}

pub(super) fn capability_names<'m>(defs: &[&'m TypeDef]) -> Vec<&'m str> {
    let mut out: Vec<&str> = Vec::new();
    let names = defs
        .iter()
        .rev()
        .filter_map(|d| d.def.as_map()?.get("capabilities")?.as_map())
        .flat_map(Map::names);
    for name in names {
        if !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

/// What a filter says of one node template.
#[derive(Debug, PartialEq)]
pub enum Verdict {
    Fits,
    /// It fits on what is known now; the rest depends on values known only at deployment.
    Maybe(String),
    /// It does not fit, and why.
    Fails(String),
}

/// Judges `node` by the filter: its properties, and its capabilities (by name first, then by
/// type, SP-NF-02) with their properties. `owner` in reasons is "" for the node's own
/// properties and " in capability `x`" for a capability's. Operand problems were reported by
/// [`check_against_type`] or are judged as not fitting here, so nothing is reported.
pub fn judge(filter: &NodeFilter, typing: &mut Typing, node: &Node) -> Verdict {
    let node_defs = definitions(typing.model, TypeKind::Node, &node.types);
    let mut maybe = None;
    let defined = definitions_of(&node_defs, "properties");
    for f in &filter.properties {
        match judge_property(f, typing, &node.properties, &defined, "") {
            Verdict::Fits => {}
            Verdict::Maybe(why) => maybe = maybe.or(Some(why)),
            fails => return fails,
        }
    }
    for cap in &filter.capabilities {
        let Some((cap_name, found)) = capability(typing, &node.capabilities, cap.name, cap.at)
        else {
            return Verdict::Fails(format!("has no capability named or typed `{}`", cap.name));
        };
        let cap_defs = definitions(typing.model, TypeKind::Capability, &found.types);
        let defined = definitions_of(&cap_defs, "properties");
        let owner = format!(" in capability `{cap_name}`");
        for f in &cap.properties {
            match judge_property(f, typing, &found.properties, &defined, &owner) {
                Verdict::Fits => {}
                Verdict::Maybe(why) => maybe = maybe.or(Some(why)),
                fails => return fails,
            }
        }
    }
    maybe.map_or(Verdict::Fits, Verdict::Maybe)
}

/// A capability by name, else the first whose type (or an ancestor) is `name` (a type name as
/// written at `at`).
fn capability<'n>(
    typing: &mut Typing,
    capabilities: &'n indexmap::IndexMap<String, Shared<Capability>>,
    name: &str,
    at: Span,
) -> Option<(&'n str, &'n Capability)> {
    if let Some((n, c)) = capabilities.get_key_value(name) {
        return Some((n.as_str(), c));
    }
    let full = typing
        .ancestry
        .full_name(typing.model, TypeKind::Capability, name, at.file)
        .unwrap_or_else(|| name.to_string());
    capabilities
        .iter()
        .find(|(_, c)| type_matches(&c.types, &full))
        .map(|(n, c)| (n.as_str(), &**c))
}

fn judge_property(
    filter: &PropertyFilter,
    typing: &mut Typing,
    values: &indexmap::IndexMap<String, Value>,
    defined: &indexmap::IndexMap<&str, Definition>,
    owner: &str,
) -> Verdict {
    let Some(value) = values.get(filter.name) else {
        return Verdict::Fails(format!("has no value for `{}`{owner}", filter.name));
    };
    if value.has_call() {
        return Verdict::Maybe(format!(
            "`{}`{owner} is known only at deployment",
            filter.name
        ));
    }
    let type_name = defined
        .get(filter.name)
        .and_then(Definition::type_name)
        .unwrap_or_default();
    for clause in &filter.clauses {
        // What is wrong in the clause is reported where the filter is checked against the
        // type the requirement asks for (`check_properties`); judging a candidate reports
        // nothing.
        let holds = constraints::holds_to(
            typing,
            value,
            clause.operator,
            clause.operand,
            type_name,
            &mut None::<&mut Diagnostics>,
        );
        if holds != Some(true) {
            let written = format!(
                "{}: {}",
                clause.operator,
                constraints::shown(clause.operand)
            );
            let value = crate::ir::value_text(value);
            let name = filter.name;
            return Verdict::Fails(match holds {
                Some(_) => format!("has `{name}: {value}`{owner}, which is not `{written}`"),
                None => format!(
                    "has `{name}: {value}`{owner}, which cannot be compared with `{written}`"
                ),
            });
        }
    }
    Verdict::Fits
}

/// A requirement *definition* (in a node type) may not have a `node_filter` in the Simple
/// Profile: only assignments select (SP-REQD-08).
pub fn check_definitions(model: &Model, diags: &mut Diagnostics) {
    for def in model.types.values() {
        if def.kind != TypeKind::Node {
            continue;
        }
        let Some(list) = def
            .def
            .as_map()
            .and_then(|m| m.get("requirements"))
            .and_then(Yaml::as_seq)
        else {
            continue;
        };
        for item in list {
            let Some((key, value)) = single(item) else {
                continue;
            };
            let Some(filter) = value.as_map().and_then(|m| m.entry("node_filter")) else {
                continue;
            };
            diags.push(
                Diagnostic::error(
                    codes::TOSCA_UNKNOWN_KEY,
                    format!(
                        "requirement definition `{}` of node type `{}` has a `node_filter`, which only a requirement assignment may have",
                        key.scalar_text().unwrap_or_default(),
                        def.name
                    ),
                )
                .at(filter.key.span)
                .hint("move the filter to the requirement assignments of the node templates, or name a `node` type here"),
            );
        }
    }
}

/// Whether `node` passes the Simple Profile node filter written at `filter`, judged as
/// requirement fulfilment judges it ([`judge`]); a filter that depends on values known only at
/// deployment passes. For the language server, which completes a requirement's target with
/// the templates that would fit.
pub fn admits(model: &Model, ancestry: &mut super::Ancestry, filter: &Yaml, node: &Node) -> bool {
    // What is wrong in the filter is reported by the check the language server runs
    // beside this, where requirement fulfilment reads the filter.
    let read = read_to(filter, &mut None);
    let reader = super::values::ValueReader {
        dialect: model.dialect,
        inputs: None,
        budget: None,
    };
    let patterns = super::patterns::Patterns::default();
    let mut typing = Typing {
        model,
        reader: &reader,
        ancestry,
        patterns: &patterns,
    };
    !matches!(judge(&read, &mut typing, node), Verdict::Fails(_))
}
