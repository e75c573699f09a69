//! The embedded profiles: each file loads cleanly, versions map to their files, recorded
//! events replay to the scanned tree. The types each version holds are in [`types`].

use super::*;

#[test]
fn the_profile_defining_a_type_is_found_by_section_and_name() {
    assert_eq!(
        tosca2_profile_defining("node_types", "Compute"),
        Some("org.oasis-open.simple:2.0")
    );
    assert_eq!(
        tosca2_profile_defining("node_types", "tosca.nodes.Compute"),
        Some("org.oasis-open.simple:1.3")
    );
    assert_eq!(
        tosca2_profile_defining("capability_types", "Compute"),
        Some("org.oasis-open.simple:2.0")
    );
    assert_eq!(tosca2_profile_defining("node_types", "Banana"), None);
    // A property named like a type is no type.
    assert_eq!(tosca2_profile_defining("node_types", "num_cpus"), None);
}
use crate::diag::Diagnostics;
use crate::limits::Limits;
use crate::source::{Origin, SourceMap};
use crate::yaml::Node;

/// The sections that hold types (`node_types`, ...).
fn kinds() -> [&'static str; 8] {
    crate::model::TypeKind::ALL.map(crate::model::TypeKind::section)
}

const ALL: [(&str, &[ProfileFile]); 4] = [
    ("tosca_simple_yaml_1_0", SIMPLE_1_0),
    ("tosca_simple_yaml_1_1", SIMPLE_1_1),
    ("tosca_simple_yaml_1_2", SIMPLE_1_2),
    ("tosca_simple_yaml_1_3", SIMPLE_1_3),
];

/// Loads one profile file with our YAML loader and asserts that it has no diagnostics.
fn load(file: &ProfileFile) -> Node {
    let mut sources = SourceMap::new();
    let id = sources.add(file.name, Origin::Builtin(file.name.to_string()), file.text);
    let mut diags = Diagnostics::new();
    let root = crate::yaml::load(&sources, id, &Limits::default(), &mut diags);
    let messages: Vec<String> = diags.iter().map(|d| format!("{d:?}")).collect();
    assert!(messages.is_empty(), "{}: {messages:#?}", file.name);
    root.unwrap_or_else(|| panic!("{}: no document", file.name))
}

/// Every embedded file, each once.
fn every_file() -> Vec<&'static ProfileFile> {
    let mut files: Vec<&ProfileFile> = ALL.iter().flat_map(|(_, f)| f.iter()).collect();
    for name in TOSCA2_PROFILE_NAMES {
        files.extend(tosca2_profile(name).unwrap());
    }
    files
}

#[test]
fn recorded_events_give_the_tree_scanning_gives() {
    for file in every_file() {
        let mut sources = SourceMap::new();
        let id = sources.add(file.name, Origin::Builtin(file.name.to_string()), file.text);
        let mut diags = Diagnostics::new();
        let replayed =
            crate::yaml::load_recorded(&sources, id, file.events, &Limits::default(), &mut diags);
        assert!(diags.is_empty(), "{}: {diags:?}", file.name);
        assert_eq!(replayed.as_ref(), Some(&load(file)), "{}", file.name);
    }
}

/// The normative types of a version.
fn version_file(version: &str) -> Node {
    let files = simple_profile(version).unwrap();
    assert_eq!(files.len(), 2);
    load(&files[0])
}

/// The non-normative (Appendix D) types of a version.
fn nonnormative_file(version: &str) -> Node {
    load(&simple_profile(version).unwrap()[1])
}

/// The type `name` in section `kind` (`node_types`, `data_types`, ...), if defined.
fn get_type<'a>(root: &'a Node, kind: &str, name: &str) -> Option<&'a Node> {
    root.as_map()?.get(kind)?.as_map()?.get(name)
}

fn has_type(root: &Node, kind: &str, name: &str) -> bool {
    get_type(root, kind, name).is_some()
}

