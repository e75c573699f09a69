//! Which image a workload runs, by the one image table ([`crate::back::images`]), with what is
//! wrong with it reported at the node: the base image of a lifted server from its `os`
//! capability, a database product's image, and a container image the template names itself.

use serde_json::Value as Json;

use crate::back::images::{self, Finding};
use crate::diag::{Diagnostics, codes};
use crate::ir::Value;

use super::super::values::literal_text;
use super::*;

impl Ctx<'_> {
    /// The image for a server's `os` capability.
    pub(super) fn base_image(&mut self, root: usize, diags: Option<&mut Diagnostics>) -> String {
        let os = self.node(root).capabilities.iter().find(|(_, c)| {
            c.types.iter().any(|t| t.ends_with("OperatingSystem"))
                || c.properties.contains_key("distribution")
        });
        let Some(os) = os.and_then(|(name, _)| self.capability(root, name)) else {
            return images::for_os(&self.node(root).name, None, None).image;
        };
        let distribution = images::os_system(os).and_then(Value::as_str);
        let version = os.get("version").and_then(literal_text);
        let location = os.location();
        let choice = images::for_os(&self.node(root).name, distribution, version.as_deref());
        self.report(location, choice.findings, diags);
        choice.image
    }

    /// The image of the database `product` (an entry of the rules' `products`) in `version`:
    /// the table's, or, for a product the table does not know (added by `--backend-dir`), the
    /// entry's own `image` with `{version}` filled in.
    pub(super) fn product_image(
        &mut self,
        owner: usize,
        product: &Json,
        version: Option<&str>,
        diags: Option<&mut Diagnostics>,
    ) -> Option<String> {
        let name = json_str(product, "name").unwrap_or("");
        let node = self.node(owner).name.clone();
        if let Some(choice) = images::for_product(&node, name, version) {
            let location = self.node(owner).location;
            self.report(location, choice.findings, diags);
            return Some(choice.image);
        }
        let image = json_str(product, "image")?;
        let version = version
            .or_else(|| json_str(product, "default_version"))
            .unwrap_or("latest");
        Some(image.replace("{version}", version))
    }

    /// Warns when the container image of `plan` names neither a tag nor a digest, or is a
    /// release out of support.
    pub(super) fn check_image(&mut self, plan: &Plan, diags: Option<&mut Diagnostics>) {
        let (location, name) = (
            self.node(plan.owner).location,
            self.node(plan.owner).name.clone(),
        );
        if let Some(image) = plan.image.as_deref() {
            let findings = images::check_named(&name, image);
            self.report(location, findings, diags);
        }
    }

    fn report(
        &mut self,
        location: Option<crate::ir::Location>,
        findings: Vec<Finding>,
        mut diags: Option<&mut Diagnostics>,
    ) {
        for f in findings {
            self.warn_to(
                diags.as_deref_mut(),
                codes::K8S_UNSUPPORTED,
                location,
                f.message,
                &f.hint,
            );
        }
    }
}
