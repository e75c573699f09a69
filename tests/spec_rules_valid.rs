//! The valid counterparts of the bad-input cases of rules the conformance coverage once listed
//! as partly checked (tests/conformance/coverage.tsv): the names of a TOSCA 2.0 service template
//! (`service-template-2-0-*-same-name`, T2-ST-03), the `CSAR-Version` of a Simple Profile CSAR
//! (`csar-1-*-version-*`, SP-ERR-27), a variadic argument repeated
//! (`function2-variadic-repeat-type`, T2-FNDEF-03), deprecated properties
//! (`*-deprecated-assigned`, T2-PROPDEF-07) and an implementation that names an artifact
//! (T2-IMPL-02), output values (`*-hunt-output-value-type`, T2-PARAM-01) and a requirement's
//! capability (`t2-hunt-requirement-capability-unknown`, T2-REQASSIGN-02), and the 1.x
//! definitions that refine inherited ones without naming their base (`hunt3-*-def-1-x-no-*`,
//! A.6.1.1, A.6.2.1, A.5.12.2.1), and the TOSCA 1.0 XML shapes of `hunt3-xml-*`. Each file checks
//! with no diagnostic, or, where the rule reports once, reports once.

mod common;

use common::assert_checks_clean as accepted;

#[test]
fn tosca2_service_template_names_each_used_once_are_accepted() {
    // §6.9.1 Service Template Grammar: one name per input, output, template, group, policy and
    // workflow; a node template may still be named like a type or a requirement.
    accepted(
        "tosca_definitions_version: tosca_2_0
capability_types:
  Endpoint: {}
relationship_types:
  ConnectsTo: {}
node_types:
  database:
    capabilities:
      endpoint: Endpoint
  Web:
    properties:
      database_name:
        type: string
    requirements:
      - database:
          capability: Endpoint
          relationship: ConnectsTo
group_types:
  Tier: {}
policy_types:
  Placement: {}
service_template:
  inputs:
    database_name:
      type: string
      default: shop
  node_templates:
    database:
      type: database
    web:
      type: Web
      properties:
        database_name: { $get_input: database_name }
      requirements:
        - database: database
  outputs:
    address:
      type: string
      value: web
  groups:
    frontend:
      type: Tier
      members: [ web ]
  policies:
    - near:
        type: Placement
  workflows:
    deploy:
      steps: {}
",
    );
}

#[test]
fn simple_profile_names_shared_by_an_input_an_output_and_a_template_are_accepted() {
    // The Simple Profile states no rule across sections, and its own example names an input
    // and an output alike (1.0 ex-018).
    accepted(
        "tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  inputs:
    server:
      type: string
      default: small
  node_templates:
    server:
      type: tosca.nodes.Compute
  outputs:
    server:
      value: { get_input: server }
",
    );
}

/// A Simple Profile 1.3 CSAR folder whose TOSCA.meta says `CSAR-Version: <version>`, checked.
fn check_simple_profile_csar(version: &str) -> std::process::Output {
    let dir = tempfile::tempdir().unwrap();
    let meta = dir.path().join("TOSCA-Metadata");
    std::fs::create_dir_all(&meta).unwrap();
    std::fs::write(
        meta.join("TOSCA.meta"),
        format!(
            "TOSCA-Meta-File-Version: 1.0\nCSAR-Version: {version}\nCreated-By: toscana tests\nEntry-Definitions: service.yaml\n"
        ),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("service.yaml"),
        "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  node_templates:\n    vm:\n      type: tosca.nodes.Compute\n",
    )
    .unwrap();
    common::toscana()
        .arg("check")
        .arg(dir.path())
        .output()
        .unwrap()
}

#[test]
fn a_simple_profile_csar_of_version_1_1_is_accepted_and_no_other() {
    // 1.0 §E.2 TOSCA Meta File: "the CSAR-Version keyword listed in block_0 of the meta-file is
    // required to denote version 1.1".
    let out = check_simple_profile_csar("1.1");
    let stderr = common::stderr(&out);
    assert!(
        out.status.success() && stderr.contains("valid (0 warnings)"),
        "{stderr}"
    );
    for other in ["1.0", "2.0", "1.10"] {
        let out = check_simple_profile_csar(other);
        let stderr = common::stderr(&out);
        assert!(
            !out.status.success()
                && stderr.contains(&format!(
                    "`CSAR-Version: {other}` in the TOSCA.meta of a Simple Profile CSAR"
                )),
            "{other}: {stderr}"
        );
    }
}

