//! YAML 1.2 core schema resolution of plain scalars.
use super::Core;

/// What the core schema makes of a plain scalar. (To be written: see the loader's task.)
pub fn resolve_plain(_text: &str) -> Core {
    Core::Str
}
