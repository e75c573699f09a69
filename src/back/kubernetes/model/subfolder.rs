//! Data in a subfolder of its volume: the root of a fresh filesystem (an ext4 cloud disk behind
//! a claim) holds `lost+found`, and some products refuse to initialise a data folder that is
//! not empty (PostgreSQL's `initdb`, MySQL's `mysqld --initialize`, whose `--ignore-db-dir` is
//! gone since 8.0) or read every folder in it as theirs (Kafka's log folder, one folder per
//! partition). So where a volume is mounted at such a product's data folder itself, the data
//! goes one folder down, as the product's table entry says (`data_subfolder` of the rules'
//! `products`):
//!
//! - `env` names the image's own setting of its data folder (PostgreSQL's `PGDATA`), which is
//!   given the subfolder (`PGDATA=/var/lib/postgresql/data/pgdata`, as the image's
//!   documentation asks of a mount); the image then creates and owns the folder itself;
//! - without `env`, the volume's subfolder is mounted at the data folder (`subPath`), so the
//!   product sees a folder of its own (MySQL, MariaDB).
//!
//! A lifted install is run by its scripts, which toscana cannot give a setting, so it gets the
//! `subPath` where the entry says `lifted: true`: its package keeps the data in the folder the
//! claim is mounted at (MySQL's `/var/lib/mysql`, Kafka's `/var/lib/kafka` where install scripts
//! point `log.dirs`); a package that keeps it further down (PostgreSQL's
//! `/var/lib/postgresql/<version>/main`) meets no `lost+found`. A volume mounted above the data
//! folder needs nothing, and a setting the template gives itself (its own `PGDATA`) is kept.

use serde_json::Value as Json;

use super::state::DataFolder;
use super::*;

/// How a product keeps its data below the root of its volume.
#[derive(Debug, Clone)]
pub(super) struct Subfolder {
    /// The subfolder's name.
    folder: String,
    /// The image's setting that moves its data folder there; `None`: mount the subfolder.
    env: Option<String>,
}

impl Subfolder {
    /// The `data_subfolder` of `product` for its data folder `key` (`data` in the image,
    /// `package_data` for a lifted install).
    pub(super) fn of(product: &Json, key: &str) -> Option<Subfolder> {
        let entry = product.get("data_subfolder")?;
        let folder = json_str(entry, "folder")?.to_string();
        if key == "data" {
            let env = json_str(entry, "env").map(str::to_string);
            return Some(Subfolder { folder, env });
        }
        let lifted = entry.get("lifted").and_then(Json::as_bool) == Some(true);
        lifted.then_some(Subfolder { folder, env: None })
    }
}

impl Ctx<'_> {
    /// Keeps the data of `folder` below the root of mount `mount` of workload `w` when the
    /// mount is the data folder itself and the product needs it (see the module docs).
    pub(super) fn keep_data_below_the_root(&mut self, w: usize, mount: usize, folder: &DataFolder) {
        let Some(subfolder) = &folder.subfolder else {
            return;
        };
        let plan = &mut self.plans[w];
        let data = folder.path.trim_end_matches('/');
        if plan.mounts[mount].path.trim_end_matches('/') != data {
            return;
        }
        match &subfolder.env {
            Some(name) => {
                if !plan.env.iter().any(|e| &e.name == name) {
                    plan.env.push(Env {
                        name: name.clone(),
                        value: Some(format!("{data}/{}", subfolder.folder)),
                        secret: None,
                        key: None,
                        field: None,
                    });
                }
            }
            None => plan.mounts[mount].sub_path = Some(subfolder.folder.clone()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_image_is_told_its_folder_and_a_lifted_install_that_needs_it_gets_a_sub_path() {
        let postgres = json!({"data": "/var/lib/postgresql/data", "package_data": "/var/lib/postgresql",
            "data_subfolder": {"folder": "pgdata", "env": "PGDATA"}});
        let mysql = json!({"data": "/var/lib/mysql", "package_data": "/var/lib/mysql",
            "data_subfolder": {"folder": "mysql", "lifted": true}});
        let image = Subfolder::of(&postgres, "data").unwrap();
        assert_eq!(
            (image.folder.as_str(), image.env.as_deref()),
            ("pgdata", Some("PGDATA"))
        );
        // PostgreSQL's package keeps its cluster below /var/lib/postgresql: no lost+found there.
        assert!(Subfolder::of(&postgres, "package_data").is_none());
        let lifted = Subfolder::of(&mysql, "package_data").unwrap();
        assert_eq!((lifted.folder.as_str(), lifted.env), ("mysql", None));
        assert!(Subfolder::of(&json!({"data": "/data"}), "data").is_none());
    }
}
