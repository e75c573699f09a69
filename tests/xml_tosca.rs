//! TOSCA 1.0 XML end to end: a CSAR assembled from the real Winery files translates with every
//! backend, and converting each accepted XML file to YAML (Simple Profile 1.3 or TOSCA 2.0)
//! gives a template that `check` accepts and that resolves to the same IR, apart from where
//! things were written (and, for 2.0, what its grammar forces).
//!
//! Locally a missing `../shared/corpus` skips with a notice; under `CI=true` it is a failure.

use std::io::Write as _;
use std::path::{Path, PathBuf};

mod common;

use common::{corpus_root, toscana};
use toscana::quirk::{Quirk, Quirks};

const TOSCA_NS: &str = "http://docs.oasis-open.org/tosca/ns/2011/12";

fn real() -> Option<PathBuf> {
    common::corpus_present("xml-real", "TOSCA 1.0 XML tests")
        .then(|| corpus_root().join("xml-real"))
}

/// The real Definitions files, sorted.
fn definitions(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "tosca"))
        .collect();
    v.sort();
    v
}

/// The entry of the assembled CSAR: a service template of its own (a container, a server and
/// a baobab tree connected to it) over types from the real files, which it imports one and
/// all.
/// Its own types derive from the normative types as Winery writes them in XML.
const APP: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<Definitions xmlns="http://docs.oasis-open.org/tosca/ns/2011/12"
    xmlns:sn="http://docs.oasis-open.org/tosca/ns/simple/yaml/1.0/nodetypes"
    xmlns:base="http://docs.oasis-open.org/tosca/ns/2011/12/ToscaBaseTypes"
    xmlns:fruits="http://winery.opentosca.org/test/nodetypes/fruits"
    xmlns:app="http://example.com/tosca/app"
    id="app" name="Fruit shop" targetNamespace="http://example.com/tosca/app">
<!--IMPORTS-->
  <NodeType name="Shop">
    <documentation>The shop front, a container.</documentation>
    <DerivedFrom typeRef="sn:Container.Application"/>
  </NodeType>
  <NodeType name="Server">
    <DerivedFrom typeRef="sn:Compute"/>
  </NodeType>
  <ServiceTemplate id="fruit_shop" name="Fruit shop">
    <TopologyTemplate>
      <NodeTemplate id="shop" type="app:Shop" minInstances="2" maxInstances="unbounded"/>
      <NodeTemplate id="server" type="app:Server"/>
      <NodeTemplate id="baobab" type="fruits:baobab">
        <Properties>
          <BaobabProperties xmlns="http://winery.opentosca.org/test/nodetypes/fruits">
            <Antioxidants>high</Antioxidants>
            <VitaminC>0.5</VitaminC>
            <Superfood>true</Superfood>
          </BaobabProperties>
        </Properties>
      </NodeTemplate>
      <RelationshipTemplate id="baobab_to_server" type="base:ConnectsTo">
        <SourceElement ref="baobab"/>
        <TargetElement ref="server"/>
      </RelationshipTemplate>
    </TopologyTemplate>
  </ServiceTemplate>
</Definitions>
"#;

