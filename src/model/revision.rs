//! Which revision of TOSCA a file declares, ordered, so a keyname or a rule can say from which
//! revision on it applies.

/// A Simple Profile version, ordered, plus TOSCA 2.0 for keynames only 2.0 has.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub enum Revision {
    V1_0,
    V1_1,
    V1_2,
    V1_3,
    Tosca2,
}

impl Revision {
    /// The Simple Profile version a `tosca_definitions_version` value declares. The NFV profile
    /// 1.0 builds on Simple Profile 1.0, whose normative types it gets too.
    pub fn of(version: &str) -> Option<Self> {
        match version {
            "tosca_simple_yaml_1_0"
            | "tosca_simple_yaml_1_0_0"
            | "http://docs.oasis-open.org/tosca/ns/simple/yaml/1.0"
            | "http://docs.oasis-open.org/tosca/simple/1.0"
            | "tosca_simple_profile_for_nfv_1_0_0" => Some(Revision::V1_0),
            "tosca_simple_yaml_1_1" => Some(Revision::V1_1),
            "tosca_simple_yaml_1_2" => Some(Revision::V1_2),
            "tosca_simple_yaml_1_3" => Some(Revision::V1_3),
            _ => None,
        }
    }

    pub fn spelling(self) -> &'static str {
        match self {
            Revision::V1_0 => "tosca_simple_yaml_1_0",
            Revision::V1_1 => "tosca_simple_yaml_1_1",
            Revision::V1_2 => "tosca_simple_yaml_1_2",
            Revision::V1_3 => "tosca_simple_yaml_1_3",
            Revision::Tosca2 => "tosca_2_0",
        }
    }

    pub fn title(self) -> &'static str {
        match self {
            Revision::V1_0 => "Simple Profile 1.0",
            Revision::V1_1 => "Simple Profile 1.1",
            Revision::V1_2 => "Simple Profile 1.2",
            Revision::V1_3 => "Simple Profile 1.3",
            Revision::Tosca2 => "TOSCA 2.0",
        }
    }
}
