//! Mounting attached block storage at its `location` (`tosca.relationships.AttachesTo`,
//! Simple Profile 1.3 §5.7.4 and TOSCA 2.0's profile alike): Terraform attaches a volume to a
//! machine at a device, it neither formats nor mounts it, so the machine's cloud-init does.
//!
//! For each attachment of a machine that names a `location`, the machine's user data carries
//! `mount-volume` (the script beside this module) and runs it before the template's own
//! scripts: it waits for the volume's device, makes a filesystem only when it has none (a
//! volume restored from a snapshot keeps its data), mounts it and adds an `/etc/fstab` line
//! with `nofail`. A mount that fails stops the scripts after it (`|| exit 1` in cloud-init's
//! `runcmd`), so that software never writes to the root disk in the volume's place.
//!
//! The device is found by the volume's id, known only after apply, so the command is written
//! with a Terraform reference: the rule's `bind.mount_by_id` (HCL template text with `{id}` for
//! the volume's id; AWS Nitro: `nvme-Amazon_Elastic_Block_Store_vol…` without the dash,
//! OpenStack: `virtio-` and the id's first 20 characters), then the attachment's device name
//! (and on AWS, `bind.mount_xen_names`, its Xen name `/dev/xvdf` for `/dev/sdf`). A scaled
//! machine's volumes are block devices of its launch template, which have no id before an
//! instance launches: they are found by device name alone (on Nitro through the NVMe
//! controller that reports it, which `nvme-cli` reads).
//!
//! The user data then refers to the volume, so the volume cannot refer to the machine: an AWS
//! volume takes its zone from what places the machine ([`Builder::pin_volume_zone`]).
//! With `--provider kubernetes` nothing here applies: the volume claim's mount already puts
//! the storage at `location`.

use serde_json::{Value as Json, json};

use crate::back::ElementKind;
use crate::back::filters::hcl_str;
use crate::ir::{NodeId, Value};

use super::super::expr::known;
use super::super::unexpressed;
use super::{Builder, Provider};

/// The script every mount runs: written beside the configuration as [`MOUNT_SCRIPT_FILE`],
/// which cloud-init's `write_files` puts on the machine at [`MOUNT_SCRIPT_PATH`] (both
/// paths are also in the providers' `compute.tera`).
const MOUNT_SCRIPT: &str = include_str!("mount-volume.sh");
const MOUNT_SCRIPT_FILE: &str = "toscana/mount-volume.sh";
const MOUNT_SCRIPT_PATH: &str = "/opt/toscana-volumes/mount-volume";

/// `'text'` for the shell: a single quote inside is closed, escaped and reopened.
fn shell_quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

/// Literal text inside an HCL string (no surrounding quotes): `${` and `%{` escaped.
fn hcl_literal(text: &str) -> String {
    let quoted = hcl_str(text);
    quoted[1..quoted.len() - 1].to_string()
}

/// Why `location` cannot be a mount point, or `None` when it can: an absolute path of
/// printable characters other than `/` itself.
fn unmountable(location: &str) -> Option<&'static str> {
    if !location.starts_with('/') {
        Some("it is no absolute path")
    } else if location.chars().any(char::is_control) {
        Some("it holds a control character")
    } else if location.trim_end_matches('/').is_empty() {
        Some("it is the root folder")
    } else {
        None
    }
}

