//! Refinement that narrows is accepted: the valid counterparts of the `refine-*` bad-input
//! cases. A derived type may restate an inherited property's type, narrow it to a derived data
//! type, turn `required: false` into `true`, and fix a `value` its parent left open; each such
//! file checks with no diagnostic. The same holds for the parameters of interfaces (an
//! interface type derived from another, a node type's interface definition over its interface
//! type and its parent's) and for `entry_schema` and `key_schema` types, narrowed recursively.

mod common;

use common::assert_checks_clean as accepted;

#[test]
fn simple_profile_refinements_that_narrow_are_accepted() {
    accepted(
        "tosca_definitions_version: tosca_simple_yaml_1_3
data_types:
  Port:
    derived_from: integer
    constraints:
      - in_range: [ 1, 65535 ]
node_types:
  Server:
    derived_from: tosca.nodes.Root
    properties:
      port:
        type: integer
      name:
        type: string
        required: false
  WebServer:
    derived_from: Server
    properties:
      port:
        type: Port
        default: 80
      name:
        type: string
        required: true
        default: web
",
    );
}

#[test]
fn tosca2_refinements_that_narrow_are_accepted() {
    accepted(
        "tosca_definitions_version: tosca_2_0
data_types:
  Endpoint:
    properties:
      port: { type: integer }
  SecureEndpoint:
    derived_from: Endpoint
    properties:
      port: { type: integer, validation: { $equal: [ $value, 443 ] } }
node_types:
  Server:
    properties:
      endpoint:
        type: Endpoint
      arch:
        type: string
        required: false
  ArmServer:
    derived_from: Server
    properties:
      endpoint:
        type: SecureEndpoint
      arch:
        type: string
        required: true
        value: arm64
",
    );
}

#[test]
fn tosca2_parameter_and_schema_refinements_that_narrow_are_accepted() {
    accepted(
        "tosca_definitions_version: tosca_2_0
data_types:
  Port:
    derived_from: integer
    validation: { $greater_or_equal: [ $value, 1 ] }
interface_types:
  Deploy:
    inputs:
      mode: { type: string, required: false }
    operations:
      run:
        inputs:
          retries: { type: integer }
        outputs:
          address: { type: string }
  CarefulDeploy:
    derived_from: Deploy
    inputs:
      mode: { type: string, required: true, default: safe }
    operations:
      run:
        inputs:
          retries: { type: integer, validation: { $less_or_equal: [ $value, 3 ] } }
node_types:
  Server:
    attributes:
      ip: { type: string }
    properties:
      ports:
        type: map
        key_schema: string
        entry_schema: { type: integer }
    interfaces:
      deploy:
        type: CarefulDeploy
        operations:
          run:
            inputs:
              retries: { type: integer, default: 2 }
            outputs:
              address: { mapping: [ SELF, ip ] }
  WebServer:
    derived_from: Server
    properties:
      ports:
        type: map
        key_schema: { type: string }
        entry_schema: { type: Port }
    interfaces:
      deploy:
        operations:
          run:
            inputs:
              retries: { type: integer, default: 1 }
",
    );
}

#[test]
fn simple_profile_parameter_and_schema_refinements_that_narrow_are_accepted() {
    accepted(
        "tosca_definitions_version: tosca_simple_yaml_1_3
data_types:
  Port:
    derived_from: integer
    constraints:
      - in_range: [ 1, 65535 ]
  Limits:
    derived_from: tosca.datatypes.Root
    properties:
      per_user:
        type: map
        entry_schema: integer
  TightLimits:
    derived_from: Limits
    properties:
      per_user:
        type: map
        entry_schema: Port
interface_types:
  Deploy:
    derived_from: tosca.interfaces.Root
    run:
      inputs:
        target:
          type: string
          required: false
node_types:
  App:
    derived_from: tosca.nodes.Root
    interfaces:
      Deploy:
        type: Deploy
        run:
          inputs:
            target:
              type: string
              required: true
              default: local
",
    );
}

/// The valid counterpart of `property-def-2-0-new-without-type` and
/// `capability-def-2-0-new-property`: a derived type refines inherited properties and
/// attributes in the single-line form and without `type`, adds new ones with their `type`, and
/// a capability definition refines its capability type's properties and attributes, also
/// through the type's own parent (§9.4 Property Definition, §8.2 Capability Definition).
#[test]
fn tosca2_refinements_name_what_they_inherit() {
    accepted(
        "tosca_definitions_version: tosca_2_0
capability_types:
  Endpoint:
    properties:
      port: { type: integer, required: false }
    attributes:
      address: { type: string }
  Web:
    derived_from: Endpoint
    properties:
      path: { type: string, required: false }
node_types:
  Server:
    properties:
      size: { type: integer }
      name: { type: string, required: false }
    attributes:
      state: { type: string }
    capabilities:
      web:
        type: Web
        properties:
          port: { required: true, default: 80 }
          path: { required: false }
        attributes:
          address: { description: where it listens }
  Small:
    derived_from: Server
    properties:
      size: { value: 1 }
      name: small
      zone: { type: string, default: a }
    attributes:
      state: { default: new }
service_template:
  node_templates:
    s:
      type: Small
",
    );
}