/// A CSAR of every real Definitions file, imported by [`APP`], the XSDs under the names their
/// imports use, the files their artifact templates reference, and a TOSCA.meta in the
/// XML-era spelling (TOSCA-Meta-Version, CSAR-Version 1.0, a Name/Content-Type block).
fn assemble_csar(dir: &Path, out: &Path) -> PathBuf {
    let files = definitions(dir);
    let mut imports = String::new();
    for f in &files {
        let name = f.file_name().unwrap().to_string_lossy();
        imports.push_str(&format!(
            "  <Import importType=\"{TOSCA_NS}\" location=\"{name}\"/>\n"
        ));
    }
    let entry_text = APP.replace("<!--IMPORTS-->\n", &imports);
    let entry_name = "Definitions/app.tosca".to_string();
    let path = out.join("winery.csar");
    let mut zip = zip::ZipWriter::new(std::fs::File::create(&path).unwrap());
    let options = zip::write::SimpleFileOptions::default();
    let meta = format!(
        "TOSCA-Meta-Version: 1.0\nCSAR-Version: 1.0\nCreated-By: toscana tests\nEntry-Definitions: {entry_name}\n\nName: {entry_name}\nContent-Type: application/vnd.oasis.tosca.definitions\n"
    );
    zip.start_file("TOSCA-Metadata/TOSCA.meta", options)
        .unwrap();
    zip.write_all(meta.as_bytes()).unwrap();
    zip.start_file(&entry_name, options).unwrap();
    zip.write_all(entry_text.as_bytes()).unwrap();
    for f in &files {
        zip.start_file(
            format!("Definitions/{}", f.file_name().unwrap().to_string_lossy()),
            options,
        )
        .unwrap();
        zip.write_all(&std::fs::read(f).unwrap()).unwrap();
    }
    for xsd in std::fs::read_dir(dir)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
    {
        let name = xsd.file_name().unwrap().to_string_lossy().into_owned();
        if let Some((_, original)) = name.split_once("-imports-")
            && original.ends_with(".xsd")
        {
            zip.start_file(format!("Definitions/{original}"), options)
                .unwrap();
            zip.write_all(&std::fs::read(&xsd).unwrap()).unwrap();
        }
    }
    // The files the artifact templates reference, relative to the CSAR root.
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        for part in text.split("ArtifactReference reference=\"").skip(1) {
            let reference = part.split('"').next().unwrap();
            zip.start_file(reference, options).unwrap();
            zip.write_all(b"#!/bin/sh\n").unwrap();
        }
    }
    zip.finish().unwrap();
    path
}

#[test]
fn a_csar_of_the_real_files_translates_with_every_backend() {
    let Some(dir) = real() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let csar = assemble_csar(&dir, tmp.path());
    let out = toscana()
        .args(["ir", "-q", "--quirk", "winery"])
        .arg(&csar)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", common::stderr(&out));
    let ir: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(ir["source"]["dialect"], "xml");
    assert_eq!(ir["source"]["csar"]["CSAR-Version"], "1.0");
    let nodes = ir["nodes"].as_array().unwrap();
    let node = |name: &str| nodes.iter().find(|n| n["name"] == name).unwrap().clone();
    // Types come from the imported real documents, not from trust, and reach the normative
    // types where Winery's Simple Profile namespaces are used.
    assert_eq!(
        node("baobab")["types"],
        serde_json::json!([
            "{http://winery.opentosca.org/test/nodetypes/fruits}baobab",
            "tosca.nodes.Root"
        ])
    );
    assert_eq!(node("server")["types"][1], "tosca.nodes.Compute");
    // Winery key/value properties typed by r026's definition (decimal, boolean).
    assert_eq!(
        node("baobab")["properties"],
        serde_json::json!({
            "Antioxidants": {"kind": "string", "value": "high"},
            "VitaminC": {"kind": "float", "value": 0.5},
            "Superfood": {"kind": "boolean", "value": true}
        })
    );
    assert_eq!(
        node("shop")["instances"],
        serde_json::json!({"min": 2, "max": null})
    );
    let rel = &ir["relationships"][0];
    assert_eq!(rel["name"], "baobab_to_server");
    // ConnectsTo admits endpoints: the server's `endpoint`, not the `feature` that
    // `dependency` names.
    assert_eq!(rel["capability"], "endpoint");
    assert_eq!(
        rel["types"],
        serde_json::json!([
            "{http://docs.oasis-open.org/tosca/ns/2011/12/ToscaBaseTypes}ConnectsTo",
            "tosca.relationships.ConnectsTo",
            "tosca.relationships.Root"
        ])
    );
    assert_eq!(
        nodes[rel["target"].as_u64().unwrap() as usize]["name"],
        "server"
    );
    for (command, extra) in [
        ("k8s", vec![]),
        ("tf", vec![]),
        ("dot", vec!["--format", "dot"]),
    ] {
        // A trailing `/`: a folder, whether the command writes one file or several.
        let target = tmp.path().join(format!("{command}/"));
        let out = toscana()
            .args([command, "-q", "--quirk", "winery"])
            .args(&extra)
            .arg(&csar)
            .arg("-o")
            .arg(&target)
            .output()
            .unwrap();
        assert!(out.status.success(), "{command}: {}", common::stderr(&out));
        let written = std::fs::read_dir(&target).map(|d| d.count()).unwrap_or(0);
        assert!(written > 0, "{command} wrote nothing");
    }
    let read = |dir: &str| -> String {
        let mut all = String::new();
        for f in std::fs::read_dir(tmp.path().join(dir)).unwrap() {
            all.push_str(&std::fs::read_to_string(f.unwrap().path()).unwrap());
        }
        all
    };
    assert!(read("k8s").contains("kind: Deployment"));
    assert!(read("tf").contains("resource \"aws_instance\" \"server\""));
    let dot = read("dot");
    assert!(dot.contains("baobab") && dot.contains("server"), "{dot}");
}

