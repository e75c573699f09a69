//! Block storage (`tosca.nodes.Storage.BlockStorage`, TOSCA 1.0's `tosca.nodes.BlockStorage`)
//! and its attachments (`tosca.relationships.AttachesTo`).
//!
//! A volume attached to machines that are created one by one is a volume resource
//! (`bind.resource`: AWS `aws_ebs_volume`, OpenStack `openstack_blockstorage_volume_v3`) with
//! one attachment per machine. A machine a scaling policy makes an autoscaling group (AWS, see
//! [`super::scaling`]) has no one instance to attach a volume to, and a volume attaches to
//! one instance only: there the volume is a block device of the group's launch template
//! (`block_device_mappings`), so that every instance the group launches gets a volume of its
//! own, of the same size and from the same snapshot, deleted with the instance. A volume that
//! only scaled machines attach is then no resource of its own (its attributes cannot be read).
//!
//! The device is the attachment's `device` property, else the next of the rule's
//! `bind.devices` the machine has not used yet (so two volumes of one machine never share a
//! device name).

use serde_json::{Value as Json, json};

use crate::back::filters::hcl_str;
use crate::back::meanings::{Meaning, RelationshipMeanings};
use crate::ir::{Hosting, NodeId, Topology, Value};

use super::super::expr::{NodeRef, known, number};
use super::super::policies::Policies;
use super::super::scripts::{GIB, whole_units};
use super::Builder;