fn names(root: &Node, kind: &str) -> Vec<String> {
    root.as_map()
        .and_then(|m| m.get(kind))
        .and_then(|n| n.as_map())
        .map(|m| {
            m.entries()
                .iter()
                .map(|e| e.key.as_str().unwrap().to_string())
                .collect()
        })
        .unwrap_or_default()
}

fn str_at<'a>(node: &'a Node, path: &[&str]) -> Option<&'a str> {
    let mut n = node;
    for key in path {
        n = n.as_map()?.get(key)?;
    }
    n.as_str()
}

/// The names of a node type's requirements, in order, and the map of each.
fn requirements(node_type: &Node) -> Vec<(String, Node)> {
    let Some(seq) = node_type.as_map().unwrap().get("requirements") else {
        return Vec::new();
    };
    seq.as_seq()
        .unwrap()
        .iter()
        .map(|r| {
            let entry = &r.as_map().unwrap().entries()[0];
            (entry.key.as_str().unwrap().to_string(), entry.value.clone())
        })
        .collect()
}

/// The entries of a type's map section (`capabilities`, `properties`), if it has one.
fn section<'a>(t: &'a Node, name: &str) -> &'a [crate::yaml::Entry] {
    t.as_map()
        .and_then(|m| m.get(name)?.as_map())
        .map(|m| m.entries())
        .unwrap_or_default()
}

#[test]
fn versions_map_to_their_files() {
    for v in [
        "tosca_simple_yaml_1_0",
        "tosca_simple_yaml_1_0_0",
        "http://docs.oasis-open.org/tosca/ns/simple/yaml/1.0",
        "http://docs.oasis-open.org/tosca/simple/1.0",
        "tosca_simple_profile_for_nfv_1_0_0",
    ] {
        let files = simple_profile(v).unwrap();
        let names: Vec<&str> = files.iter().map(|f| f.name).collect();
        assert_eq!(
            names,
            [
                "simple/tosca_simple_yaml_1_0.yaml",
                "simple/nonnormative_1_0.yaml"
            ],
            "{v}"
        );
    }
    for v in ["1_1", "1_2", "1_3"] {
        let names: Vec<&str> = simple_profile(&format!("tosca_simple_yaml_{v}"))
            .unwrap()
            .iter()
            .map(|f| f.name)
            .collect();
        assert_eq!(
            names,
            [
                format!("simple/tosca_simple_yaml_{v}.yaml"),
                format!("simple/nonnormative_{v}.yaml")
            ]
        );
        assert!(!is_non_normative(&format!(
            "simple/tosca_simple_yaml_{v}.yaml"
        )));
        assert!(is_non_normative(&format!("simple/nonnormative_{v}.yaml")));
    }
    assert!(!is_non_normative("tosca2/simple_2_0.yaml"));
    for v in [
        "tosca_2_0",
        "tosca_simple_yaml_1_4",
        "tosca_variability_1_0",
        "",
    ] {
        assert!(simple_profile(v).is_none(), "{v}");
    }
}

/// Every embedded TOSCA 2.0 profile, imported by its name into a 2.0 file, reads without a
/// single diagnostic under the 2.0 grammar and type rules.
#[test]
fn every_tosca2_profile_reads_cleanly_by_its_name() {
    for name in TOSCA2_PROFILE_NAMES {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.yaml");
        std::fs::write(
            &path,
            format!(
                "tosca_definitions_version: tosca_2_0\nimports:\n  - profile: {name}\n    namespace: p\n"
            ),
        )
        .unwrap();
        let mut diags = Diagnostics::new();
        let read = crate::pipeline::read(
            &crate::pipeline::ReadOptions {
                input: Some(crate::source::InputArg::Path(path)),
                ..Default::default()
            },
            &mut diags,
        );
        let messages: Vec<String> = diags.iter().map(|d| format!("{d:?}")).collect();
        assert!(messages.is_empty(), "{name}: {messages:#?}");
        assert!(read.topology.is_some(), "{name}");
        let files = tosca2_profile(name).unwrap();
        let root = load(&files[0]);
        assert_eq!(str_at(&root, &["profile"]), Some(*name));
        assert_eq!(
            str_at(&root, &["tosca_definitions_version"]),
            Some("tosca_2_0")
        );
    }
}

