//! The types each embedded version holds, as the specification of that version lists them.

use super::*;

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
