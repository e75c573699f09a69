//! The IR.
mod family;
pub use family::{canonical, type_matches};