/// Clears the address of each volume that only scaled machines attach: it is written only as
/// block devices of their launch templates and has no resource of its own.
pub(super) fn launch_only_have_no_address(
    refs: &mut [NodeRef<'_>],
    topology: &Topology,
    meanings: &RelationshipMeanings,
    hosting: &Hosting,
    roles: &[&str],
    policies: &Policies<'_>,
) {
    let count = topology.nodes.len();
    let (mut scaled, mut unscaled) = (vec![false; count], vec![false; count]);
    for (ri, r) in topology.relationships.iter().enumerate() {
        let machine = hosting.root(r.source);
        if !meanings.means_at(ri, Meaning::Attachment)
            || roles[r.target.index()] != "block_storage"
            || roles[machine.index()] != "compute"
        {
            continue;
        }
        if policies.scaling[machine.index()].is_some() {
            scaled[r.target.index()] = true;
        } else {
            unscaled[r.target.index()] = true;
        }
    }
    for (i, r) in refs.iter_mut().enumerate() {
        if scaled[i] && !unscaled[i] {
            r.address = None;
        }
    }
}

impl Builder<'_, '_> {
    pub(super) fn block_storage(&mut self, id: NodeId) -> Json {
        let (size_gib, size_given) = self.volume_size(id);
        let mut attachments = Vec::new();
        let mut launch_devices = Vec::new();
        let mut attached: Vec<NodeId> = Vec::new();
        for ri in self.incoming[id.index()].clone() {
            let r = &self.topology.relationships[ri];
            if !self.meanings.means_at(ri, Meaning::Attachment) {
                continue;
            }
            let compute = self.hosting.root(r.source);
            if self.role_of(compute) != "compute" || attached.contains(&compute) {
                continue;
            }
            attached.push(compute);
            let device = self.device_name(ri, compute, id).map(|d| hcl_str(&d));
            if self.is_scaled(compute) {
                launch_devices.push(json!({ "compute": compute.index(), "device": device }));
                continue;
            }
            attachments.push(json!({
                "name": self.derived_name(format!("{}_{}", self.names[id.index()], self.names[compute.index()])),
                "compute": self.names[compute.index()],
                "compute_index": compute.index(),
                "device": device,
            }));
        }
        // Only block devices of launch templates: no volume of its own.
        let written = !attachments.is_empty() || launch_devices.is_empty();
        if written && attachments.is_empty() {
            self.needs
                .insert("availability_zones".to_string(), json!(true));
        }
        json!({
            "written": written,
            "size_gib": size_gib,
            "size_given": size_given,
            // The volume starts as a copy of the snapshot (Simple Profile 1.0 §C.7.9 tosca.nodes.BlockStorage).
            "snapshot_id": self.prop(id, "snapshot_id"),
            "volume_type": self.bind(id).get("volume_type").and_then(Json::as_str).map(hcl_str),
            "attachments": attachments,
            "launch_devices": launch_devices,
            "volume_name": self.prop(id, "name"),
        })
    }

    /// The volume's size in whole GiB as HCL (an input's variable where it comes from one),
    /// and whether the node template gave it; without one, `bind.default_size_gib`.
    fn volume_size(&mut self, id: NodeId) -> (Option<String>, bool) {
        let topology = self.topology;
        let size = self
            .ledger
            .property(topology, id.index(), "size")
            .map(|v| known(topology, v));
        let size_gib = match size {
            Some(Value::Null) | None => None,
            Some(v) => match whole_units(v, GIB, "GiB") {
                Ok(Some(text)) => Some(text),
                Ok(None) => {
                    let node = &topology.nodes[id.index()].name;
                    self.value(id, v, &format!("property `size` of node `{node}`"))
                }
                Err(_) => self.checked_size(id, v, GIB, "GiB", "property `size`"),
            },
        };
        // A size from an input is its variable, where it is one the providers can hold.
        let size_gib = size_gib.map(|text| {
            let raw = self.ledger.property(topology, id.index(), "size");
            raw.and_then(|raw| self.size_from_input(raw, GIB))
                .unwrap_or(text)
        });
        // Given by the template itself, not only by its type's default (Simple Profile 1.3's
        // `1 MB`): a volume copied from a snapshot is at least the snapshot's size, so such a
        // default is left out beside a snapshot rather than asking for a volume too small.
        let given = size_gib.is_some()
            && topology.nodes[id.index()]
                .assigned
                .iter()
                .any(|a| a == "size");
        let size_gib = size_gib.or_else(|| {
            self.bind(id)
                .get("default_size_gib")
                .and_then(Json::as_f64)
                .map(number)
        });
        (size_gib, given)
    }

    /// The device name of attachment `ri` of `volume` to `compute`: the attachment's
    /// `device`, else the `bind.devices` entry at the volume's place among the machine's
    /// volumes that name no device, so that the machine's volumes take distinct devices.
    pub(super) fn device_name(&self, ri: usize, compute: NodeId, volume: NodeId) -> Option<String> {
        if let Some(Value::String(d)) = self.relationship_property(ri, "device") {
            return Some(d.clone());
        }
        let devices = self.bind(volume).get("devices").and_then(Json::as_array)?;
        let unnamed: Vec<NodeId> = self
            .attachments_of(compute)
            .into_iter()
            .filter(|&(ai, _)| {
                !matches!(
                    self.relationship_property(ai, "device"),
                    Some(Value::String(_))
                )
            })
            .map(|(_, v)| v)
            .collect();
        let nth = unnamed.iter().position(|&v| v == volume).unwrap_or(0);
        devices.get(nth).and_then(Json::as_str).map(str::to_string)
    }

    /// The attachments of block storage to machine `compute` (or to software on it), each
    /// volume once, as (relationship, volume) in the order the machine's stack lists them.
    pub(super) fn attachments_of(&self, compute: NodeId) -> Vec<(usize, NodeId)> {
        let mut members = vec![compute];
        let mut i = 0;
        while i < members.len() {
            members.extend_from_slice(self.hosting.hosted(members[i]));
            i += 1;
        }
        let mut out: Vec<(usize, NodeId)> = Vec::new();
        for &ri in members.iter().flat_map(|m| self.outgoing[m.index()].iter()) {
            let volume = self.topology.relationships[ri].target;
            if self.meanings.means_at(ri, Meaning::Attachment)
                && self.role_of(volume) == "block_storage"
                && !out.iter().any(|&(_, v)| v == volume)
            {
                out.push((ri, volume));
            }
        }
        out
    }
}

/// Moves each volume's block devices of launch templates ([`Builder::block_storage`]'s
/// `launch_devices`) into the scaled machines' contexts, as their `launch_volumes`: once every
/// node is built, since a machine may come before its volumes.
pub(super) fn into_launch_templates(nodes: &mut [Json]) {
    for v in 0..nodes.len() {
        let Some(devices) = nodes[v]["launch_devices"].as_array().cloned() else {
            continue;
        };
        for d in devices {
            let Some(machine) = d["compute"].as_u64().map(|m| m as usize) else {
                continue;
            };
            let volume = json!({
                "name": nodes[v]["name"],
                "device": d["device"],
                "size_gib": nodes[v]["size_gib"],
                "size_given": nodes[v]["size_given"],
                "snapshot_id": nodes[v]["snapshot_id"],
                "volume_type": nodes[v]["volume_type"],
            });
            match nodes[machine]["launch_volumes"].as_array_mut() {
                Some(list) => list.push(volume),
                None => nodes[machine]["launch_volumes"] = json!([volume]),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_devices_move_to_their_scaled_machines_in_volume_order() {
        let mut nodes = vec![
            json!({ "name": "web" }),
            json!({
                "name": "cache", "size_gib": "20", "size_given": true, "snapshot_id": null,
                "volume_type": "\"gp3\"",
                "launch_devices": [ { "compute": 0, "device": "\"/dev/sdf\"" } ],
            }),
            json!({
                "name": "media", "size_gib": "1", "size_given": false,
                "snapshot_id": "\"snap-1\"", "volume_type": "\"gp3\"",
                "launch_devices": [ { "compute": 0, "device": "\"/dev/sdg\"" } ],
            }),
            json!({ "name": "plain", "launch_devices": [] }),
        ];
        into_launch_templates(&mut nodes);
        let volumes = nodes[0]["launch_volumes"].as_array().expect("moved");
        let names: Vec<&str> = volumes.iter().filter_map(|v| v["name"].as_str()).collect();
        assert_eq!(names, ["cache", "media"]);
        assert_eq!(volumes[1]["device"], "\"/dev/sdg\"");
        assert_eq!(volumes[1]["snapshot_id"], "\"snap-1\"");
        assert_eq!(volumes[1]["size_given"], false);
        assert!(nodes[3].get("launch_volumes").is_none());
    }
}
