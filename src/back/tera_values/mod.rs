//! Rust values as Tera values, each distinct part built once and shared.
//!
//! Every backend gives its templates the whole topology (and its own context) as Tera values.
//! The IR repeats itself a great deal: every node of a type carries the same ancestry list,
//! the same capability definitions with the same default properties, the same interfaces;
//! every relationship of a type the same `types`. At 10,000 node templates the IR holds about
//! 540,000 maps of which 110,000 are distinct, 120,000 lists of which 12,000 are distinct, and
//! 200,000 strings longer than Tera keeps inline, of which 20 are distinct. Tera values are
//! reference counted, so [`to_tera`] builds each distinct map, list and long string once and
//! hands out clones of it: the Tera copy of a topology is several times smaller than a plain
//! conversion (`tera::Value::from_serializable`), and it is made without the serde_json document
//! in between that the plain route through `toscana ir`'s JSON needed.
//!
//! What templates see is exactly what that JSON route gave them: serde_json's data model
//! (non-finite floats become `none`, because JSON has no NaN; non-negative integers are
//! unsigned; enums are tagged the way serde's derive says; map keys are strings), in the same
//! order. Sharing is invisible to templates, since values are immutable.
//!
//! How parts are recognised: every value is built bottom-up with a 64-bit hash of its content.
//! A list or map whose hash was seen before is compared with the earlier one entry by entry,
//! children by identity (they were shared already, so equal children are the same allocation)
//! and scalars by value; only an exact match is shared. A hash collision therefore costs a
//! missed share, never a wrong one. The tables live for one conversion.

mod builder;
mod serializer;
mod sharer;

use serde::Serialize;
use tera::Value;

pub use builder::{Builder, Part};
use sharer::Sharer;

/// `value` as a Tera value, distinct parts shared (see the module docs); `none` if `value`
/// cannot be expressed in serde_json's data model (a map with keys that are not strings or
/// numbers, an integer beyond 64 bits).
pub fn to_tera<T: Serialize + ?Sized>(value: &T) -> Value {
    let mut sharer = Sharer::default();
    value
        .serialize(&mut sharer)
        .map_or_else(|_| Value::none(), |built| built.value)
}

/// A serde_json document as a Tera value, distinct parts shared: what [`to_tera`] makes of
/// it, without going through serde (backends build their own contexts as JSON).
pub fn json_to_tera(value: &serde_json::Value) -> Value {
    Sharer::default().json(value).value
}

#[cfg(test)]
mod tests;
