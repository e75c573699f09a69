//! A [`Node`] tree written back as YAML (`toscana resolve`), through `serde-saphyr`.
//!
//! Scalars keep their core-schema type: a string stays a string (quoted where YAML would read
//! it as something else, like `yes` or `80`), an integer an integer, a float a float. What is not
//! kept is the exact spelling of a number (`0x1F` is written `31`, `1.10` is written `1.1`),
//! comments, anchors and the quoting style.

use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

use super::{Core, Kind, Node};

/// A node as serde data.
pub struct Data<'a>(pub &'a Node);

impl Serialize for Data<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match &self.0.kind {
            Kind::Scalar(scalar) => match scalar.core {
                Core::Null => s.serialize_unit(),
                Core::Bool(b) => s.serialize_bool(b),
                Core::Int(i) => s.serialize_i64(i),
                Core::Float(f) => s.serialize_f64(f),
                Core::Str => s.serialize_str(&scalar.text),
            },
            Kind::Seq(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(&Data(item))?;
                }
                seq.end()
            }
            Kind::Map(map) => {
                let mut out = s.serialize_map(Some(map.len()))?;
                for e in map.entries() {
                    out.serialize_entry(&Data(&e.key), &Data(&e.value))?;
                }
                out.end()
            }
        }
    }
}

/// The tree as a YAML document.
pub fn to_yaml(node: &Node) -> Result<String, String> {
    serde_saphyr::to_string(&Data(node)).map_err(|e| e.to_string())
}