/// The IR without what legitimately differs between XML and its YAML conversion: where each
/// thing was written, which files were read, and so the paths of artifact files (the YAML is
/// saved elsewhere).
fn comparable(mut ir: serde_json::Value) -> serde_json::Value {
    fn strip(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Object(m) => {
                m.remove("location");
                if m.contains_key("file") && m.contains_key("path") {
                    m.remove("file");
                    m.remove("path");
                }
                for (_, x) in m.iter_mut() {
                    strip(x);
                }
            }
            serde_json::Value::Array(a) => a.iter_mut().for_each(strip),
            _ => {}
        }
    }
    ir.as_object_mut().unwrap().remove("source");
    strip(&mut ir);
    ir
}

fn ir_of(path: &Path, quirks: &[Quirk]) -> Option<serde_json::Value> {
    let (read, diags) = read_xml(path, quirks);
    if diags.has_errors() {
        let shown: Vec<String> = diags
            .finish()
            .iter()
            .filter(|d| d.is_error())
            .map(|d| d.message.clone())
            .collect();
        panic!("{}: {}", path.display(), shown.join("\n"));
    }
    read.topology.map(|t| serde_json::to_value(&t).unwrap())
}

fn read_xml(
    path: &Path,
    quirks: &[Quirk],
) -> (toscana::pipeline::Read, toscana::diag::Diagnostics) {
    let mut diags = toscana::diag::Diagnostics::with_cap(0);
    let read = toscana::pipeline::read(
        &toscana::pipeline::ReadOptions {
            input: Some(toscana::source::InputArg::Path(path.to_path_buf())),
            quirks: Quirks::new(quirks),
            ..Default::default()
        },
        &mut diags,
    );
    (read, diags)
}

/// Whether `path` reads (with `--quirk winery`) without errors.
fn accepted(path: &Path) -> bool {
    let (read, diags) = read_xml(path, &[Quirk::Winery]);
    read.topology.is_some() && !diags.has_errors()
}

/// The repository's own XML inputs: each golden whose input holds TOSCA 1.0 XML (a
/// Definitions file or a CSAR folder).
fn repository_inputs() -> Vec<PathBuf> {
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("golden");
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(&golden)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path().join("input"))
        .filter(|input| holds_xml(input))
        .collect();
    inputs.sort();
    assert!(
        !inputs.is_empty(),
        "no XML golden under {}",
        golden.display()
    );
    inputs
}

/// Whether `path`, a file or a folder, is or holds a `.tosca` or `.xml` file.
fn holds_xml(path: &Path) -> bool {
    if path.is_dir() {
        return std::fs::read_dir(path)
            .into_iter()
            .flatten()
            .filter_map(Result::ok)
            .any(|e| holds_xml(&e.path()));
    }
    path.extension().is_some_and(|e| e == "tosca" || e == "xml")
}

