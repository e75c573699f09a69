//! The hash maps of the hot paths, with foldhash instead of the standard library's SipHash.
//!
//! SipHash was about a tenth of `toscana check` (type names, template names and keys hashed
//! many times per node template). foldhash hashes short strings in a fraction of the time.
//! `RandomState` is seeded per process, as the standard library's is, so a crafted input cannot
//! pick keys that collide; iteration order of these maps never reaches an output (sources keep
//! their order with `indexmap`, DESIGN.md "Determinism and safety").

/// A `HashMap` hashed with foldhash.
pub(crate) type FastMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;

/// A `HashSet` hashed with foldhash.
pub(crate) type FastSet<T> = std::collections::HashSet<T, foldhash::fast::RandomState>;
