//! YAML 1.2 into a span-keeping tree.
//!
//! granit-parser gives events with byte and line/column spans; [`load`] builds [`Node`] trees
//! from them and applies the rules TOSCA needs that no YAML library applies for us: the core
//! schema resolved by us (`yes` is a string, `017` is 17), duplicate keys compared on decoded
//! text (`a` and `'a'` collide), aliases expanded under a budget, `<<` merges, non-scalar keys
//! kept, one document per file, and precise messages for tabs and non-breaking spaces.

pub mod emit;
mod json;
mod load;
mod node;
mod overlay;
// Shared with build.rs, which records with it; the crate only replays.
#[allow(dead_code)]
mod recorded_format;
mod reuse;
mod schema;

pub use json::plain_json;
pub use load::{
    load, load_apart, load_own, load_recorded, load_recorded_apart, load_recorded_own,
    placed_by_name,
};
pub use node::{Core, Entry, Kind, Map, Node, Scalar, Style};
pub use overlay::{overlay, overlay_maps};
pub use reuse::TreeCache;
pub use schema::{resolve_plain, yaml11_bool_word};