/// Every accepted XML input of the corpora: the real Definitions files and a CSAR of them
/// (with `--quirk winery`), and each spec example, as fixed to be well-formed, that is valid
/// (the others are fragments or break the spec's own rules).
fn accepted_inputs(dir: &Path, tmp: &Path) -> Vec<PathBuf> {
    let mut inputs: Vec<PathBuf> = definitions(dir)
        .into_iter()
        .filter(|p| !p.to_string_lossy().contains("-imports-"))
        .collect();
    inputs.push(assemble_csar(dir, tmp));
    let examples = corpus_root().join("spec-examples/xml-1.0/fixed");
    let mut valid_examples: Vec<PathBuf> = std::fs::read_dir(&examples)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "xml") && accepted(p))
        .collect();
    valid_examples.sort();
    // ex-019 to ex-041, every other one: the complete service templates of the final draft.
    assert!(valid_examples.len() >= 9, "{valid_examples:?}");
    inputs.extend(valid_examples);
    assert!(inputs.len() > 40);
    inputs
}

/// The IRs of the XML and of what it converts to, before their comparison: `(xml, yaml)` as
/// they must be equal.
type Expected =
    dyn Fn(serde_json::Value, serde_json::Value) -> (serde_json::Value, serde_json::Value);

/// Converts `path` to `target` (with `--quirk winery`) into `yaml`, checks the result, and
/// compares its IR with the XML's after `expected`. Returns what `convert` wrote to standard
/// output and to standard error.
fn converts_to_the_same_ir(
    path: &Path,
    target: &str,
    yaml: &Path,
    expected: &Expected,
) -> (String, String) {
    let xml = ir_of(path, &[Quirk::Winery]).expect("the XML reads");
    let out = toscana()
        .args(["convert", "--quirk", "winery", "--to", target])
        .arg(path)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}: {}",
        path.display(),
        common::stderr(&out)
    );
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        text.starts_with(&format!("tosca_definitions_version: {target}\n")),
        "{}: {text}",
        path.display()
    );
    std::fs::write(yaml, &out.stdout).unwrap();
    let check = toscana().args(["check", "-q"]).arg(yaml).output().unwrap();
    assert!(
        check.status.success(),
        "{} converted does not pass check: {}\n{text}",
        path.display(),
        common::stderr(&check),
    );
    let back = ir_of(yaml, &[]).expect("the YAML reads");
    let (xml, back) = expected(comparable(xml), comparable(back));
    assert!(
        xml == back,
        "{}: the IR of the YAML differs: {}",
        path.display(),
        first_difference(&xml, &back, String::new())
    );
    (text, common::stderr(&out))
}

/// Where `a` and `b` first differ, as a JSON pointer with both values there.
fn first_difference(a: &serde_json::Value, b: &serde_json::Value, at: String) -> String {
    use serde_json::Value;
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for key in x.keys().chain(y.keys()) {
                if x.get(key) != y.get(key) {
                    let (p, q) = (&x.get(key), &y.get(key));
                    return match (p, q) {
                        (Some(p), Some(q)) => first_difference(p, q, format!("{at}/{key}")),
                        _ => format!("{at}/{key}: XML {p:?}, YAML {q:?}"),
                    };
                }
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                if p != q {
                    return first_difference(p, q, format!("{at}/{i}"));
                }
            }
        }
        _ => {}
    }
    format!("{at}: XML {a}, YAML {b}")
}

/// [`converts_to_the_same_ir`] for each accepted input: the repository's, and the corpora's
/// when they are there.
fn each_conversion_gives_the_same_ir(target: &str, expected: &Expected) {
    let tmp = tempfile::tempdir().unwrap();
    let mut inputs = repository_inputs();
    if let Some(dir) = real() {
        inputs.extend(accepted_inputs(&dir, tmp.path()));
    }
    for (i, path) in inputs.iter().enumerate() {
        let yaml = tmp.path().join(format!("converted-{i}.yaml"));
        converts_to_the_same_ir(path, target, &yaml, expected);
    }
}