/// A compatibility profile has exactly the normative types of its Simple Profile version,
/// with the same parents and the same properties, attributes, capabilities and requirements
/// (the rules of its header change how they are written, not what they are), plus the
/// value types 2.0 lacks.
#[test]
fn compatibility_profiles_hold_the_normative_types_of_their_version() {
    for (version, _) in ALL {
        let dotted = version
            .trim_start_matches("tosca_simple_yaml_")
            .replace('_', ".");
        let compat = load(&tosca2_profile(&format!("org.oasis-open.simple:{dotted}")).unwrap()[0]);
        let normative = version_file(version);
        for kind in kinds() {
            let mut expected = names(&normative, kind);
            if kind == "data_types" {
                let mut added = vec![
                    "range".to_string(),
                    "scalar-unit.size".to_string(),
                    "scalar-unit.time".to_string(),
                    "scalar-unit.frequency".to_string(),
                ];
                if version == "tosca_simple_yaml_1_3" {
                    added.push("scalar-unit.bitrate".to_string());
                }
                added.extend(expected);
                expected = added;
            }
            assert_eq!(names(&compat, kind), expected, "{version} {kind}");
            for name in names(&normative, kind) {
                let (old, new) = (
                    get_type(&normative, kind, &name).unwrap(),
                    get_type(&compat, kind, &name).unwrap(),
                );
                assert_eq!(
                    str_at(old, &["derived_from"]),
                    str_at(new, &["derived_from"]),
                    "{version} {name}"
                );
                for sec in ["properties", "attributes", "capabilities"] {
                    let keys = |t: &Node| -> Vec<String> {
                        section(t, sec)
                            .iter()
                            .map(|e| e.key.as_str().unwrap().to_string())
                            .collect()
                    };
                    assert_eq!(keys(old), keys(new), "{version} {name} {sec}");
                }
                let reqs = |t: &Node| -> Vec<String> {
                    requirements(t).into_iter().map(|(n, _)| n).collect()
                };
                assert_eq!(reqs(old), reqs(new), "{version} {name} requirements");
            }
        }
    }
}

#[test]
fn every_file_loads_and_declares_its_own_version() {
    for (version, files) in ALL {
        for file in files {
            let root = load(file);
            assert_eq!(
                str_at(&root, &["tosca_definitions_version"]),
                Some(version),
                "{}",
                file.name
            );
            assert!(file.text.starts_with("tosca_definitions_version: "));
        }
    }
}

#[test]
fn type_counts_per_version() {
    // data, artifact, capability, interface, relationship, node, group, policy
    let expected: [(&str, [usize; 8]); 4] = [
        ("tosca_simple_yaml_1_0", [7, 8, 12, 3, 8, 14, 1, 5]),
        ("tosca_simple_yaml_1_1", [7, 8, 15, 3, 8, 14, 1, 5]),
        ("tosca_simple_yaml_1_2", [9, 8, 15, 3, 8, 16, 1, 5]),
        ("tosca_simple_yaml_1_3", [9, 9, 15, 3, 8, 16, 1, 5]),
    ];
    let kinds = [
        "data_types",
        "artifact_types",
        "capability_types",
        "interface_types",
        "relationship_types",
        "node_types",
        "group_types",
        "policy_types",
    ];
    for (version, counts) in expected {
        let root = version_file(version);
        for (kind, count) in kinds.iter().zip(counts) {
            assert_eq!(names(&root, kind).len(), count, "{version} {kind}");
        }
    }
}

mod types;
