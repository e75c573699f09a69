//! TOSCA 1.0 XML end to end: a CSAR assembled from the real Winery files translates with every
//! backend, and converting each accepted XML file to YAML gives a template that `check`
//! accepts and that resolves to the same IR, apart from where things were written.
//!
//! Locally a missing `../shared/corpus` skips with a notice; under `CI=true` it is a failure.

use std::io::Write as _;
use std::path::{Path, PathBuf};

mod common;

use common::{corpus_root, in_ci, toscana};
use toscana::front::quirk::{Quirk, Quirks};

const TOSCA_NS: &str = "http://docs.oasis-open.org/tosca/ns/2011/12";

fn real() -> Option<PathBuf> {
    let dir = corpus_root().join("xml-real");
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(!in_ci(), "../shared/corpus is missing under CI=true");
    eprintln!("notice: ../shared/corpus not found; TOSCA 1.0 XML tests skipped");
    None
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
/// a baobab tree hosted on it) over types from the real files, which it imports one and all.
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
      <RelationshipTemplate id="baobab_on_server" type="base:HostedOn">
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
    assert_eq!(rel["name"], "baobab_on_server");
    assert_eq!(
        rel["types"],
        serde_json::json!([
            "{http://docs.oasis-open.org/tosca/ns/2011/12/ToscaBaseTypes}HostedOn",
            "tosca.relationships.HostedOn",
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
        let target = tmp.path().join(command);
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
/// thing was written and which files were read.
fn comparable(mut ir: serde_json::Value) -> serde_json::Value {
    fn strip(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Object(m) => {
                m.remove("location");
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
    let mut diags = toscana::diag::Diagnostics::with_cap(0);
    let read = toscana::pipeline::read(
        &toscana::pipeline::ReadOptions {
            input: Some(toscana::source::InputArg::Path(path.to_path_buf())),
            quirks: Quirks::new(quirks),
            ..Default::default()
        },
        &mut diags,
    );
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

#[test]
fn converting_each_accepted_file_to_yaml_gives_the_same_ir() {
    let Some(dir) = real() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let mut inputs: Vec<(PathBuf, Vec<Quirk>)> = definitions(&dir)
        .into_iter()
        .filter(|p| !p.to_string_lossy().contains("-imports-"))
        .map(|p| (p, vec![Quirk::Winery]))
        .collect();
    inputs.push((assemble_csar(&dir, tmp.path()), vec![Quirk::Winery]));
    for ex in [
        "019", "025", "029", "031", "033", "035", "037", "039", "041",
    ] {
        let p = corpus_root().join(format!("spec-examples/xml-1.0/fixed/ex-{ex}.xml"));
        inputs.push((p, vec![Quirk::Winery]));
    }
    assert!(inputs.len() > 40);
    for (i, (path, quirks)) in inputs.iter().enumerate() {
        let xml = ir_of(path, quirks).expect("the XML reads");
        let mut args = vec!["convert".to_string(), "-q".to_string()];
        for _ in quirks {
            args.extend(["--quirk".to_string(), "winery".to_string()]);
        }
        let out = toscana().args(&args).arg(path).output().unwrap();
        assert!(
            out.status.success(),
            "{}: {}",
            path.display(),
            common::stderr(&out)
        );
        let yaml = tmp.path().join(format!("converted-{i}.yaml"));
        std::fs::write(&yaml, &out.stdout).unwrap();
        let check = toscana().args(["check", "-q"]).arg(&yaml).output().unwrap();
        assert!(
            check.status.success(),
            "{} converted does not pass check: {}\n{}",
            path.display(),
            common::stderr(&check),
            String::from_utf8_lossy(&out.stdout)
        );
        let back = ir_of(&yaml, &[]).expect("the YAML reads");
        assert_eq!(
            comparable(xml),
            comparable(back),
            "{}: the IR of the YAML differs",
            path.display()
        );
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
