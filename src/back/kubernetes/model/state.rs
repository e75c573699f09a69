//! State: every stateful workload keeps its data on a volume claim (issue 26, scope 3).
//!
//! A workload keeps state when
//! - it is a database product (a DBMS or Database node the rules' `products` know by the words
//!   of its types or product properties, run as the product's image: `product_workload`);
//! - it is a container application whose image is a product that keeps state (`products` name
//!   its images in `repositories`: `mysql`, `postgres`, `elasticsearch`, ...), or whose type
//!   names one (`shop.nodes.Postgres` running `shop/postgres-ha:16`), or whose type says it is a
//!   database by normative identity: it offers a `tosca.capabilities.Endpoint.Database`
//!   capability (any spelling, [`crate::ir::type_matches`]);
//! - it is a lifted stack with a member that keeps data ([`Ctx::keeps_data`]): a DBMS or a
//!   Database, software whose type names a product the table knows keeps data (its `match` or
//!   `lifted` words: a search engine such as Elasticsearch, a queue such as RabbitMQ, a
//!   key-value store such as Redis), or software whose type offers a database endpoint;
//! - storage is attached to it or hosted on it (`attach_storage` mounts each at its location).
//!
//! This module is the one place that gives such a workload the claim template for its data,
//! whenever no mount covers the folder where the data is: the product's folder (the table's
//! `data` for an image, `package_data` for a lifted product). Its size is then a default (the
//! product's `size`), and a default is never silent: a warning says how to choose it. Where
//! toscana does not know the folder (a database of an unknown product, software typed as a
//! database whose product the table does not know), the claim is mounted at
//! [`DEFAULT_DATA_FOLDER`] with [`DEFAULT_DATA_SIZE`], and the warning says so and which storage
//! to attach instead; a workload with storage attached is left as the template says.

use crate::diag::{Diagnostics, codes};
use crate::ir::type_matches;

use super::*;

/// Where the data claim of a stateful workload whose product toscana does not know is mounted:
/// the folder most database images keep their data in by convention (`redis`, `neo4j`,
/// `zookeeper`; MongoDB's `/data/db` is below it).
pub(super) const DEFAULT_DATA_FOLDER: &str = "/data";

/// The size of a data claim whose product toscana does not know: the storage rule's
/// `default_size`.
pub(super) const DEFAULT_DATA_SIZE: &str = "1Gi";

/// Where a workload keeps its data, as far as toscana knows.
pub(super) struct DataFolder {
    /// The node that keeps the data (warnings point at it).
    at: usize,
    pub(super) path: String,
    size: String,
    /// The product, when its table entry gave the folder; `None` for the default folder.
    product: Option<String>,
    /// How the product keeps its data out of a fresh volume's root ([`super::subfolder`]).
    pub(super) subfolder: Option<super::subfolder::Subfolder>,
}