#[test]
fn a_variadic_signature_repeats_its_last_argument() {
    // §10.4 Function Definitions: "If `optional_arguments` is not defined, then the last defined
    // argument is the last defined regular argument. Note that in this case we have a 1+ usage
    // of the last argument", and with optional arguments "a 0+ usage" of the last optional one.
    let template = |calls: &str| {
        format!(
            "tosca_definitions_version: tosca_2_0
node_types:
  Maths:
    properties:
      total: {{ type: integer, required: false }}
      label: {{ type: string, required: false }}
functions:
  sum_of:
    signatures:
      - arguments: [ string, integer ]
        variadic: true
        result: integer
  tag:
    signatures:
      - arguments: [ integer ]
        optional_arguments: [ string ]
        variadic: true
        result: string
service_template:
  node_templates:
    m:
      type: Maths
      properties:
{calls}"
        )
    };
    accepted(&template(
        "        total: { $sum_of: [ label, 1, 2, 3 ] }\n        label: { $tag: [ 1 ] }\n",
    ));
    accepted(&template(
        "        total: { $sum_of: [ label, 1 ] }\n        label: { $tag: [ 1, a, b, c ] }\n",
    ));
    for (calls, says) in [
        // 1+ without optional arguments: the repeated one appears at least once.
        ("        total: { $sum_of: [ label ] }\n", "$sum_of"),
        // The repetitions of the optional argument are strings.
        ("        label: { $tag: [ 1, a, 2 ] }\n", "`argument 3`"),
    ] {
        let (_, diags) = common::read_text(&template(calls));
        assert!(
            diags
                .iter()
                .any(|d| d.severity == toscana::diag::Severity::Error
                    && d.code == "tosca::function"
                    && d.message.contains(says)),
            "{calls}: {diags:#?}"
        );
    }
}

#[test]
fn properties_of_other_statuses_and_deprecated_ones_left_unset_are_accepted() {
    // T2-PROPDEF-07: any status string is kept; only setting a deprecated one is reported.
    accepted(
        "tosca_definitions_version: tosca_2_0
node_types:
  Server:
    properties:
      flavor:
        type: string
        required: false
        status: deprecated
      size:
        type: string
        status: experimental
      zone:
        type: string
        status: anything at all
service_template:
  node_templates:
    web:
      type: Server
      properties:
        size: large
        zone: north
",
    );
}

#[test]
fn an_implementation_names_an_artifact_of_its_node_type_or_template() {
    // §11.8 Operation and Notification Implementations: "This notation can be used when the
    // primary artifact name uniquely identifies the artifact because it refers to an artifact
    // specified in the artifacts section of a type or template" (T2-IMPL-02).
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("scripts")).unwrap();
    for script in ["install.sh", "setup.sh"] {
        std::fs::write(dir.path().join("scripts").join(script), "#!/bin/sh\n").unwrap();
    }
    let path = dir.path().join("t.yaml");
    std::fs::write(
        &path,
        "tosca_definitions_version: tosca_2_0
artifact_types:
  Bash:
    file_ext: [ sh ]
interface_types:
  Standard:
    operations:
      create: {}
      configure: {}
node_types:
  Server:
    artifacts:
      install:
        type: Bash
        file: scripts/install.sh
    interfaces:
      lifecycle:
        type: Standard
        operations:
          create:
            implementation: install
service_template:
  node_templates:
    web:
      type: Server
      artifacts:
        setup:
          type: Bash
          file: scripts/setup.sh
      interfaces:
        lifecycle:
          operations:
            configure:
              implementation:
                primary: setup
                dependencies: [ install ]
",
    )
    .unwrap();
    let out = common::toscana().arg("ir").arg(&path).output().unwrap();
    let stderr = common::stderr(&out);
    assert!(out.status.success() && stderr.is_empty(), "{stderr}");
    let ir: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let operations = &ir["nodes"][0]["interfaces"]["lifecycle"]["operations"];
    let named = |implementation: &serde_json::Value| {
        (
            implementation["name"].as_str().map(str::to_string),
            implementation["type"].as_str().map(str::to_string),
            implementation["file"].as_str().map(str::to_string),
        )
    };
    let artifact = |name: &str, file: &str| {
        (
            Some(name.to_string()),
            Some("Bash".to_string()),
            Some(file.to_string()),
        )
    };
    let create = &operations["create"]["implementation"];
    assert_eq!(
        named(&create["primary"]),
        artifact("install", "scripts/install.sh"),
        "{operations:#}"
    );
    let configure = &operations["configure"]["implementation"];
    assert_eq!(
        named(&configure["primary"]),
        artifact("setup", "scripts/setup.sh"),
        "{operations:#}"
    );
    assert_eq!(
        named(&configure["dependencies"][0]),
        artifact("install", "scripts/install.sh"),
        "{operations:#}"
    );
}