#[test]
fn converting_each_accepted_file_to_yaml_gives_the_same_ir() {
    each_conversion_gives_the_same_ir("tosca_simple_yaml_1_3", &|xml, yaml| (xml, yaml));
}

/// TOSCA 2.0 output means the same as the XML, with the differences that "Converting to TOSCA
/// 2.0" in docs/dialects/tosca-xml.md documents and nothing else:
/// - type names: `:` is reserved in 2.0, so the XML's names are written with `%3A` (and `%`
///   as `%25`); decoded here in the fields that hold type names (`type`, `types`, `node_type`);
/// - a property of the substituted node mapped onto a node template's property `[node, q]` is
///   mapped to an input of its own name, which `q` takes with `$get_input` (2.0 maps
///   properties to inputs only): that input (the template's value its default, else not
///   required), the mapping to its name, and `q`'s value, an unbound `get_input` where the
///   XML left it unset;
/// - a mapped property that the substituted node type does not define (XML maps the service
///   template's own properties) keeps its input but not its mapping, which 2.0 allows only for
///   properties of the node type (§15.2 Property Mapping); `convert` says so with a warning;
/// - a relationship of requirement `dependency` (how a relationship between two nodes is read)
///   is judged against `tosca.relationships.Root`, which the 2.0 file's `tosca.nodes.Root`
///   names for `dependency` (TOSCA 2.0 requires a relationship template's type to derive from
///   its definition's): its `default_type` is true only for that type;
/// - a requirement with a lower bound above 0 that a node template leaves unassigned gets an
///   implicit assignment in 2.0 (§8.5.4 Requirement Count), which is fulfilled where a template
///   fits; the XML, read as 1.3, leaves it open: those entries and their relationships are left out
///   here.
/// - a requirement of the substituted node mapped onto an inner requirement that a relationship
///   template of the topology connects (which XML allows) is not mapped: 2.0 maps a
///   requirement only onto a dangling one (§15.5.4 Requirement Mapping Rules), so `convert`
///   leaves the mapping out with a warning.
#[test]
fn converting_each_accepted_file_to_tosca_2_0_gives_the_same_ir() {
    each_conversion_gives_the_same_ir("tosca_2_0", &as_in_tosca_2_0);
}

/// The IRs as the documented differences of TOSCA 2.0 output make them equal (see
/// [`converting_each_accepted_file_to_tosca_2_0_gives_the_same_ir`]).
fn as_in_tosca_2_0(
    mut xml: serde_json::Value,
    mut yaml: serde_json::Value,
) -> (serde_json::Value, serde_json::Value) {
    decode_type_names(&mut yaml);
    without_implicit_requirements(&mut yaml);
    without_mappings_onto_connected_requirements(&mut xml);
    for rel in xml["relationships"].as_array_mut().into_iter().flatten() {
        if rel["requirement"] == "dependency" {
            rel["default_type"] = (rel["type"] == "tosca.relationships.Root").into();
        }
    }
    let Some(mapped) = xml
        .pointer("/substitution/properties")
        .and_then(|p| p.as_object())
        .cloned()
    else {
        return (xml, yaml);
    };
    for (name, target) in mapped {
        let Some([node, property]) = target
            .pointer("/value")
            .and_then(|v| v.as_array())
            .map(|a| a.as_slice())
        else {
            continue;
        };
        let (node, property) = (
            node["value"].as_str().unwrap().to_string(),
            property["value"].as_str().unwrap().to_string(),
        );
        xml["substitution"]["properties"][&name] =
            serde_json::json!({"kind": "string", "value": name});
        // A property the substituted node type does not define is not mapped in 2.0; the
        // input still gives the node template its value.
        if yaml["substitution"]["properties"].get(&name).is_none() {
            let properties = xml["substitution"]["properties"].as_object_mut().unwrap();
            properties.remove(&name);
        }
        let nodes = xml["nodes"].as_array_mut().unwrap();
        let n = nodes
            .iter_mut()
            .find(|n| n["name"] == node.as_str())
            .unwrap();
        let value = n["properties"].get(&property).cloned();
        if value.is_none() {
            n["properties"][&property] = serde_json::json!({
                "kind": "call",
                "value": {"function": "get_input", "args": [{"kind": "string", "value": name}]}
            });
            n["assigned"]
                .as_array_mut()
                .unwrap()
                .push(property.clone().into());
        }
        let converted = yaml["inputs"]
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["name"] == name.as_str())
            .unwrap_or_else(|| panic!("no input `{name}` for the mapped property"));
        xml["inputs"]
            .as_array_mut()
            .unwrap()
            .push(serde_json::json!({
                "name": name,
                "type": converted["type"],
                "description": null,
                "required": value.is_some(),
                "default": value,
                "value": null,
                "constraints": [],
                "validation": null,
                "metadata": {},
                "sensitive": false,
            }));
    }
    (xml, yaml)
}

