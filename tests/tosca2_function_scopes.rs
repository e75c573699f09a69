//! Where a TOSCA 2.0 custom function is known (§10.4 Function Definitions): one defined only
//! inside the service template is a definition of the service template's file; one defined
//! outside is read through the namespaces, as types are ("namespacing works as for types"); a
//! name defined somewhere but not where it is called is reported as such, never with a
//! "did you mean" hint that proposes the very name.

mod common;

use std::path::Path;

use common::{stderr, toscana};

/// Writes `files` (name, text) into a scratch folder and runs `toscana check` on the first:
/// its success and standard error.
fn check(files: &[(&str, &str)]) -> (bool, String) {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    let entry: &Path = &dir.path().join(files[0].0);
    let out = toscana().arg("check").arg(entry).output().unwrap();
    (out.status.success(), stderr(&out))
}

fn assert_clean(files: &[(&str, &str)]) {
    let (ok, err) = check(files);
    assert!(ok && err.contains("valid (0 warnings)"), "{err}");
}

/// A function `root` defined only in the service template, called from the service template
/// and from a type of the same file.
const TEMPLATE_OWN: &str = r#"tosca_definitions_version: tosca_2_0
node_types:
  Thing:
    properties:
      n: { type: integer, required: false }
      m: { type: integer, default: { $root: [ 9 ] } }
service_template:
  functions:
    root:
      signatures:
        - arguments: [ integer ]
          result: integer
  node_templates:
    t:
      type: Thing
      properties:
        n: { $root: [ 4 ] }
"#;

#[test]
fn a_function_defined_only_in_the_service_template_is_known_in_its_file() {
    assert_clean(&[("t.yaml", TEMPLATE_OWN)]);
}

#[test]
fn a_function_defined_only_in_the_service_template_has_its_signature_checked() {
    let wrong = TEMPLATE_OWN.replace("$root: [ 4 ]", "$root: [ four ]");
    let (ok, err) = check(&[("t.yaml", &wrong)]);
    assert!(!ok, "{err}");
    assert!(!err.contains("unknown function"), "{err}");
    assert!(err.contains("t.yaml:17:"), "{err}");
}

const LIBRARY: &str = r#"tosca_definitions_version: tosca_2_0
functions:
  twice:
    signatures:
      - arguments: [ integer ]
        result: integer
"#;

fn importer(import: &str, call: &str, refinement: &str) -> String {
    format!(
        r#"tosca_definitions_version: tosca_2_0
imports:
  - {import}
node_types:
  Thing:
    properties:
      n: {{ type: integer, required: false }}
service_template:
{refinement}  node_templates:
    t:
      type: Thing
      properties:
        n: {{ ${call}: [ 4 ] }}
"#
    )
}

#[test]
fn imported_functions_are_named_as_their_namespace_says() {
    let root = importer("url: lib.yaml", "twice", "");
    assert_clean(&[("t.yaml", &root), ("lib.yaml", LIBRARY)]);
    let named = importer("{ url: lib.yaml, namespace: lib }", "lib:twice", "");
    assert_clean(&[("t.yaml", &named), ("lib.yaml", LIBRARY)]);
}

#[test]
fn the_service_template_refines_an_imported_function_by_its_namespaced_name() {
    let refinement = "  functions:\n    lib:twice:\n      signatures:\n        - {}\n        - arguments: [ string ]\n          result: integer\n";
    let named = importer("{ url: lib.yaml, namespace: lib }", "lib:twice", refinement);
    // The grammar warns of the `:` in the refining name (and only of it).
    let accepted_with_the_colon_warning = |template: &str| {
        let (ok, err) = check(&[("t.yaml", template), ("lib.yaml", LIBRARY)]);
        assert!(ok && err.contains("valid (1 warning)"), "{err}");
        assert!(
            err.contains("function name `lib:twice` contains `:`"),
            "{err}"
        );
    };
    accepted_with_the_colon_warning(&named);
    // The added signature is the refined function's: a string argument now fits it.
    let string_call = named.replace("$lib:twice: [ 4 ]", "$lib:twice: [ four ]");
    accepted_with_the_colon_warning(&string_call);
    // Without the refinement, a string does not fit.
    let unrefined = importer("{ url: lib.yaml, namespace: lib }", "lib:twice", "")
        .replace("$lib:twice: [ 4 ]", "$lib:twice: [ four ]");
    let (ok, err) = check(&[("t.yaml", &unrefined), ("lib.yaml", LIBRARY)]);
    assert!(!ok && err.contains("must be an integer"), "{err}");
}

#[test]
fn a_function_out_of_the_calling_files_namespaces_is_named_as_such() {
    let bare = importer("{ url: lib.yaml, namespace: lib }", "twice", "");
    let (ok, err) = check(&[("t.yaml", &bare), ("lib.yaml", LIBRARY)]);
    assert!(!ok, "{err}");
    assert!(err.contains("unknown function `$twice`"), "{err}");
    assert!(err.contains("out of this file's namespaces"), "{err}");
    assert!(err.contains("lib.yaml:3:3"), "{err}");
    assert!(!err.contains("did you mean `$twice`"), "{err}");
}

#[test]
fn a_service_templates_own_function_is_not_known_in_the_files_it_imports() {
    let library = r#"tosca_definitions_version: tosca_2_0
node_types:
  Thing:
    properties:
      n: { type: integer, default: { $root: [ 1 ] } }
"#;
    let template = r#"tosca_definitions_version: tosca_2_0
imports:
  - url: lib.yaml
service_template:
  functions:
    root:
      signatures:
        - arguments: [ integer ]
          result: integer
  node_templates:
    t:
      type: Thing
"#;
    let (ok, err) = check(&[("t.yaml", template), ("lib.yaml", library)]);
    assert!(!ok, "{err}");
    assert!(err.contains("lib.yaml:5:"), "{err}");
    assert!(err.contains("out of this file's namespaces"), "{err}");
    assert!(!err.contains("did you mean `$root`"), "{err}");
}

/// The same class for types: a type imported under a namespace and written bare is not
/// hinted as a typo of itself.
#[test]
fn a_type_out_of_the_calling_files_namespaces_is_not_hinted_as_itself() {
    let library = "tosca_definitions_version: tosca_2_0\nnode_types:\n  Thing: {}\n";
    let template = r#"tosca_definitions_version: tosca_2_0
imports:
  - { url: lib.yaml, namespace: lib }
service_template:
  node_templates:
    t:
      type: Thing
"#;
    let (ok, err) = check(&[("t.yaml", template), ("lib.yaml", library)]);
    assert!(!ok && err.contains("unknown node type `Thing`"), "{err}");
    assert!(!err.contains("did you mean `Thing`"), "{err}");
}