#[test]
fn output_values_of_their_type_or_of_an_unknown_type_are_accepted() {
    // The valid counterpart of `*-hunt-output-value-type`: a literal of the output's type, a
    // function (checked when evaluated), an untyped output, and an output typed with a name no
    // file defines (a placeholder, left alone).
    accepted(
        "tosca_definitions_version: tosca_2_0
node_types:
  Server:
    properties:
      port:
        type: integer
service_template:
  node_templates:
    server:
      type: Server
      properties:
        port: 8080
  outputs:
    port:
      type: integer
      value: { $get_property: [ server, port ] }
    replicas:
      type: integer
      value: 3
    label:
      value: [ a, b ]
    url:
      type: Url
      value: http://example.com/
",
    );
}

#[test]
fn requirement_capabilities_by_name_or_by_type_of_a_node_type_are_accepted() {
    // The valid counterpart of `t2-hunt-requirement-capability-unknown`: with `node` a node
    // type, `capability` names one of its capabilities or a capability type (§8.5.2).
    accepted(
        "tosca_definitions_version: tosca_2_0
capability_types:
  Bindable: {}
relationship_types:
  BindsTo: {}
node_types:
  Port:
    requirements:
      - binding:
          capability: Bindable
          relationship: BindsTo
      - backup:
          capability: Bindable
          relationship: BindsTo
  Host:
    capabilities:
      binding:
        type: Bindable
service_template:
  node_templates:
    port:
      type: Port
      requirements:
        - binding:
            node: Host
            capability: binding
        - backup:
            node: Host
            capability: Bindable
    host:
      type: Host
",
    );
}

#[test]
fn simple_definitions_that_refine_inherited_ones_may_leave_out_their_base() {
    // A.6.1.1, A.6.2.1, A.5.12.2.1: a new capability definition names its `type`, a new
    // requirement definition its `capability`, a new interface definition its `type`
    // (`hunt3-*-def-1-x-no-*`); under a name the parent type defines, each refines the inherited
    // one and may leave it out. The short forms name the base by their value.
    accepted(
        "tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  my.Server:
    derived_from: tosca.nodes.Compute
    capabilities:
      host:
        properties:
          num_cpus:
            type: integer
            default: 2
      admin: tosca.capabilities.Endpoint.Admin
    requirements:
      - local_storage:
          occurrences: [0, 1]
      - backup: tosca.capabilities.Attachment
    interfaces:
      Standard:
        create:
          description: creates the server
topology_template:
  node_templates:
    server:
      type: my.Server
",
    );
}

#[test]
fn xml_parameters_derivations_interfaces_and_artifact_references_as_the_schema_writes_them() {
    // The valid counterparts of `hunt3-xml-*` (TOSCA 1.0 csd06 Appendix D): parameters with
    // `name` and `type` (tParameter), `DerivedFrom` with `typeRef`, `SourceInterfaces` and
    // `TargetInterfaces` holding `Interface` elements, an `ArtifactReference` with `reference`
    // and an `Include` pattern. The checker tells XML from YAML by the content.
    accepted(
        r#"<Definitions xmlns="http://docs.oasis-open.org/tosca/ns/2011/12" xmlns:t="http://example.com/t" id="d" targetNamespace="http://example.com/t">
  <NodeType name="Base"/>
  <NodeType name="App">
    <DerivedFrom typeRef="t:Base"/>
    <Interfaces>
      <Interface name="lifecycle">
        <Operation name="install">
          <InputParameters>
            <InputParameter name="port" type="xs:integer" required="no"/>
          </InputParameters>
          <OutputParameters>
            <OutputParameter name="url" type="xs:string"/>
          </OutputParameters>
        </Operation>
      </Interface>
    </Interfaces>
  </NodeType>
  <RelationshipType name="ConnectsTo">
    <SourceInterfaces>
      <Interface name="configure">
        <Operation name="pre_configure"/>
      </Interface>
    </SourceInterfaces>
    <TargetInterfaces>
      <Interface name="configure">
        <Operation name="add_source"/>
      </Interface>
    </TargetInterfaces>
  </RelationshipType>
  <ArtifactType name="Script"/>
  <ArtifactTemplate id="install" type="t:Script">
    <ArtifactReferences>
      <ArtifactReference reference="scripts">
        <Include pattern="*.sh"/>
      </ArtifactReference>
    </ArtifactReferences>
  </ArtifactTemplate>
</Definitions>
"#,
    );
}

