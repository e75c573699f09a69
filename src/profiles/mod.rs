//! Built-in type libraries, embedded at build time.
//!
//! `simple/` holds the normative types of the TOSCA Simple Profile in YAML, one complete file per
//! version (1.0, 1.1, 1.2, 1.3), written from the specification. Each file is an ordinary TOSCA
//! file with types only, whose `tosca_definitions_version` is its own version, so the front end
//! reads it like any other file. A 1.x service template gets the file of its version implicitly.
//!
//! Next to each, `simple/nonnormative_1_x.yaml` holds the non-normative types of the 1.0
//! draft's Appendix D (Docker and VM ISO images, the Docker capability and application, MySQL,
//! Apache, WordPress, Node.js), which the specification's examples and OpenStack tosca-parser's
//! test files use as if they were built in; 1.3's also has what the OASIS 1.3 non-normative
//! library adds (the QCOW2 image and the Docker runtime node). A 1.x template gets them
//! implicitly too, read after the normative file of its version, and their shorthands work like
//! the normative ones (`Container.Docker`).
//!
//! A file that defines a type of the same name itself replaces the built-in definition. For a
//! normative type that is unusual and draws a warning (`tosca::duplicate`). For a non-normative
//! type it is ordinary: these are examples, and real files carry their own (tosca-parser's
//! `custom_types/wordpress.yaml` defines `tosca.nodes.WebApplication.WordPress`, and a 1.3 file
//! may import the OASIS non-normative profile), so the file's definition is used silently
//! ([`is_non_normative`]).
//!
//! `tosca2/` holds the TOSCA 2.0 profiles, which a 2.0 file gets only by importing them by name,
//! as 2.0 has no implicit types (§6.7.2 TOSCA Simple Profile): the TOSCA 2.0 simple profile
//! (`profile: org.oasis-open.simple:2.0`), and the compatibility profiles
//! `org.oasis-open.simple:1.0` to `1.3`, the normative types of each Simple Profile version under
//! their 1.x names (`tosca.nodes.Compute`) written in 2.0 grammar (`tosca2/simple_1_x.yaml`, from
//! `simple/tosca_simple_yaml_1_x.yaml` by the rules in its header). The non-normative Appendix D
//! types are not part of them.

/// One embedded profile file: its name (used as `<builtin>/NAME` in messages), its text, and its
/// YAML events recorded by `build.rs` (replayed instead of scanning the text again:
/// [`crate::yaml::load_recorded`]).
pub struct ProfileFile {
    pub name: &'static str,
    pub text: &'static str,
    pub events: &'static [u8],
}

/// The embedded file `src/profiles/PATH`, with its recorded events.
macro_rules! embedded {
    ($path:expr) => {
        ProfileFile {
            name: $path,
            text: include_str!($path),
            events: include_bytes!(concat!(
                env!("OUT_DIR"),
                "/profile-events/",
                $path,
                ".events"
            )),
        }
    };
}

/// The files of one Simple Profile version `1_x`: its normative types, then its non-normative
/// (Appendix D) types.
macro_rules! simple_files {
    ($v:literal) => {
        &[
            embedded!(concat!("simple/tosca_simple_yaml_", $v, ".yaml")),
            embedded!(concat!("simple/nonnormative_", $v, ".yaml")),
        ]
    };
}

const SIMPLE_1_0: &[ProfileFile] = simple_files!("1_0");
const SIMPLE_1_1: &[ProfileFile] = simple_files!("1_1");
const SIMPLE_1_2: &[ProfileFile] = simple_files!("1_2");
const SIMPLE_1_3: &[ProfileFile] = simple_files!("1_3");

/// Whether the embedded file of this name (`ProfileFile::name`) holds non-normative types,
/// which a user's file may redefine without a warning.
pub fn is_non_normative(name: &str) -> bool {
    [SIMPLE_1_0, SIMPLE_1_1, SIMPLE_1_2, SIMPLE_1_3]
        .iter()
        .any(|files| files[1..].iter().any(|f| f.name == name))
}