impl Ctx<'_> {
    /// True when a container application's type says it keeps state: it offers a database
    /// endpoint (`tosca.capabilities.Endpoint.Database`, any spelling).
    pub(super) fn typed_as_database(&self, i: usize) -> bool {
        self.node(i).capabilities.values().any(|c| {
            let types: Vec<String> = c.types.iter().chain(&c.type_name).cloned().collect();
            type_matches(&types, "tosca.capabilities.Endpoint.Database")
        })
    }

    /// True when lifted node `i` keeps data: a DBMS or Database, software the product table
    /// knows keeps data where its package installs it (a search engine, a queue, a key-value
    /// store: [`Self::lifted_product`]), or software whose type offers a database endpoint.
    pub(super) fn keeps_data(&self, i: usize) -> bool {
        matches!(self.roles[i], Role::Dbms | Role::Database)
            || self.lifted_product(i).is_some()
            || self.typed_as_database(i)
    }

    /// Gives each stateful workload, for each folder where it keeps data that no mount covers, a
    /// claim template for it, with a warning that its size (and, for an unknown product, its
    /// folder) is a default.
    pub(super) fn claim_state(&mut self, diags: &mut Diagnostics) {
        for w in 0..self.plans.len() {
            if !self.plans[w].stateful {
                continue;
            }
            let attached = !self.plans[w].claim_templates.is_empty();
            for folder in self.data_folders(w) {
                if folder.product.is_none() && attached {
                    // Storage is attached: where the data is, the template knows.
                    continue;
                }
                let covering = self.plans[w]
                    .mounts
                    .iter()
                    .position(|m| !m.read_only && covers(&m.path, &folder.path));
                let mount = match covering {
                    Some(mount) => mount,
                    None => self.add_data_claim(w, &folder, diags),
                };
                self.keep_data_below_the_root(w, mount, &folder);
            }
        }
    }

    /// The claim template `data` of workload `w` mounted at `folder`, and the warning that says
    /// which of its settings are defaults and how to choose them; the index of its mount.
    fn add_data_claim(&mut self, w: usize, folder: &DataFolder, diags: &mut Diagnostics) -> usize {
        let DataFolder {
            at,
            path,
            size,
            product,
            ..
        } = folder;
        let (at, path, size) = (*at, path.clone(), size.clone());
        let name = self.node(at).name.clone();
        let whose = if self.roles[at] == Role::Container {
            "it"
        } else {
            "its server"
        };
        let (message, hint) = match product {
            Some(_) => (
                format!("`{name}` keeps its data in {path} on a claim of the default size {size}"),
                format!(
                    "attach a tosca.nodes.Storage.BlockStorage with a `size` to {whose} (AttachesTo, `location` {path}) to choose the size"
                ),
            ),
            None => (
                format!(
                    "`{name}` keeps state, but toscana does not know where this product keeps its data: a claim of the default size {size} is mounted at the default folder {path}"
                ),
                format!(
                    "attach a tosca.nodes.Storage.BlockStorage with a `size` to {whose} with AttachesTo and the product's data folder as `location`"
                ),
            ),
        };
        let d = self.warn(
            codes::K8S_UNSUPPORTED,
            self.node(at).location,
            message,
            &hint,
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
            path,
            read_only: false,
            sub_path: None,
        });
        plan.mounts.len() - 1
    }

    /// Where workload `w` keeps its data: the folder of its product, the default folder when
    /// the product is unknown; none when its state is only the storage attached to it. A lifted
    /// stack has one folder for its DBMS and the databases on it (the first product the table
    /// knows among them), and one for each other member that keeps data (Elasticsearch beside
    /// an application), each folder once.
    fn data_folders(&self, w: usize) -> Vec<DataFolder> {
        let plan = &self.plans[w];
        if let Some(product) = plan.product.as_ref().or(plan.state.as_ref()) {
            return vec![known(plan.owner, product, "data").unwrap_or_else(|| unknown(plan.owner))];
        }
        if self.roles[plan.owner] == Role::Container {
            return if self.typed_as_database(plan.owner) {
                vec![unknown(plan.owner)]
            } else {
                Vec::new()
            };
        }
        let (databases, others): (Vec<usize>, Vec<usize>) = plan
            .members
            .iter()
            .copied()
            .filter(|&m| self.keeps_data(m))
            .partition(|&m| matches!(self.roles[m], Role::Dbms | Role::Database));
        let mut folders: Vec<DataFolder> = Vec::new();
        if let Some(&first) = databases.first() {
            let found = databases.iter().find_map(|&m| {
                let product = self.lifted_product(m)?;
                known(first, &product, "package_data")
            });
            folders.push(found.unwrap_or_else(|| unknown(first)));
        }
        for m in others {
            let folder = self
                .lifted_product(m)
                .and_then(|product| known(m, &product, "package_data"))
                .unwrap_or_else(|| unknown(m));
            if !folders.iter().any(|f| f.path == folder.path) {
                folders.push(folder);
            }
        }
        folders
    }
}

/// The data folder `key` (`data` for the image, `package_data` for a lifted install) of
/// `product`, kept by node `at`, with the product's claim size.
fn known(at: usize, product: &Json, key: &str) -> Option<DataFolder> {
    Some(DataFolder {
        at,
        path: json_str(product, key)?.to_string(),
        size: json_str(product, "size")
            .unwrap_or(DEFAULT_DATA_SIZE)
            .to_string(),
        product: Some(json_str(product, "name").unwrap_or("product").to_string()),
        subfolder: super::subfolder::Subfolder::of(product, key),
    })
}

/// The default data folder and size, for node `at` whose product toscana does not know.
fn unknown(at: usize) -> DataFolder {
    DataFolder {
        at,
        path: DEFAULT_DATA_FOLDER.to_string(),
        size: DEFAULT_DATA_SIZE.to_string(),
        product: None,
        subfolder: None,
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