#[test]
fn xml_lists_relationship_ends_and_exported_operations_as_the_schema_writes_them() {
    // The valid counterparts of the second `hunt3-xml-*` batch (TOSCA 1.0 csd06 Appendix D):
    // list elements holding their own items, SourceElement/TargetElement with `ref` only,
    // ValidSource/ValidTarget with `typeRef`, an exported operation bound to a plan by
    // `planRef`, a Tag with `name` and `value`.
    accepted(
        r#"<Definitions xmlns="http://docs.oasis-open.org/tosca/ns/2011/12" xmlns:t="http://example.com/t" id="d" targetNamespace="http://example.com/t">
  <RequirementType name="NeedsDatabase" requiredCapabilityType="t:Database"/>
  <CapabilityType name="Database"/>
  <NodeType name="App">
    <RequirementDefinitions>
      <RequirementDefinition name="db" requirementType="t:NeedsDatabase" lowerBound="0"/>
    </RequirementDefinitions>
  </NodeType>
  <NodeType name="Dbms">
    <CapabilityDefinitions>
      <CapabilityDefinition name="api" capabilityType="t:Database"/>
    </CapabilityDefinitions>
  </NodeType>
  <RelationshipType name="ConnectsTo">
    <ValidSource typeRef="t:NeedsDatabase"/>
    <ValidTarget typeRef="t:Database"/>
  </RelationshipType>
  <ServiceTemplate id="st">
    <Tags>
      <Tag name="tier" value="web"/>
    </Tags>
    <BoundaryDefinitions>
      <Interfaces>
        <Interface name="management">
          <Operation name="scale">
            <Plan planRef="scale_out"/>
          </Operation>
        </Interface>
      </Interfaces>
    </BoundaryDefinitions>
    <TopologyTemplate>
      <NodeTemplate id="web" type="t:App">
        <Requirements>
          <Requirement id="web_db" name="db" type="t:NeedsDatabase"/>
        </Requirements>
      </NodeTemplate>
      <NodeTemplate id="db" type="t:Dbms">
        <Capabilities>
          <Capability id="db_api" name="api" type="t:Database"/>
        </Capabilities>
      </NodeTemplate>
      <RelationshipTemplate id="web_to_db" type="t:ConnectsTo">
        <SourceElement ref="web_db"/>
        <TargetElement ref="db_api"/>
      </RelationshipTemplate>
    </TopologyTemplate>
    <Plans>
      <Plan id="scale_out" planType="http://example.com/ScalePlan" planLanguage="http://www.omg.org/spec/BPMN/20100524/MODEL">
        <PlanModelReference reference="plans/scale.zip"/>
      </Plan>
    </Plans>
  </ServiceTemplate>
</Definitions>
"#,
    );
}

#[test]
fn simple_group_members_policy_targets_and_occurrences_as_the_spec_writes_them() {
    // The valid counterparts of `hunt3-group-type-1-x-member-unknown`,
    // `hunt3-policy-type-1-x-target-unknown` and `hunt3-requirement-def-1-x-occurrences-inverted`:
    // members name node types, targets node or group types, occurrences are [min, max] with
    // min <= max (the implied default [1, 1] among them) or [min, UNBOUNDED].
    accepted(
        "tosca_definitions_version: tosca_simple_yaml_1_3
group_types:
  my.Tier:
    derived_from: tosca.groups.Root
    members: [ tosca.nodes.WebServer, tosca.nodes.Compute ]
policy_types:
  my.Backup:
    derived_from: tosca.policies.Root
    targets: [ tosca.nodes.Storage.BlockStorage, my.Tier ]
node_types:
  my.Balancer:
    derived_from: tosca.nodes.Root
    capabilities:
      admin:
        type: tosca.capabilities.Endpoint.Admin
        occurrences: [1, 1]
    requirements:
      - backend:
          capability: tosca.capabilities.Endpoint
          occurrences: [0, UNBOUNDED]
topology_template:
  node_templates:
    balancer:
      type: my.Balancer
",
    );
}