impl Builder<'_, '_> {
    /// The `runcmd` lines (HCL strings) that mount the volumes attached to machine `compute`
    /// at their locations, in the order the machine's stack lists its attachments.
    pub(super) fn mounts(&mut self, compute: NodeId) -> Vec<Json> {
        if self.provider == Provider::Kubernetes {
            return Vec::new();
        }
        let mut lines = Vec::new();
        for (ri, volume) in self.attachments_of(compute) {
            let Some(location) = self.mount_location(ri, volume, compute) else {
                continue;
            };
            let mut devices = Vec::new();
            let by_id = self.bind(volume).get("mount_by_id").and_then(Json::as_str);
            let address = self.refs[volume.index()].address.clone();
            if let (Some(by_id), Some(address), false) = (by_id, address, self.is_scaled(compute)) {
                devices.push(by_id.replace("{id}", &format!("{address}.id")));
            }
            if let Some(device) = self.device_name(ri, compute, volume) {
                let xen = self.bind(volume).get("mount_xen_names") == Some(&json!(true));
                if let Some(xen_name) = device.strip_prefix("/dev/sd").filter(|_| xen) {
                    devices.push(hcl_literal(&shell_quoted(&format!("/dev/sd{xen_name}"))));
                    devices.push(hcl_literal(&shell_quoted(&format!("/dev/xvd{xen_name}"))));
                } else {
                    devices.push(hcl_literal(&shell_quoted(&device)));
                }
            }
            let location = hcl_literal(&shell_quoted(&location));
            lines.push(json!(format!(
                "\"/bin/sh {MOUNT_SCRIPT_PATH} {location} {} || exit 1\"",
                devices.join(" ")
            )));
        }
        if !lines.is_empty() {
            self.needs.insert("cloudinit".to_string(), json!(true));
            // Written once: the files are kept by path, the first of each.
            self.artifacts
                .push((MOUNT_SCRIPT_FILE.to_string(), MOUNT_SCRIPT.to_string()));
        }
        lines
    }

    /// The mount point attachment `ri` names, when it names one that can be mounted; a warning
    /// for one that cannot (not known before deployment, or no absolute path).
    fn mount_location(&mut self, ri: usize, volume: NodeId, compute: NodeId) -> Option<String> {
        let given = self.relationship_property(ri, "location")?;
        let why = match known(self.topology, given) {
            Value::String(location) => match unmountable(location) {
                None => return Some(location.clone()),
                Some(why) => format!("location `{location}` cannot be mounted: {why}"),
            },
            Value::Null => return None,
            _ => "its location is not known before deployment".to_string(),
        };
        if self.reporting() {
            let span = self.spans.of(ElementKind::Relationship, ri);
            self.push(unexpressed(
                span,
                format!(
                    "volume `{}` is attached to `{}` but not mounted: {why}",
                    self.topology.nodes[volume.index()].name,
                    self.topology.nodes[compute.index()].name
                ),
                "give the AttachesTo relationship a `location` that is an absolute path, such as /var/lib/data",
            ));
        }
        None
    }

    /// On AWS, the zone the volumes attached to machine `id` are created in, as HCL
    /// (`volume_zone`): the machine's own zone, else its subnet's, else the region's first
    /// zone, in which the machine is then placed. Not the instance's `availability_zone`
    /// attribute: the machine's user data refers to its volumes ([`Builder::mounts`]), and a
    /// volume that referred to the machine would close a cycle.
    pub(super) fn pin_volume_zone(&mut self, id: NodeId, machine: &mut Json) {
        if self.provider != Provider::Aws || self.is_scaled(id) {
            return;
        }
        if self.attachments_of(id).is_empty() {
            return;
        }
        let subnet = machine["ports"]
            .get(0)
            .and_then(|p| p["network"].as_str())
            .map(|net| format!("aws_subnet.{net}.availability_zone"));
        let zone = match (machine["availability_zone"].as_str(), subnet) {
            (Some(zone), _) => zone.to_string(),
            (None, Some(subnet)) => subnet,
            (None, None) => {
                let first = "data.aws_availability_zones.available.names[0]";
                self.needs
                    .insert("availability_zones".to_string(), json!(true));
                machine["availability_zone"] = json!(first);
                first.to_string()
            }
        };
        machine["volume_zone"] = json!(zone);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations_are_quoted_for_the_shell_and_escaped_for_hcl() {
        assert_eq!(shell_quoted("/srv/it's"), "'/srv/it'\\''s'");
        assert_eq!(hcl_literal("'/srv/${x}'"), "'/srv/$${x}'");
    }

    #[test]
    fn only_absolute_paths_below_the_root_are_mount_points() {
        assert_eq!(unmountable("/var/lib/mysql"), None);
        assert!(unmountable("var/lib").is_some());
        assert!(unmountable("/").is_some());
        assert!(unmountable("/data\nrm -rf /").is_some());
    }
}
