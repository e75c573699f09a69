//! The valid counterparts of the `hunt6-*` bad-input cases: Simple Profile 1.x (and TOSCA 1.0
//! XML) rules that no visible corpus file broke (issue 25). Each file here writes what the rule allows, in the
//! forms the spec allows (short forms, normative names, inherited definitions), and checks
//! with no diagnostic at all.

mod common;

use common::assert_checks_clean as accepted;

#[test]
fn inputs_typed_by_built_in_normative_and_defined_data_types_are_accepted() {
    // A.8.1.1 inputs: property definitions, whose `type` names a data type
    // (`hunt6-input-1-x-type-undefined`, `hunt6-workflow-input-1-x-type-undefined`): a
    // primitive, a scalar unit, a normative data type, one the file defines, a list with its
    // entry schema, and a workflow's input.
    accepted(
        "tosca_definitions_version: tosca_simple_yaml_1_3
data_types:
  my.Port:
    derived_from: integer
    constraints:
      - in_range: [1, 65535]
topology_template:
  inputs:
    cpus:
      type: integer
      default: 2
    memory:
      type: scalar-unit.size
      default: 2 GB
    credential:
      type: tosca.datatypes.Credential
      required: false
    port:
      type: my.Port
      default: 8080
    zones:
      type: list
      entry_schema:
        type: string
      default: [a, b]
  node_templates:
    server:
      type: tosca.nodes.Compute
      capabilities:
        host:
          properties:
            num_cpus: { get_input: cpus }
            mem_size: { get_input: memory }
  workflows:
    scale:
      inputs:
        replicas:
          type: integer
          required: false
      steps:
        start:
          target: server
          activities:
            - set_state: started
",
    );
}

#[test]
fn an_empty_definition_under_an_inherited_name_refines_it() {
    // A.5.7.2, A.5.9.2 (`hunt6-property-def-1-x-empty-new`): an empty definition under a name
    // the parent type defines adds nothing and is left alone.
    accepted(
        "tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  my.Server:
    derived_from: tosca.nodes.Compute
    attributes:
      public_address:
topology_template:
  node_templates:
    server:
      type: my.Server
",
    );
}

#[test]
fn workflow_steps_with_every_keyname_are_accepted() {
    // 1.1-1.3 imperative workflow and step definitions (`hunt6-workflow-step-1-x-unknown-keyname`):
    // every keyname of a workflow (description, metadata, inputs, preconditions, steps) and of
    // a step (target, target_relationship, operation_host, filter, activities, on_success,
    // on_failure), the single-name form of `on_success`.
    accepted(
        "tosca_definitions_version: tosca_simple_yaml_1_3
topology_template:
  node_templates:
    server:
      type: tosca.nodes.Compute
    app:
      type: tosca.nodes.SoftwareComponent
      requirements:
        - host: server
  workflows:
    restart:
      description: stops and starts the application
      metadata:
        owner: operations
      inputs:
        reason:
          type: string
          required: false
      preconditions:
        - target: server
          condition:
            - assert:
                - state: [{ equal: started }]
      steps:
        stop:
          target: app
          target_relationship: host
          operation_host: SOURCE
          filter:
            - assert:
                - state: [{ equal: started }]
          activities:
            - set_state: stopping
          on_success: start
          on_failure:
            - start
        start:
          target: app
          activities:
            - set_state: started
",
    );
}

#[test]
fn repository_credentials_of_the_credential_type_are_accepted() {
    // A.5.6.1 Keynames, C.2.1 tosca.datatypes.Credential (`hunt6-repository-1-x-credential-*`):
    // a token with its type, and every field with its type; the single-line repository has no
    // credential. (A credential of a `token` alone, `{ token: s3cret }`, reads as a call of the
    // 1.x `token` function, a one-entry map keyed by its name: a Simple Profile ambiguity
    // toscana resolves for the function everywhere, properties of type Credential too.)
    accepted(
        "tosca_definitions_version: tosca_simple_yaml_1_3
repositories:
  plain: https://plain.example.com/
  tokens:
    url: https://tokens.example.com/
    credential:
      token_type: password
      token: s3cret
  full:
    description: every field
    url: https://full.example.com/
    credential:
      protocol: https
      token_type: bearer
      token: abc
      keys:
        tenant: shop
      user: deployer
topology_template:
  node_templates:
    server:
      type: tosca.nodes.Compute
",
    );
}

#[test]
fn requirement_relationship_interfaces_that_refine_declared_ones_are_accepted() {
    // A.6.2.2.3 (`hunt6-requirement-def-1-x-relationship-*`): the relationship's interfaces
    // named by their name (`Configure`) or their interface type's name, inputs for the
    // interface and for operations its type declares (in the old shape and under
    // `operations`), typed by data types, with defaults of their type.
    accepted(
        "tosca_definitions_version: tosca_simple_yaml_1_3
node_types:
  my.App:
    derived_from: tosca.nodes.SoftwareComponent
    requirements:
      - database:
          capability: tosca.capabilities.Endpoint.Database
          relationship:
            type: tosca.relationships.ConnectsTo
            interfaces:
              Configure:
                inputs:
                  schema:
                    type: string
                    default: shop
                post_configure_source:
                  inputs:
                    retries:
                      type: integer
                      default: 3
      - cache:
          capability: tosca.capabilities.Endpoint
          relationship:
            type: tosca.relationships.ConnectsTo
            interfaces:
              tosca.interfaces.relationship.Configure:
                operations:
                  pre_configure_target:
                    inputs:
                      flush:
                        type: boolean
                        required: false
topology_template:
  node_templates:
    server:
      type: tosca.nodes.Compute
",
    );
}

#[test]
fn xml_template_properties_with_a_namespaced_attribute_are_accepted() {
    // `hunt6-xml-template-properties-unknown-attribute`: `<Properties>` has no attribute of
    // its own, but one in another namespace is an extension (csd06 tExtensibleElements'
    // `anyAttribute namespace="##other"`) and passes. The checker tells XML by the content.
    accepted(
        r#"<Definitions xmlns="http://docs.oasis-open.org/tosca/ns/2011/12" xmlns:t="http://example.com/t" xmlns:p="http://example.com/p" xmlns:x="http://example.com/x" id="d" targetNamespace="http://example.com/t">
  <Types>
    <xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="http://example.com/p" elementFormDefault="qualified">
      <xs:element name="ServerProperties">
        <xs:complexType>
          <xs:sequence>
            <xs:element name="Port" type="xs:int"/>
          </xs:sequence>
        </xs:complexType>
      </xs:element>
    </xs:schema>
  </Types>
  <NodeType name="Server">
    <PropertiesDefinition element="p:ServerProperties"/>
  </NodeType>
  <ServiceTemplate id="shop">
    <TopologyTemplate>
      <NodeTemplate id="web" type="t:Server">
        <Properties x:origin="inventory">
          <p:ServerProperties>
            <p:Port>8080</p:Port>
          </p:ServerProperties>
        </Properties>
      </NodeTemplate>
    </TopologyTemplate>
  </ServiceTemplate>
</Definitions>
"#,
    );
}