/// The TOSCA 2.0 simple profile (`tosca2/simple_2_0.yaml`; its header says where its
/// definitions come from and how they were brought into line with TOSCA 2.0).
const TOSCA2_SIMPLE: &[ProfileFile] = &[embedded!("tosca2/simple_2_0.yaml")];

/// The compatibility profile `org.oasis-open.simple:1.x` of one Simple Profile version: its
/// normative types in TOSCA 2.0 grammar (`tosca2/simple_1_x.yaml`, whose header gives the rules
/// by which it was written from `simple/tosca_simple_yaml_1_x.yaml`).
macro_rules! compatibility_files {
    ($v:literal) => {
        &[embedded!(concat!("tosca2/simple_", $v, ".yaml"))]
    };
}

const TOSCA2_SIMPLE_1_0: &[ProfileFile] = compatibility_files!("1_0");
const TOSCA2_SIMPLE_1_1: &[ProfileFile] = compatibility_files!("1_1");
const TOSCA2_SIMPLE_1_2: &[ProfileFile] = compatibility_files!("1_2");
const TOSCA2_SIMPLE_1_3: &[ProfileFile] = compatibility_files!("1_3");

/// The names of the TOSCA 2.0 profiles toscana embeds.
pub const TOSCA2_PROFILE_NAMES: &[&str] = &[
    "org.oasis-open.simple:2.0",
    "org.oasis-open.simple:1.3",
    "org.oasis-open.simple:1.2",
    "org.oasis-open.simple:1.1",
    "org.oasis-open.simple:1.0",
];

/// The second name of the 2.0 simple profile: `profile: org.oasis-open.tosca.simple:2.0` is how
/// §6.8.3 Examples imports it, while the profile itself declares `org.oasis-open.simple:2.0`.
pub const TOSCA2_SIMPLE_ALIAS: &str = "org.oasis-open.tosca.simple:2.0";

/// The embedded TOSCA 2.0 profile a 2.0 file imports by this name, if toscana ships it. Unlike
/// the Simple Profile's types for 1.x files, a 2.0 file gets it only by importing it (§6.7.2 TOSCA
/// Simple Profile). Besides the 2.0 simple profile, the 1.x normative types are there as the
/// compatibility profiles `org.oasis-open.simple:1.0` to `1.3`, under their 1.x names.
///
/// The 2.0 simple profile also answers to [`TOSCA2_SIMPLE_ALIAS`], the name the specification's
/// own example imports it by (§6.8.3 Examples): a file written from the specification must not
/// fail on the name its text teaches.
pub fn tosca2_profile(name: &str) -> Option<&'static [ProfileFile]> {
    match name {
        "org.oasis-open.simple:2.0" | TOSCA2_SIMPLE_ALIAS => Some(TOSCA2_SIMPLE),
        "org.oasis-open.simple:1.3" => Some(TOSCA2_SIMPLE_1_3),
        "org.oasis-open.simple:1.2" => Some(TOSCA2_SIMPLE_1_2),
        "org.oasis-open.simple:1.1" => Some(TOSCA2_SIMPLE_1_1),
        "org.oasis-open.simple:1.0" => Some(TOSCA2_SIMPLE_1_0),
        _ => None,
    }
}

/// The first embedded TOSCA 2.0 profile (in [`TOSCA2_PROFILE_NAMES`] order) that defines a type
/// `name` under `section` (`node_types`), for the hint of a 2.0 file that names the type without
/// importing the profile. The files are read as text: a section is a line `section:` and its
/// types are the keys indented by two spaces under it, as every embedded profile is written.
pub fn tosca2_profile_defining(section: &str, name: &str) -> Option<&'static str> {
    let header = format!("{section}:");
    TOSCA2_PROFILE_NAMES.iter().copied().find(|profile| {
        tosca2_profile(profile).into_iter().flatten().any(|file| {
            let mut in_section = false;
            file.text.lines().any(|line| {
                if !line.starts_with(' ') && !line.starts_with('#') && !line.is_empty() {
                    in_section = line.trim_end() == header;
                    return false;
                }
                in_section
                    && line
                        .strip_prefix("  ")
                        .filter(|rest| !rest.starts_with(' '))
                        .and_then(|rest| rest.trim_end().strip_suffix(':'))
                        == Some(name)
            })
        })
    })
}

