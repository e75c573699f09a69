//! State: every stateful workload keeps its data on a volume claim.
//!
//! A lifted stack with a DBMS or a database is a StatefulSet. Storage attached to it with
//! AttachesTo is a claim template mounted at the attachment's location (`attach_storage`); a
//! stack with no attached storage would lose its data on every restart, so it gets a claim
//! template `data` mounted where its product keeps its data when installed from the
//! distribution's packages (the product table's `package_data`, the product recognised by the
//! words of its members' names and types), of the product's default size, with a warning that
//! says how to choose the size. A product toscana does not know gets no volume and a warning
//! that says which storage to attach.

use crate::diag::{Diagnostics, codes};

use super::*;

impl Ctx<'_> {
    /// Gives each stateful workload without a claim template one for its data, or warns.
    pub(super) fn claim_state(&mut self, diags: &mut Diagnostics) {
        for w in 0..self.plans.len() {
            let plan = &self.plans[w];
            if !plan.stateful || plan.product.is_some() || !plan.claim_templates.is_empty() {
                continue;
            }
            let stateful_members: Vec<usize> = plan
                .members
                .iter()
                .copied()
                .filter(|&m| matches!(self.roles[m], Role::Dbms | Role::Database))
                .collect();
            let Some(&first) = stateful_members.first() else {
                continue;
            };
            let found = stateful_members.iter().find_map(|&m| {
                let product = self.table_entry(m, "products", true)?;
                let data = json_str(&product, "package_data")?.to_string();
                Some((product, data))
            });
            let name = self.node(first).name.clone();
            let Some((product, data)) = found else {
                let d = self.warn(
                    codes::K8S_UNSUPPORTED,
                    self.node(first).location,
                    format!(
                        "`{name}` keeps its data in its container's filesystem, which a restart empties: toscana does not know where this product keeps its data"
                    ),
                    "attach a tosca.nodes.Storage.BlockStorage to its server with AttachesTo and the data folder as `location`",
                );
                diags.push(d);
                continue;
            };
            let size = json_str(&product, "size").unwrap_or("1Gi").to_string();
            let d = self.warn(
                codes::K8S_UNSUPPORTED,
                self.node(first).location,
                format!(
                    "`{name}` keeps its data in {data} on a claim of the default size {size}"
                ),
                "attach a tosca.nodes.Storage.BlockStorage with a `size` to its server (AttachesTo, `location` the data folder) to choose the size",
            );
            diags.push(d);
            let plan = &mut self.plans[w];
            plan.claim_templates.push(ClaimTemplate {
                name: "data".to_string(),
                size,
            });
            plan.mounts.push(Mount {
                name: "data".to_string(),
                path: data,
                read_only: false,
            });
        }
    }
}