/// The IR without the implicit requirement assignments of TOSCA 2.0 and the relationships
/// that fulfil them, the other relationships renumbered.
fn without_implicit_requirements(ir: &mut serde_json::Value) {
    let mut dropped: Vec<u64> = Vec::new();
    for node in ir["nodes"].as_array_mut().into_iter().flatten() {
        let requirements = node["requirements"].as_array_mut().unwrap();
        requirements.retain(|r| {
            let implicit = r["implicit"] == true;
            if implicit && let Some(id) = r["relationship"].as_u64() {
                dropped.push(id);
            }
            !implicit
        });
    }
    if dropped.is_empty() {
        return;
    }
    let kept = |id: u64| id - dropped.iter().filter(|&&d| d < id).count() as u64;
    for node in ir["nodes"].as_array_mut().into_iter().flatten() {
        for r in node["requirements"].as_array_mut().into_iter().flatten() {
            if let Some(id) = r["relationship"].as_u64() {
                r["relationship"] = kept(id).into();
            }
        }
    }
    let relationships = ir["relationships"].as_array_mut().unwrap();
    let mut index = 0;
    relationships.retain(|_| {
        index += 1;
        !dropped.contains(&(index - 1))
    });
}

/// The IR without the substitution's requirement mappings onto inner requirements that every
/// assignment connects.
fn without_mappings_onto_connected_requirements(ir: &mut serde_json::Value) {
    let nodes = ir["nodes"].clone();
    let Some(mappings) = ir
        .pointer_mut("/substitution/requirements")
        .and_then(|r| r.as_array_mut())
    else {
        return;
    };
    mappings.retain(|m| {
        let node = &nodes[m["node"].as_u64().unwrap() as usize];
        let assigned: Vec<&serde_json::Value> = node["requirements"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["name"] == m["target"])
            .collect();
        assigned.is_empty() || assigned.iter().any(|r| r["relationship"].is_null())
    });
}

/// Type names as the XML names them: `%3A` back to `:` (and `%25` to `%`).
fn decode_type_names(v: &mut serde_json::Value) {
    let decode = |s: &str| s.replace("%3A", ":").replace("%25", "%");
    match v {
        serde_json::Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                match (k.as_str(), x) {
                    ("type" | "node_type", serde_json::Value::String(s)) => *s = decode(s),
                    ("types", serde_json::Value::Array(a)) => {
                        for t in a.iter_mut() {
                            if let serde_json::Value::String(s) = t {
                                *s = decode(s);
                            }
                        }
                    }
                    (_, x) => decode_type_names(x),
                }
            }
        }
        serde_json::Value::Array(a) => a.iter_mut().for_each(decode_type_names),
        _ => {}
    }
}