/// The types a Simple Profile file of this `tosca_definitions_version` gets implicitly, normative
/// first, then non-normative; or None if the version is not a Simple Profile one.
pub fn simple_profile(version: &str) -> Option<&'static [ProfileFile]> {
    match version {
        "tosca_simple_yaml_1_0"
        | "tosca_simple_yaml_1_0_0"
        | "http://docs.oasis-open.org/tosca/ns/simple/yaml/1.0"
        | "http://docs.oasis-open.org/tosca/simple/1.0"
        | "tosca_simple_profile_for_nfv_1_0_0" => Some(SIMPLE_1_0),
        "tosca_simple_yaml_1_1" => Some(SIMPLE_1_1),
        "tosca_simple_yaml_1_2" => Some(SIMPLE_1_2),
        "tosca_simple_yaml_1_3" => Some(SIMPLE_1_3),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
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
            let replayed = crate::yaml::load_recorded(
                &sources,
                id,
                file.events,
                &Limits::default(),
                &mut diags,
            );
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
            let compat =
                load(&tosca2_profile(&format!("org.oasis-open.simple:{dotted}")).unwrap()[0]);
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

    #[test]
    fn every_type_reference_resolves_within_its_version() {
        for (version, _) in ALL {
            let normative = version_file(version);
            let nonnormative = nonnormative_file(version);
            let roots = [&normative, &nonnormative];
            let known = |kind: &str, name: &str| roots.iter().any(|r| has_type(r, kind, name));
            let primitive = [
                "string",
                "integer",
                "float",
                "boolean",
                "timestamp",
                "version",
                "range",
                "list",
                "map",
                "scalar-unit.size",
                "scalar-unit.frequency",
                "scalar-unit.time",
            ];
            let data_ok = |name: &str| primitive.contains(&name) || known("data_types", name);
            for kind in kinds() {
                for (root, name) in roots
                    .iter()
                    .flat_map(|r| names(r, kind).into_iter().map(move |n| (*r, n)))
                {
                    let t = get_type(root, kind, &name).unwrap();
                    let map = t.as_map().unwrap();
                    if let Some(parent) = map.get("derived_from").and_then(Node::as_str) {
                        let ok = if kind == "data_types" {
                            data_ok(parent)
                        } else {
                            known(kind, parent)
                        };
                        assert!(ok, "{version}: {name} derives from unknown {parent}");
                    }
                    for section in ["properties", "attributes"] {
                        for entry in map
                            .get(section)
                            .and_then(Node::as_map)
                            .map(|m| m.entries())
                            .unwrap_or_default()
                        {
                            let ty = str_at(&entry.value, &["type"]).unwrap();
                            assert!(data_ok(ty), "{version}: {name}: unknown type {ty}");
                            if let Some(e) = str_at(&entry.value, &["entry_schema", "type"]) {
                                assert!(data_ok(e), "{version}: {name}: unknown type {e}");
                            }
                        }
                    }
                    for entry in map
                        .get("capabilities")
                        .and_then(Node::as_map)
                        .map(|m| m.entries())
                        .unwrap_or_default()
                    {
                        let ty = str_at(&entry.value, &["type"]).unwrap();
                        assert!(known("capability_types", ty), "{version}: {name}: {ty}");
                        for source in entry
                            .value
                            .as_map()
                            .unwrap()
                            .get("valid_source_types")
                            .and_then(Node::as_seq)
                            .unwrap_or_default()
                        {
                            let s = source.as_str().unwrap();
                            assert!(known("node_types", s), "{version}: {name}: {s}");
                        }
                    }
                    for entry in map
                        .get("interfaces")
                        .and_then(Node::as_map)
                        .map(|m| m.entries())
                        .unwrap_or_default()
                    {
                        let ty = str_at(&entry.value, &["type"]).unwrap();
                        assert!(known("interface_types", ty), "{version}: {name}: {ty}");
                    }
                    for target in map
                        .get("valid_target_types")
                        .and_then(Node::as_seq)
                        .unwrap_or_default()
                    {
                        let s = target.as_str().unwrap();
                        assert!(known("capability_types", s), "{version}: {name}: {s}");
                    }
                    if kind == "node_types" {
                        for (req, def) in requirements(t) {
                            let cap = str_at(&def, &["capability"]).unwrap();
                            assert!(known("capability_types", cap), "{version}: {req}: {cap}");
                            if let Some(n) = str_at(&def, &["node"]) {
                                assert!(known("node_types", n), "{version}: {req}: {n}");
                            }
                            if let Some(r) = str_at(&def, &["relationship"]) {
                                assert!(known("relationship_types", r), "{version}: {req}: {r}");
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn compute_has_local_storage_and_its_capabilities_in_every_version() {
        for (version, _) in ALL {
            let root = version_file(version);
            let compute = get_type(&root, "node_types", "tosca.nodes.Compute").unwrap();
            let reqs = requirements(compute);
            assert_eq!(reqs.len(), 1, "{version}");
            assert_eq!(reqs[0].0, "local_storage", "{version}");
            assert_eq!(
                str_at(&reqs[0].1, &["capability"]),
                Some("tosca.capabilities.Attachment")
            );
            assert_eq!(
                str_at(&reqs[0].1, &["relationship"]),
                Some("tosca.relationships.AttachesTo")
            );
            let caps = compute.as_map().unwrap().get("capabilities").unwrap();
            let mut cap_names: Vec<&str> = caps
                .as_map()
                .unwrap()
                .entries()
                .iter()
                .map(|e| e.key.as_str().unwrap())
                .collect();
            cap_names.sort_unstable();
            assert_eq!(
                cap_names,
                ["binding", "endpoint", "host", "os", "scalable"],
                "{version}"
            );
            assert_eq!(
                str_at(caps, &["endpoint", "type"]),
                Some("tosca.capabilities.Endpoint.Admin")
            );
        }
    }

    #[test]
    fn compute_host_and_storage_nodes_follow_the_version() {
        let host = |v: &str| {
            let root = version_file(v);
            str_at(
                &root,
                &[
                    "node_types",
                    "tosca.nodes.Compute",
                    "capabilities",
                    "host",
                    "type",
                ],
            )
            .unwrap()
            .to_string()
        };
        assert_eq!(
            host("tosca_simple_yaml_1_0"),
            "tosca.capabilities.Container"
        );
        assert_eq!(
            host("tosca_simple_yaml_1_1"),
            "tosca.capabilities.Container"
        );
        assert_eq!(host("tosca_simple_yaml_1_2"), "tosca.capabilities.Compute");
        assert_eq!(host("tosca_simple_yaml_1_3"), "tosca.capabilities.Compute");

        let v10 = version_file("tosca_simple_yaml_1_0");
        assert!(has_type(&v10, "node_types", "tosca.nodes.BlockStorage"));
        assert!(has_type(&v10, "node_types", "tosca.nodes.ObjectStorage"));
        assert!(!has_type(
            &v10,
            "node_types",
            "tosca.nodes.Storage.BlockStorage"
        ));
        assert!(!has_type(
            &v10,
            "capability_types",
            "tosca.capabilities.Compute"
        ));
        for v in [
            "tosca_simple_yaml_1_1",
            "tosca_simple_yaml_1_2",
            "tosca_simple_yaml_1_3",
        ] {
            let root = version_file(v);
            assert!(
                !has_type(&root, "node_types", "tosca.nodes.BlockStorage"),
                "{v}"
            );
            assert!(
                !has_type(&root, "node_types", "tosca.nodes.ObjectStorage"),
                "{v}"
            );
            assert!(
                has_type(&root, "node_types", "tosca.nodes.Storage.BlockStorage"),
                "{v}"
            );
            assert!(
                has_type(&root, "node_types", "tosca.nodes.Storage.ObjectStorage"),
                "{v}"
            );
            for cap in ["Compute", "Network", "Storage"] {
                let name = format!("tosca.capabilities.{cap}");
                assert!(has_type(&root, "capability_types", &name), "{v} {name}");
            }
            let compute = get_type(&root, "node_types", "tosca.nodes.Compute").unwrap();
            assert_eq!(
                str_at(&requirements(compute)[0].1, &["node"]),
                Some("tosca.nodes.Storage.BlockStorage"),
                "{v}"
            );
        }
    }

    #[test]
    fn types_appear_only_from_their_version_on() {
        // (kind, name, first version that has it)
        let cases = [
            ("data_types", "tosca.datatypes.Root", 0),
            ("data_types", "tosca.datatypes.TimeInterval", 0),
            ("data_types", "tosca.datatypes.network.PortDef", 0),
            ("interface_types", "tosca.interfaces.Root", 0),
            ("group_types", "tosca.groups.Root", 0),
            ("policy_types", "tosca.policies.Placement", 0),
            ("node_types", "tosca.nodes.Container.Runtime", 0),
            ("node_types", "tosca.nodes.LoadBalancer", 0),
            ("capability_types", "tosca.capabilities.Compute", 1),
            ("capability_types", "tosca.capabilities.Storage", 1),
            ("node_types", "tosca.nodes.Storage.BlockStorage", 1),
            ("data_types", "tosca.datatypes.json", 2),
            ("data_types", "tosca.datatypes.xml", 2),
            ("node_types", "tosca.nodes.Abstract.Compute", 2),
            ("node_types", "tosca.nodes.Abstract.Storage", 2),
            ("artifact_types", "tosca.artifacts.template", 3),
        ];
        for (i, (version, _)) in ALL.iter().enumerate() {
            let root = version_file(version);
            for (kind, name, since) in cases {
                assert_eq!(has_type(&root, kind, name), i >= since, "{version} {name}");
            }
            // The non-normative Appendix D types are in their own file, not the normative one.
            assert!(!has_type(&root, "node_types", "tosca.nodes.Database.MySQL"));
            assert!(!has_type(
                &root,
                "capability_types",
                "tosca.capabilities.Container.Docker"
            ));
        }
    }

    const APPENDIX_D: [(&str, &str); 10] = [
        (
            "artifact_types",
            "tosca.artifacts.Deployment.Image.Container.Docker",
        ),
        ("artifact_types", "tosca.artifacts.Deployment.Image.VM.ISO"),
        ("capability_types", "tosca.capabilities.Container.Docker"),
        ("node_types", "tosca.nodes.Database.MySQL"),
        ("node_types", "tosca.nodes.DBMS.MySQL"),
        ("node_types", "tosca.nodes.WebServer.Apache"),
        ("node_types", "tosca.nodes.WebApplication.WordPress"),
        ("node_types", "tosca.nodes.WebServer.Nodejs"),
        ("node_types", "tosca.nodes.Container.Application.Docker"),
        ("node_types", "tosca.nodes.Container.Runtime.Docker"),
    ];

    #[test]
    fn every_version_has_the_non_normative_types_and_nothing_else() {
        for (version, _) in ALL {
            let root = nonnormative_file(version);
            let v13 = version == "tosca_simple_yaml_1_3";
            for (kind, name) in &APPENDIX_D[..9] {
                assert!(has_type(&root, kind, name), "{version} {name}");
            }
            // The OASIS 1.3 non-normative library adds these two.
            assert_eq!(
                has_type(&root, APPENDIX_D[9].0, APPENDIX_D[9].1),
                v13,
                "{version}"
            );
            assert_eq!(
                has_type(
                    &root,
                    "artifact_types",
                    "tosca.artifacts.Deployment.Image.VM.QCOW2"
                ),
                v13,
                "{version}"
            );
            let all: usize = kinds().iter().map(|k| names(&root, k).len()).sum();
            assert_eq!(all, if v13 { 11 } else { 9 }, "{version}");
            // No name is defined in both files of a version.
            let normative = version_file(version);
            for (kind, name) in APPENDIX_D {
                assert!(!has_type(&normative, kind, name), "{version} {name}");
            }
        }
    }

    /// The entries of a type's map section (`capabilities`, `properties`), if it has one.
    fn section<'a>(t: &'a Node, name: &str) -> &'a [crate::yaml::Entry] {
        t.as_map()
            .and_then(|m| m.get(name)?.as_map())
            .map(|m| m.entries())
            .unwrap_or_default()
    }

    /// `name` (a capability type) is `ancestor` or derives from it, within one version.
    fn capability_derives(roots: &[&Node], name: &str, ancestor: &str) -> bool {
        let mut current = Some(name.to_string());
        while let Some(n) = current {
            if n == ancestor {
                return true;
            }
            current = roots
                .iter()
                .find_map(|r| get_type(r, "capability_types", &n))
                .and_then(|t| str_at(t, &["derived_from"]))
                .map(str::to_string);
        }
        false
    }

    /// The definition of capability or requirement `name` nearest above `node_type` (excluded).
    fn inherited(roots: &[&Node], node_type: &str, section: &str, name: &str) -> Option<Node> {
        let mut current = roots
            .iter()
            .find_map(|r| get_type(r, "node_types", node_type))
            .and_then(|t| str_at(t, &["derived_from"]))
            .map(str::to_string);
        while let Some(n) = current {
            let t = roots.iter().find_map(|r| get_type(r, "node_types", &n))?;
            let found = if section == "requirements" {
                requirements(t)
                    .into_iter()
                    .find(|(r, _)| r == name)
                    .map(|(_, d)| d)
            } else {
                t.as_map()
                    .unwrap()
                    .get(section)
                    .and_then(|c| c.as_map()?.get(name).cloned())
            };
            if found.is_some() {
                return found;
            }
            current = str_at(t, &["derived_from"]).map(str::to_string);
        }
        None
    }

    #[test]
    fn non_normative_refinements_narrow_what_they_inherit() {
        for (version, _) in ALL {
            let normative = version_file(version);
            let nonnormative = nonnormative_file(version);
            let roots = [&normative, &nonnormative];
            for name in names(&nonnormative, "node_types") {
                let t = get_type(&nonnormative, "node_types", &name).unwrap();
                for entry in section(t, "capabilities") {
                    let cap = entry.key.as_str().unwrap();
                    let Some(parent) = inherited(&roots, &name, "capabilities", cap) else {
                        continue;
                    };
                    let (mine, theirs) = (
                        str_at(&entry.value, &["type"]).unwrap(),
                        str_at(&parent, &["type"]).unwrap(),
                    );
                    assert!(
                        capability_derives(&roots, mine, theirs),
                        "{version}: {name}.{cap}: {mine} does not derive from {theirs}"
                    );
                }
                for (req, def) in requirements(t) {
                    let Some(parent) = inherited(&roots, &name, "requirements", &req) else {
                        continue;
                    };
                    let (mine, theirs) = (
                        str_at(&def, &["capability"]).unwrap(),
                        str_at(&parent, &["capability"]).unwrap(),
                    );
                    assert!(
                        capability_derives(&roots, mine, theirs),
                        "{version}: {name}.{req}: {mine} does not derive from {theirs}"
                    );
                    // A refinement restates the relationship, as the requirement lookup reads
                    // the nearest definition only.
                    assert_eq!(
                        str_at(&def, &["relationship"]),
                        str_at(&parent, &["relationship"]),
                        "{version}: {name}.{req}"
                    );
                }
                // Every refined property keeps its inherited type.
                for entry in section(t, "properties") {
                    let prop = entry.key.as_str().unwrap();
                    if let Some(parent) = inherited(&roots, &name, "properties", prop) {
                        assert_eq!(
                            str_at(&entry.value, &["type"]),
                            str_at(&parent, &["type"]),
                            "{version}: {name}.{prop}"
                        );
                    }
                }
            }
            // The Docker capability is a hosting capability of the version.
            let host = str_at(
                &normative,
                &[
                    "node_types",
                    "tosca.nodes.Container.Runtime",
                    "capabilities",
                    "host",
                    "type",
                ],
            )
            .unwrap();
            assert!(
                capability_derives(&roots, "tosca.capabilities.Container.Docker", host),
                "{version}"
            );
        }
    }

    #[test]
    fn interface_operations_nest_under_operations_only_in_1_3() {
        for (version, _) in ALL {
            let root = version_file(version);
            let standard = get_type(
                &root,
                "interface_types",
                "tosca.interfaces.node.lifecycle.Standard",
            )
            .unwrap();
            let configure = get_type(
                &root,
                "interface_types",
                "tosca.interfaces.relationship.Configure",
            )
            .unwrap();
            let (ops_std, ops_cfg) = if version == "tosca_simple_yaml_1_3" {
                (
                    standard.as_map().unwrap().get("operations").unwrap(),
                    configure.as_map().unwrap().get("operations").unwrap(),
                )
            } else {
                assert!(!standard.as_map().unwrap().contains_key("operations"));
                (standard, configure)
            };
            for op in ["create", "configure", "start", "stop", "delete"] {
                assert!(ops_std.as_map().unwrap().contains_key(op), "{version} {op}");
            }
            for op in [
                "pre_configure_source",
                "pre_configure_target",
                "post_configure_source",
                "post_configure_target",
                "add_target",
                "add_source",
                "target_changed",
                "remove_target",
            ] {
                assert!(ops_cfg.as_map().unwrap().contains_key(op), "{version} {op}");
            }
            let group_has_interfaces = get_type(&root, "group_types", "tosca.groups.Root")
                .unwrap()
                .as_map()
                .unwrap()
                .contains_key("interfaces");
            assert_eq!(group_has_interfaces, version != "tosca_simple_yaml_1_3");
        }
    }

    #[test]
    fn spec_facts_of_1_0() {
        let root = version_file("tosca_simple_yaml_1_0");
        let p = |path: &[&str]| {
            let mut full = vec!["data_types"];
            full.extend_from_slice(path);
            str_at(&root, &full).map(str::to_string)
        };
        assert_eq!(
            p(&["tosca.datatypes.network.PortDef", "derived_from"]).as_deref(),
            Some("integer")
        );
        assert_eq!(
            p(&[
                "tosca.datatypes.network.PortSpec",
                "properties",
                "target",
                "type"
            ])
            .as_deref(),
            Some("tosca.datatypes.network.PortDef")
        );
        assert_eq!(
            p(&[
                "tosca.datatypes.Credential",
                "properties",
                "token_type",
                "default"
            ])
            .as_deref(),
            Some("password")
        );
        let root_node = get_type(&root, "node_types", "tosca.nodes.Root").unwrap();
        let reqs = requirements(root_node);
        assert_eq!(reqs[0].0, "dependency");
        let occ = reqs[0].1.as_map().unwrap().get("occurrences").unwrap();
        let occ: Vec<&str> = occ
            .as_seq()
            .unwrap()
            .iter()
            .map(|n| n.scalar_text().unwrap())
            .collect();
        assert_eq!(occ, ["0", "UNBOUNDED"]);
        let app = get_type(&root, "node_types", "tosca.nodes.Container.Application").unwrap();
        assert_eq!(
            str_at(&requirements(app)[0].1, &["node"]),
            Some("tosca.nodes.Container.Runtime")
        );
        assert_eq!(requirements(app).len(), 1);
        assert_eq!(
            str_at(
                &root,
                &[
                    "artifact_types",
                    "tosca.artifacts.Implementation.Bash",
                    "mime_type"
                ]
            ),
            Some("application/x-sh")
        );
        let port = get_type(&root, "node_types", "tosca.nodes.network.Port").unwrap();
        let names: Vec<String> = requirements(port).into_iter().map(|(n, _)| n).collect();
        assert_eq!(names, ["link", "binding"]);
    }
}
