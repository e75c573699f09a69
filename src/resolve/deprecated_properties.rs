//! A property or attribute whose definition says `status: deprecated` is still read, but a
//! template that assigns it is told so, where it assigns it.
//!
//! The Simple Profile defines the value: "deprecated: Indicates the property has been
//! deprecated by a new specification version" (A.5.7.3 Status values), for attributes too
//! (A.5.9 Attribute definition: "Supported status values for this keyname are defined under
//! Property definition"). TOSCA 2.0 keeps the keyname in the property definition grammar
//! (§9.4 Property Definition: `status: <status_value>`) but defines no values; the checklist
//! decides to accept any string, keep it and warn on `deprecated` (T2-PROPDEF-07). A derived
//! type's `status` replaces its parent's (§9.8 Parameter Definition: "a new definition is
//! unrestricted and will overwrite the one inherited"), so the most specific definition that
//! writes a `status` decides.
//!
//! Judged where a value is written for a template: the `properties` and `attributes` of node
//! and relationship templates, groups and policies of the entry's service template. A value a
//! type writes (a `default`) is the type author's, who deprecated it.

use super::types::{Ancestry, definitions};
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::model::tree::{Pair, Tree};
use crate::model::{Model, TypeDef, TypeKind};

/// The value of `status` that is warned about.
const DEPRECATED: &str = "deprecated";

/// Warns at each assignment of a deprecated property or attribute in the service template.
pub fn check(model: &Model, ancestry: &mut Ancestry, diags: &mut Diagnostics) {
    let Some(topology) = model.topology.as_ref() else {
        return;
    };
    let kinds = [
        (TypeKind::Node, &topology.node_templates, "node template"),
        (
            TypeKind::Relationship,
            &topology.relationship_templates,
            "relationship template",
        ),
    ];
    for (kind, templates, noun) in kinds {
        for template in templates {
            let Some(map) = template.def.as_map() else {
                continue;
            };
            let written = Written {
                kind,
                noun,
                name: &template.name,
                type_name: map.get("type"),
                sections: [map.get("properties"), map.get("attributes")],
            };
            assignments(model, ancestry, written, diags);
        }
    }
    let typed = [
        (TypeKind::Group, &topology.groups, "group"),
        (TypeKind::Policy, &topology.policies, "policy"),
    ];
    for (kind, templates, noun) in typed {
        for template in templates {
            let written = Written {
                kind,
                noun,
                name: &template.name,
                type_name: template.type_name.as_ref(),
                sections: [template.properties.as_ref(), template.attributes.as_ref()],
            };
            assignments(model, ancestry, written, diags);
        }
    }
}

/// What one template writes that this check reads: its `type` and its `properties` and
/// `attributes`, as any [`Tree`] (a node or relationship template's YAML, a group's or
/// policy's typed values).
struct Written<'t, T> {
    /// The kind of its type.
    kind: TypeKind,
    /// What the template is called in messages.
    noun: &'t str,
    name: &'t str,
    type_name: Option<&'t T>,
    /// `properties`, then `attributes`.
    sections: [Option<&'t T>; 2],
}

/// The deprecated assignments of one template of kind `kind` (called `noun` in messages).
fn assignments<T: Tree>(
    model: &Model,
    ancestry: &mut Ancestry,
    template: Written<'_, T>,
    diags: &mut Diagnostics,
) {
    let (kind, noun) = (template.kind, template.noun);
    let Some(type_node) = template.type_name else {
        return;
    };
    let Some(type_name) = type_node.as_str() else {
        return;
    };
    // An unknown type is reported where its ancestry is first asked for.
    let chain = ancestry.of_reported_elsewhere(model, kind, type_name, type_node.span());
    let defs = definitions(model, kind, &chain);
    for (section, assigned) in ["properties", "attributes"]
        .into_iter()
        .zip(template.sections)
    {
        let Some(assigned) = assigned.and_then(T::entries) else {
            continue;
        };
        for entry in assigned {
            let Some(name) = entry.key().as_str() else {
                continue;
            };
            let Some(owner) = deprecated_by(&defs, section, name) else {
                continue;
            };
            let what = match section {
                "properties" => "property",
                _ => "attribute",
            };
            diags.push(
                Diagnostic::warning(
                    codes::TOSCA_DEPRECATED,
                    format!(
                        "{noun} `{}` sets {what} `{name}`, which type `{}` marks deprecated",
                        template.name, owner.name
                    ),
                )
                .at_with(entry.key().span(), format!("a deprecated {what}"))
                .hint(
                    "its definition says `status: deprecated`: it may go in a later version of the type; see the type's description for what replaces it (A.5.7.3 Status values; §9.4 Property Definition)",
                ),
            );
        }
    }
}

/// The type whose definition of `name` in `section` decides its status, when that status is
/// `deprecated`: the most specific of `defs` (most specific first) that writes a `status`.
fn deprecated_by<'m>(defs: &[&'m TypeDef], section: &str, name: &str) -> Option<&'m TypeDef> {
    let (owner, status) = defs.iter().find_map(|def| {
        let status = def
            .def
            .as_map()?
            .get(section)?
            .as_map()?
            .get(name)?
            .as_map()?
            .get("status")?;
        Some((*def, status))
    })?;
    (status.as_str() == Some(DEPRECATED)).then_some(owner)
}
