//! The valid counterparts of the bad-input cases the third meaning hunt added
//! (`tests/bad_input/hunt8-*`, issue 25): what each new rule must go on accepting. Each file
//! checks with no diagnostic, unless the test says what it counts.

mod common;

use common::assert_checks_clean as accepted;

#[test]
fn list_and_map_data_types_with_schemas_that_fit() {
    // §9.2 Data Type, §9.3 Schema Definition: a list or map type's own schemas name data
    // types, short or long, and a long one's validation fits its type.
    accepted(
        "tosca_definitions_version: tosca_2_0
data_types:
  Label:
    derived_from: string
    validation: { $greater_or_equal: [ { $length: [ $value ] }, 1 ] }
  Labels:
    derived_from: map
    key_schema:
      type: string
      validation: { $less_or_equal: [ { $length: [ $value ] }, 63 ] }
    entry_schema: Label
  Ports:
    derived_from: list
    entry_schema:
      type: integer
      validation: { $and: [ { $greater_or_equal: [ $value, 1 ] }, { $less_or_equal: [ $value, 65535 ] } ] }
node_types:
  Server:
    properties:
      labels:
        type: Labels
      ports:
        type: Ports
service_template:
  node_templates:
    web:
      type: Server
      properties:
        labels: { tier: web }
        ports: [ 80, 443 ]
",
    );
    // The Simple Profile 1.3 gives data types the same keynames (A.5.7.2: the schema names
    // "the Datatype definition for entries").
    accepted(
        "tosca_definitions_version: tosca_simple_yaml_1_3
data_types:
  Label:
    derived_from: string
  Labels:
    derived_from: map
    entry_schema:
      type: Label
  Ports:
    derived_from: list
    entry_schema: integer
node_types:
  Server:
    derived_from: tosca.nodes.Root
    properties:
      labels:
        type: Labels
      ports:
        type: Ports
topology_template:
  node_templates:
    web:
      type: Server
      properties:
        labels: { tier: web }
        ports: [ 80, 443 ]
",
    );
}

#[test]
fn function_implementations_of_defined_artifact_types() {
    // §10.4 Function Definitions: an implementation whose artifacts have defined types, or
    // none (the file's extension tells), is accepted whether or not anything calls it.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("checksum.py"), "").unwrap();
    let path = dir.path().join("t.yaml");
    std::fs::write(
        &path,
        "tosca_definitions_version: tosca_2_0
artifact_types:
  Python:
    file_ext: [ py ]
functions:
  checksum:
    signatures:
      - arguments:
          - type: string
        result:
          type: string
        implementation:
          primary:
            type: Python
            file: checksum.py
          dependencies:
            - checksum.py
service_template:
  node_templates: {}
",
    )
    .unwrap();
    let out = common::toscana().arg("check").arg(&path).output().unwrap();
    let stderr = common::stderr(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("valid (0 warnings)"), "{stderr}");
    // A profile, with no service template, is judged alike.
    accepted(
        "tosca_definitions_version: tosca_2_0
profile: org.example.checksums:1.0
artifact_types:
  Python:
    file_ext: [ py ]
  Library:
    derived_from: Python
functions:
  checksum:
    signatures:
      - arguments: [ string ]
        result: string
        implementation:
          primary:
            type: Python
            file: checksum.py
          dependencies:
            - type: Library
              file: hashing.py
            - hashing.py
",
    );
}

#[test]
fn a_credential_of_its_token_alone_is_data() {
    // C.2.1 tosca.datatypes.Credential: `token` is the one required field, so a credential
    // may be that field alone; it is not a call of the `token` function.
    accepted(
        "tosca_definitions_version: tosca_simple_yaml_1_3
repositories:
  images:
    url: https://registry.example.com/
    credential:
      token: s3cr3t
  charts:
    url: https://charts.example.com/
    credential:
      user: deployer
      token: s3cr3t
node_types:
  Server:
    derived_from: tosca.nodes.Root
topology_template:
  node_templates:
    web:
      type: Server
",
    );
}

#[test]
fn a_type_artifact_is_reported_once_for_all_its_templates() {
    // An artifact defined in a node type is read again for each template of the type; what is
    // wrong in its definition is one problem, at the type.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("install.sh"), "").unwrap();
    let path = dir.path().join("t.yaml");
    std::fs::write(
        &path,
        "tosca_definitions_version: tosca_2_0
node_types:
  Server:
    artifacts:
      installer:
        type: Shell
        file: install.sh
service_template:
  node_templates:
    a:
      type: Server
    b:
      type: Server
    c:
      type: Server
",
    )
    .unwrap();
    let out = common::toscana().arg("check").arg(&path).output().unwrap();
    let stderr = common::stderr(&out);
    assert!(!out.status.success(), "{stderr}");
    assert_eq!(
        stderr.matches("unknown artifact type `Shell`").count(),
        1,
        "{stderr}"
    );
}

#[test]
fn substitution_filters_read_what_the_substituted_type_defines() {
    // §15.1 Substitution Mapping, §10.3 TOSCA Path: `SELF` is the node to be substituted; its
    // properties, its attributes (every property is one too), a capability's property, and
    // paths through relationships, which the type alone does not decide, are accepted.
    accepted(
        "tosca_definitions_version: tosca_2_0
capability_types:
  Storage:
    properties:
      gb:
        type: integer
node_types:
  Database:
    properties:
      size_gb:
        type: integer
    attributes:
      state:
        type: string
    capabilities:
      storage:
        type: Storage
        properties:
          gb: 10
service_template:
  substitution_mappings:
    node_type: Database
    substitution_filter:
      $and:
        - $greater_or_equal: [ { $get_property: [ SELF, size_gb ] }, 100 ]
        - $greater_or_equal: [ { $get_attribute: [ SELF, size_gb ] }, 100 ]
        - $equal: [ { $get_attribute: [ SELF, state ] }, ready ]
        - $greater_than: [ { $get_property: [ SELF, CAPABILITY, storage, gb ] }, 1 ]
        - $equal: [ { $get_attribute: [ SELF, RELATIONSHIP, host, 0, TARGET, state ] }, up ]
  node_templates:
    store:
      type: Database
      properties:
        size_gb: 100
",
    );
}

#[test]
fn workflows_inline_others_that_do_not_come_back() {
    // §13.2.3.4 Inline Workflow Activity Definition: a chain of inlines (nightly inlines
    // archive, archive inlines verify) and one workflow inlined twice are finite; a step that
    // repeats through `on_failure` is a retry, not an inline.
    accepted(
        "tosca_definitions_version: tosca_2_0
interface_types:
  Backup:
    operations:
      backup: {}
      verify: {}
node_types:
  Entity:
    interfaces:
      backup:
        type: Backup
service_template:
  node_templates:
    client:
      type: Entity
  workflows:
    verify:
      steps:
        verify_client:
          target: client
          activities:
            - call_operation: backup.verify
    archive:
      steps:
        archive_client:
          target: client
          activities:
            - call_operation: backup.backup
            - inline: verify
          on_failure: [ archive_client ]
    nightly:
      steps:
        nightly_client:
          target: client
          activities:
            - inline: archive
            - inline:
                workflow: verify
",
    );
}