#[test]
fn conversion_is_byte_identical_across_runs() {
    let Some(dir) = real() else { return };
    let file = definitions(&dir)
        .into_iter()
        .find(|p| p.to_string_lossy().contains("r001"))
        .unwrap();
    let run = || {
        toscana()
            .args(["convert", "-q", "--quirk", "winery"])
            .arg(&file)
            .output()
            .unwrap()
            .stdout
    };
    let first = run();
    assert!(!first.is_empty());
    assert_eq!(first, run());
}

/// What the corpora do not have: XSD facets, a value that starts with `$`, capability bounds,
/// a relationship type whose valid source and target are node types.
const FACETS: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<Definitions xmlns="http://docs.oasis-open.org/tosca/ns/2011/12"
    xmlns:xs="http://www.w3.org/2001/XMLSchema"
    xmlns:t="http://example.com/facets"
    id="facets" targetNamespace="http://example.com/facets">
  <Types>
    <xs:schema targetNamespace="http://example.com/facets" elementFormDefault="qualified">
      <xs:element name="AppProperties">
        <xs:complexType>
          <xs:sequence>
            <xs:element name="tier">
              <xs:simpleType>
                <xs:restriction base="xs:string">
                  <xs:enumeration value="gold"/>
                  <xs:enumeration value="silver"/>
                </xs:restriction>
              </xs:simpleType>
            </xs:element>
            <xs:element name="code">
              <xs:simpleType>
                <xs:restriction base="xs:string"><xs:pattern value="[A-Z]{3}"/></xs:restriction>
              </xs:simpleType>
            </xs:element>
            <xs:element name="workers">
              <xs:simpleType>
                <xs:restriction base="xs:int">
                  <xs:minInclusive value="1"/>
                  <xs:maxInclusive value="16"/>
                </xs:restriction>
              </xs:simpleType>
            </xs:element>
            <xs:element name="path" type="xs:string"/>
          </xs:sequence>
        </xs:complexType>
      </xs:element>
    </xs:schema>
  </Types>
  <CapabilityType name="Pool"/>
  <NodeType name="App">
    <PropertiesDefinition element="t:AppProperties"/>
    <CapabilityDefinitions>
      <CapabilityDefinition name="pool" capabilityType="t:Pool" lowerBound="0" upperBound="2"/>
    </CapabilityDefinitions>
  </NodeType>
  <NodeType name="Client"/>
  <RelationshipType name="Uses">
    <ValidSource typeRef="t:Client"/>
    <ValidTarget typeRef="t:App"/>
  </RelationshipType>
  <ServiceTemplate id="facets_service">
    <TopologyTemplate>
      <NodeTemplate id="app" type="t:App">
        <Properties>
          <t:AppProperties>
            <t:tier>gold</t:tier>
            <t:code>ABC</t:code>
            <t:workers>4</t:workers>
            <t:path>$HOME/app</t:path>
          </t:AppProperties>
        </Properties>
      </NodeTemplate>
      <NodeTemplate id="client" type="t:Client"/>
      <RelationshipTemplate id="client_uses_app" type="t:Uses">
        <SourceElement ref="client"/>
        <TargetElement ref="app"/>
      </RelationshipTemplate>
    </TopologyTemplate>
  </ServiceTemplate>
</Definitions>
"#;

