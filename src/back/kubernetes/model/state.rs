//! State: every stateful workload keeps its data on a volume claim (issue 26, scope 3).
//!
//! Three kinds of workload keep state: a database product (which mounts its claim itself, see
//! `product_workload`), a container application whose image is a product that keeps state (the
//! rules' `products` name its images in `repositories`: `mysql`, `postgres`, `elasticsearch`,
//! ...), and a lifted stack with a DBMS or a database. Storage attached to any workload is a
//! claim template mounted at the attachment's location (`attach_storage`). When no mount covers
//! the folder where the product keeps its data, the data would be gone on every restart, so the
//! workload gets a claim template `data` mounted there: for a container the image's folder (the
//! table's `data`), for a lifted stack the folder the distribution's package uses
//! (`package_data`, the product recognised by the words of its members' names and types). Its
//! size is the product's default, with a warning that says how to choose it. A lifted product
//! toscana does not know gets no volume and a warning that says which storage to attach.

use crate::diag::{Diagnostics, codes};

use super::*;

impl Ctx<'_> {
    /// Gives each stateful workload whose data folder no mount covers a claim template for it,
    /// or warns that toscana does not know where the data is.
    pub(super) fn claim_state(&mut self, diags: &mut Diagnostics) {
        for w in 0..self.plans.len() {
            let plan = &self.plans[w];
            if !plan.stateful || plan.product.is_some() {
                continue;
            }
            let Some((at, found)) = self.data_folder(w) else {
                continue;
            };
            let name = self.node(at).name.clone();
            let Some((product, data)) = found else {
                if !self.plans[w].claim_templates.is_empty() {
                    // Storage is attached: where the data is, the template knows.
                    continue;
                }
                let d = self.warn(
                    codes::K8S_UNSUPPORTED,
                    self.node(at).location,
                    format!(
                        "`{name}` keeps its data in its container's filesystem, which a restart empties: toscana does not know where this product keeps its data"
                    ),
                    "attach a tosca.nodes.Storage.BlockStorage to its server with AttachesTo and the data folder as `location`",
                );
                diags.push(d);
                continue;
            };
            if self.plans[w]
                .mounts
                .iter()
                .any(|m| !m.read_only && covers(&m.path, &data))
            {
                continue;
            }
            let size = json_str(&product, "size").unwrap_or("1Gi").to_string();
            let whose = if self.roles[at] == Role::Container {
                "it"
            } else {
                "its server"
            };
            let d = self.warn(
                codes::K8S_UNSUPPORTED,
                self.node(at).location,
                format!(
                    "`{name}` keeps its data in {data} on a claim of the default size {size}"
                ),
                &format!(
                    "attach a tosca.nodes.Storage.BlockStorage with a `size` to {whose} (AttachesTo, `location` {data}) to choose the size"
                ),
            );
            diags.push(d);
            let plan = &mut self.plans[w];
            let volume = unused_volume_name(plan, "data");
            plan.claim_templates.push(ClaimTemplate {
                name: volume.clone(),
                size,
            });
            plan.mounts.push(Mount {
                name: volume,
                path: data,
                read_only: false,
            });
        }
    }

    /// Where workload `w` keeps its data: the node that says so, and the product's table entry
    /// with its data folder (`None` for a lifted product toscana does not know); `None` when no
    /// member keeps state.
    fn data_folder(&self, w: usize) -> Option<(usize, Option<(Json, String)>)> {
        let plan = &self.plans[w];
        if let Some(product) = &plan.state {
            let data = json_str(product, "data")?.to_string();
            return Some((plan.owner, Some((product.clone(), data))));
        }
        let stateful_members: Vec<usize> = plan
            .members
            .iter()
            .copied()
            .filter(|&m| matches!(self.roles[m], Role::Dbms | Role::Database))
            .collect();
        let &first = stateful_members.first()?;
        let found = stateful_members.iter().find_map(|&m| {
            let product = self.table_entry(m, "products", true)?;
            let data = json_str(&product, "package_data")?.to_string();
            Some((product, data))
        });
        Some((first, found))
    }
}

/// True when a volume mounted at `mount` holds `folder`: the same folder or one above it.
fn covers(mount: &str, folder: &str) -> bool {
    let (mount, folder) = (mount.trim_end_matches('/'), folder.trim_end_matches('/'));
    folder == mount || mount.is_empty() || folder.starts_with(&format!("{mount}/"))
}

/// `base`, or `base-2`, `base-3`, ... when a mount or claim template of the plan already has the name
/// (storage named `data` attached elsewhere).
fn unused_volume_name(plan: &Plan, base: &str) -> String {
    let taken = |n: &str| {
        plan.mounts.iter().any(|m| m.name == n) || plan.claim_templates.iter().any(|c| c.name == n)
    };
    let mut name = base.to_string();
    let mut n = 1;
    while taken(&name) {
        n += 1;
        name = format!("{base}-{n}");
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mount_covers_its_folder_and_those_below() {
        assert!(covers("/var/lib/mysql", "/var/lib/mysql"));
        assert!(covers("/var/lib/", "/var/lib/mysql"));
        assert!(covers("/", "/data"));
        assert!(!covers("/var/lib/my", "/var/lib/mysql"));
        assert!(!covers("/mnt/uploads", "/var/lib/mysql"));
    }
}
