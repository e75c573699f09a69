//! Artifact and policy templates, implementations, and the abstract-type check of templates.

use roxmltree::Node as Xn;

use crate::diag::{Diagnostic, codes};
use crate::front::xml::X;
use crate::front::xml::doc::{self, kid, kids};
use crate::front::xml::names::XKind;
use crate::yaml::Node;

use super::Found;

pub(super) fn artifact_template(x: &mut X, di: usize, n: Xn) {
    let d = x.docs[di];
    doc::check_element(
        d,
        n,
        &[
            "Tags",
            "Properties",
            "PropertyConstraints",
            "ArtifactReferences",
        ],
        &["id", "name", "type"],
        &[],
        x.diags,
    );
    if doc::required(d, n, "type", x.diags).is_none() {
        return;
    }
    if let Some((f, _)) = x.resolve(di, n, "type", XKind::ArtifactType) {
        x.check_abstract(XKind::ArtifactType, &f, di, n);
        if let Some(p) = kid(n, "Properties") {
            let s = x.schema_of(XKind::ArtifactType, &f);
            x.values(di, p, s.as_ref(), "this artifact template");
        }
    }
    if let Some(refs) = kid(n, "ArtifactReferences") {
        // tArtifactReferences: one or more `ArtifactReference`, each a `reference` with
        // `Include`/`Exclude` patterns (XSD tArtifactReference).
        doc::check_element(d, refs, &["ArtifactReference"], &[], &[], x.diags);
        for r in kids(refs, "ArtifactReference") {
            doc::check_element(d, r, &["Include", "Exclude"], &["reference"], &[], x.diags);
            doc::required(d, r, "reference", x.diags);
            if kid(r, "Include").is_some() || kid(r, "Exclude").is_some() {
                x.lose(di, r, "`Include`/`Exclude` patterns");
            }
        }
    }
}

pub(super) fn policy_template(x: &mut X, di: usize, n: Xn) {
    let d = x.docs[di];
    doc::check_element(
        d,
        n,
        &["Tags", "Properties", "PropertyConstraints"],
        &["id", "name", "type"],
        &[],
        x.diags,
    );
    if doc::required(d, n, "type", x.diags).is_none() {
        return;
    }
    if let Some((f, _)) = x.resolve(di, n, "type", XKind::PolicyType) {
        x.check_abstract(XKind::PolicyType, &f, di, n);
        x.policy_template_values(di, n, &f);
    }
}

impl X<'_, '_> {
    /// The `Properties` of the policy template `n`, whose type resolved to `ty`, as values of
    /// that type's schema: read, and reported, the first time they are asked for, by the
    /// template's own translation or by a Policy whose policyRef names it (which merges them
    /// into its properties), and kept for the other.
    pub(in crate::front::xml) fn policy_template_values(
        &mut self,
        di: usize,
        n: Xn,
        ty: &Found,
    ) -> Option<Node> {
        let key = (di, n.id());
        if let Some(values) = self.policy_template_values.get(&key) {
            return values.clone();
        }
        let props = kid(n, "Properties")?;
        let schema = self.schema_of(XKind::PolicyType, ty);
        let values = self.values(di, props, schema.as_ref(), "this policy template");
        self.policy_template_values.insert(key, values.clone());
        values
    }
}

/// NTIs and RTIs are folded into their types; here they are only checked.
pub(super) fn implementation(x: &mut X, di: usize, n: Xn, kind: XKind) {
    let d = x.docs[di];
    let (of_attr, derive_attr, children): (&str, &str, &[&str]) =
        if kind == XKind::NodeTypeImplementation {
            (
                "nodeType",
                "nodeTypeImplementationRef",
                &[
                    "Tags",
                    "DerivedFrom",
                    "RequiredContainerFeatures",
                    "ImplementationArtifacts",
                    "DeploymentArtifacts",
                ],
            )
        } else {
            (
                "relationshipType",
                "relationshipTypeImplementationRef",
                &[
                    "Tags",
                    "DerivedFrom",
                    "RequiredContainerFeatures",
                    "ImplementationArtifacts",
                ],
            )
        };
    doc::check_element(
        d,
        n,
        children,
        &["name", "targetNamespace", of_attr, "abstract", "final"],
        &[],
        x.diags,
    );
    // Read here, where the implementation is defined, so a value other than yes or no is
    // reported once; `chosen_implementation` and `derived` read them again with `doc::flag`.
    doc::yes_no(d, n, "abstract", false, x.diags);
    doc::yes_no(d, n, "final", false, x.diags);
    x.derived(di, n, kind, derive_attr);
    if kid(n, "DerivedFrom").is_some() {
        x.lose(di, n, "an implementation's `DerivedFrom`");
    }
}

impl X<'_, '_> {
    /// Templates other than node templates must not instantiate an abstract type.
    pub(in crate::front::xml) fn check_abstract(
        &mut self,
        kind: XKind,
        f: &Found,
        di: usize,
        n: Xn,
    ) {
        let Found::Def(def) = f else { return };
        if doc::flag(self.node(*def), "abstract", false) {
            let d = self.docs[di];
            self.diags.push(
                Diagnostic::error(
                    codes::XML_RULE,
                    format!(
                        "{} `{}` is abstract and cannot be instantiated",
                        kind.element(),
                        self.yaml_name(kind, *def)
                    ),
                )
                .at(d.at(n, "type"))
                .hint("use a concrete type derived from it"),
            );
        }
    }
}
