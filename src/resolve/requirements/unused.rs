//! A relationship template no requirement names is read all the same: it is a template of the
//! service template, and what it writes must be what its type allows. Its `type` is "The
//! mandatory name of the relationship type on which the relationship template is based"
//! (§7.4 Relationship Template; A.7.4 in the Simple Profile), and its properties and attributes
//! are assignments to the definitions of that type (§9.5 Property Assignment, §9.7 Attribute
//! Assignment). Only its effect is nil: it connects nothing, which
//! [`super::RelationshipTemplates::report_unused`] warns about.
//!
//! Its `interfaces` are not read: the spec's own standalone relationship templates (§7.4's
//! `my-connects-to`, and the one §10.2.1.3 `$get_attribute` reads) assign an interface
//! `configure` their type does not define, and the OASIS suite holds both valid. Where a
//! requirement uses the template, its interfaces are read with the relationship it creates.

use crate::diag::Diagnostics;
use crate::model::{Named, TypeKind};
use crate::resolve::nodes::NodeBuilder;
use crate::resolve::types::definitions;

/// Reads the relationship template `template` as a requirement naming it would, keeping only
/// what is reported.
pub(super) fn read(builder: &mut NodeBuilder, template: &Named, diags: &mut Diagnostics) {
    let Some((type_name, at)) = builder.type_of(template, "relationship template", diags) else {
        return;
    };
    let types = builder
        .ancestry
        .of(builder.model, TypeKind::Relationship, &type_name, at, diags);
    let defs = definitions(builder.model, TypeKind::Relationship, &types);
    let owner = format!("relationship template `{}`", template.name);
    let assigned = |key: &str| template.def.as_map().and_then(|m| m.get(key));
    for section in ["properties", "attributes"] {
        builder.merged(
            &owner,
            &defs,
            section,
            assigned(section),
            template.span,
            diags,
        );
    }
}