#[test]
fn facets_dollars_bounds_and_node_type_ends_convert_to_tosca_2_0() {
    let tmp = tempfile::tempdir().unwrap();
    let xml = tmp.path().join("facets.tosca");
    std::fs::write(&xml, FACETS).unwrap();
    let (text, warnings) = converts_to_the_same_ir(
        &xml,
        "tosca_2_0",
        &tmp.path().join("facets-2.0.yaml"),
        &as_in_tosca_2_0,
    );
    for expected in [
        "        validation:\n          $valid_values:\n          - $value\n          - - gold\n            - silver\n",
        "          $matches:\n          - $value\n          - ^(?:[A-Z]{3})$\n",
        "        path: $$HOME/app\n",
        "    valid_source_node_types:\n    - \"{http%3A//example.com/facets}Client\"\n",
        "    valid_target_node_types:\n    - \"{http%3A//example.com/facets}App\"\n",
    ] {
        assert!(text.contains(expected), "{expected}\nnot in:\n{text}");
    }
    assert!(!text.contains("occurrences"), "{text}");
    // The bounds are lost, at the XML element that gave them; the valid ends are not.
    let shown = xml.display().to_string();
    assert!(
        warnings.contains(&format!("{shown}:42:7: warning[xml::no-counterpart]: the bounds (occurrences) of capability `pool` of node type `{{http://example.com/facets}}App` has no counterpart in TOSCA 2.0")),
        "{warnings}"
    );
    assert!(!warnings.contains("ValidSource"), "{warnings}");
    // In 1.3 the node-type ends are what is lost.
    let out = toscana().args(["convert"]).arg(&xml).output().unwrap();
    let warnings = common::stderr(&out);
    assert!(
        warnings.contains("`ValidSource` naming a node type has no counterpart in TOSCA YAML 1.3"),
        "{warnings}"
    );
}

/// `convert` writes artifact paths relative to the file it writes: a converted file saved beside
/// the CSAR folder names `shop/scripts/install.sh` and finds it; one saved where the artifacts
/// cannot be named from (a template reads only inside its folder) names them relative to the
/// CSAR's root, with a warning that says where to put it.
#[test]
fn convert_rebases_artifact_paths_onto_the_output_file() {
    let tmp = tempfile::tempdir().unwrap();
    let csar = tmp.path().join("shop");
    common::copy_dir(Path::new("golden/xml-csar/input"), &csar);
    for target in ["tosca_simple_yaml_1_3", "tosca_2_0"] {
        let beside = tmp.path().join(format!("{target}.yaml"));
        let out = toscana()
            .arg("convert")
            .arg(&csar)
            .args(["--to", target, "-o"])
            .arg(&beside)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", common::stderr(&out));
        assert!(!common::stderr(&out).contains("output::artifact-path"));
        let text = std::fs::read_to_string(&beside).unwrap();
        assert!(text.contains("file: shop/scripts/install.sh\n"), "{text}");
        // Read back, every artifact is found: no warning at all.
        let check = toscana().arg("check").arg(&beside).output().unwrap();
        assert!(check.status.success(), "{}", common::stderr(&check));
        assert_eq!(
            common::stderr(&check),
            format!("{}: valid (0 warnings)\n", beside.display())
        );
    }
    // Written elsewhere: relative to the CSAR root, and a warning.
    let elsewhere = tmp.path().join("out/converted.yaml");
    let out = toscana()
        .arg("convert")
        .arg(&csar)
        .arg("-o")
        .arg(&elsewhere)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", common::stderr(&out));
    let err = common::stderr(&out);
    assert!(
        err.contains(
            "warning[output::artifact-path]: 3 artifact files (`scripts/install.sh`, ...)"
        ),
        "{err}"
    );
    let text = std::fs::read_to_string(&elsewhere).unwrap();
    assert!(text.contains("file: scripts/install.sh\n"), "{text}");
    // To standard output, relative to the current folder.
    let out = toscana()
        .args(["convert", "shop"])
        .current_dir(tmp.path())
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("file: shop/scripts/install.sh\n"), "{text}");
}

/// Each test above that reads the corpus fails under `CI=true` when the corpus folder is gone.
#[test]
fn the_corpus_tests_fail_in_ci_without_the_corpus() {
    for test in [
        "a_csar_of_the_real_files_translates_with_every_backend",
        "converting_each_accepted_file_to_yaml_gives_the_same_ir",
        "converting_each_accepted_file_to_tosca_2_0_gives_the_same_ir",
        "conversion_is_byte_identical_across_runs",
    ] {
        common::assert_fails_in_ci_without_the_corpus(test);
    }
}
