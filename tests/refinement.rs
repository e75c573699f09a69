//! Refinement that narrows is accepted: the valid counterparts of the `refine-*` bad-input
//! cases. A derived type may restate an inherited property's type, narrow it to a derived data
//! type, turn `required: false` into `true`, and fix a `value` its parent left open; each such
//! file checks with no diagnostic.

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
