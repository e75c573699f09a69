//! The rules of a TOSCA 2.0 scalar type definition (§9.1.2.2 scalar; T2-SCALAR-02..10):
//! units with multipliers, one of them the canonical unit with multiplier one, prefixes only
//! over a single base unit, a number type for `data_type`, and what a derived scalar type may
//! not change.
//!
//! The rules about the whole unit table are judged on the type that writes `units`, `prefixes`
//! or `canonical_unit`, over what it inherits too, so a mistake in a parent is reported once.

use crate::diag::{Diagnostic, codes};
use crate::model::TypeDef;
use crate::source::Span;
use crate::yaml::{Core, Entry, Map, Node};

use super::tosca2_types::{Checker, multiplier};

/// The keynames that write a scalar type's unit table.
const TABLE_KEYS: [&str; 3] = ["units", "prefixes", "canonical_unit"];

/// A unit table: each unit (a prefixed one written out) with its multiplier, in the order the
/// type chain writes them, inherited entries first.
type UnitTable = Vec<(String, f64)>;

pub(super) fn check(checker: &mut Checker, name: &str, map: &Map, defs: &[&TypeDef]) {
    let scalar = ScalarType {
        name,
        map,
        defs,
        parents: defs.iter().skip(1).filter_map(|d| d.def.as_map()).collect(),
    };
    scalar.check_units_written(checker);
    let integer = scalar.check_data_type(checker);
    scalar.check_canonical_unit_kept(checker);
    // A `units` or `prefixes` that is not a map is reported where the grammar reads it (the
    // keyname table of §9.1.2.2 scalar); the rules below read maps, and judged against a table
    // that is not one they would only report the same mistake again in other words.
    let mut tables = Vec::new();
    for key in ["units", "prefixes"] {
        match map.get(key).map(Node::as_map) {
            Some(Some(table)) => tables.push((key, table)),
            Some(None) => return,
            None => {}
        }
    }
    for (key, table) in tables {
        scalar.check_multipliers(checker, key, table, integer);
    }
    if TABLE_KEYS.iter().any(|k| map.contains_key(k)) {
        scalar.check_unit_table(checker);
    }
}

/// One scalar type definition as the rules read it: what it writes (`map`), and the chain it
/// inherits from, so each rule can compare the two without being handed them one by one.
struct ScalarType<'a> {
    name: &'a str,
    map: &'a Map,
    /// The type chain, this type first (its span is where a rule about the whole type points).
    defs: &'a [&'a TypeDef],
    /// The definitions of the types it derives from, nearest first.
    parents: Vec<&'a Map>,
}

impl ScalarType<'_> {
    /// A type derived from `scalar` itself must list its units: there is nothing to inherit.
    fn check_units_written(&self, checker: &mut Checker) {
        let derives_from_scalar = self
            .map
            .get("derived_from")
            .and_then(Node::as_str)
            .is_some_and(|p| p == "scalar");
        if derives_from_scalar && !self.map.contains_key("units") {
            checker.report(
                Diagnostic::error(
                    codes::TOSCA_MISSING_KEY,
                    format!("scalar type `{}` has no `units`", self.name),
                )
                .at(self.defs[0].span)
                .hint("a scalar type lists its units with their multipliers, at least one of them 1, such as `units: { B: 1 }` (§9.1.2.2 scalar)"),
            );
        }
    }

    /// `data_type`: a number type, fixed once a scalar type has it (default float). Returns
    /// whether the number is an integer, which the multipliers must then be too.
    fn check_data_type(&self, checker: &mut Checker) -> bool {
        let name = self.name;
        let inherited = self.parents.iter().find_map(|m| m.get("data_type"));
        let inherited_data_type = inherited.and_then(Node::as_str).unwrap_or("float");
        let Some((entry, data_type)) = self
            .map
            .entry("data_type")
            .and_then(|e| Some((e, e.value.as_str()?)))
        else {
            let at = inherited.map_or(self.defs[0].span, |n| n.span);
            return checker.number_base(inherited_data_type, at) == Some("integer");
        };
        let mut integer = false;
        match checker.number_base(data_type, entry.value.span) {
            None => checker.report(
                Diagnostic::error(
                    codes::TOSCA_TYPE_MISMATCH,
                    format!("the `data_type` of scalar type `{name}` is `{data_type}`, not a number type"),
                )
                .at(entry.value.span)
                .hint("write `integer`, `float`, or a data type derived from one of them (§9.1.2.2 scalar)"),
            ),
            Some(base) => integer = base == "integer",
        }
        if !self.parents.is_empty() && data_type != inherited_data_type {
            checker.report(
                Diagnostic::error(
                    codes::TOSCA_SHAPE,
                    format!(
                        "scalar type `{name}` changes the `data_type` it inherits (`{inherited_data_type}`) to `{data_type}`"
                    ),
                )
                .at_with(entry.key.span, "the data_type of a scalar type cannot be changed by derivation")
                .hint("remove `data_type` here, or derive from `scalar` itself (§9.1.2.2 scalar)"),
            );
        }
        integer
    }

    /// `canonical_unit`: never added or changed by derivation.
    fn check_canonical_unit_kept(&self, checker: &mut Checker) {
        let Some(entry) = self.map.entry("canonical_unit") else {
            return;
        };
        if self.parents.is_empty() {
            return;
        }
        let inherited = self
            .parents
            .iter()
            .find_map(|m| m.get("canonical_unit").and_then(Node::as_str));
        if inherited != entry.value.as_str() {
            checker.report(
                Diagnostic::error(
                    codes::TOSCA_SHAPE,
                    format!(
                        "scalar type `{}` adds or changes `canonical_unit` by derivation",
                        self.name
                    ),
                )
                .at(entry.key.span)
                .hint("a derived scalar type keeps the canonical unit of its parent (§9.1.2.2 scalar)"),
            );
        }
    }

    /// The multipliers `key` (`units` or `prefixes`) writes: a map of names to numbers.
    fn check_multipliers(&self, checker: &mut Checker, key: &str, table: &Map, integer: bool) {
        for entry in table.entries() {
            let what = format!(
                "the multiplier of {} `{}`",
                if key == "units" { "unit" } else { "prefix" },
                entry.key.scalar_text().unwrap_or_default()
            );
            self.check_multiplier(checker, &what, entry, integer);
        }
    }

    /// One multiplier: an integer or float above zero; an integer for an integer data_type.
    fn check_multiplier(&self, checker: &mut Checker, what: &str, entry: &Entry, integer: bool) {
        let name = self.name;
        match multiplier(&entry.value) {
            None => checker.report(
                Diagnostic::error(
                    codes::TOSCA_TYPE_MISMATCH,
                    format!("{what} in scalar type `{name}` is not a number"),
                )
                .at(entry.value.span)
                .hint("a multiplier is an integer or a float (§9.1.2.2 scalar)"),
            ),
            Some(m) if m <= 0.0 || !m.is_finite() => checker.report(
                Diagnostic::error(
                    codes::TOSCA_TYPE_MISMATCH,
                    format!("{what} in scalar type `{name}` is {m}; a multiplier converts a value into the canonical unit and must be above zero"),
                )
                .at(entry.value.span),
            ),
            Some(_) => {
                if integer && !matches!(entry.value.as_scalar().map(|s| s.core), Some(Core::Int(_)))
                {
                    checker.report(
                        Diagnostic::error(
                            codes::TOSCA_TYPE_MISMATCH,
                            format!("{what} in scalar type `{name}` must be an integer, since its data_type is integer"),
                        )
                        .at(entry.value.span)
                        .hint("§9.1.2.2 scalar: if the data_type is integer then the multiplier MUST be an integer"),
                    );
                }
            }
        }
    }

    /// The entries of `key` over the whole chain, inherited ones first, a unit written again
    /// replacing the inherited one.
    fn inherited(&self, key: &str) -> UnitTable {
        let mut out: UnitTable = Vec::new();
        for m in self.parents.iter().rev().chain(std::iter::once(&self.map)) {
            for entry in m
                .get(key)
                .and_then(Node::as_map)
                .map_or(&[][..], Map::entries)
            {
                if let (Some(unit), Some(factor)) =
                    (entry.key.scalar_text(), multiplier(&entry.value))
                {
                    out.retain(|(u, _)| u != unit);
                    out.push((unit.to_string(), factor));
                }
            }
        }
        out
    }

    /// The rules about the whole unit table, inherited entries included: prefixes only over a
    /// single base unit, a unit with multiplier 1, and a canonical unit that is one of them.
    fn check_unit_table(&self, checker: &mut Checker) {
        let units = self.inherited("units");
        let prefixes = self.inherited("prefixes");
        let map = self.map;
        let at = map
            .entry("units")
            .or_else(|| map.entry("prefixes"))
            .or_else(|| map.entry("canonical_unit"))
            .map_or(self.defs[0].span, |e| e.key.span);
        let single_base_unit = units.len() == 1 && units[0].1 == 1.0;
        if !prefixes.is_empty() && !single_base_unit {
            checker.report(
                Diagnostic::error(
                    codes::TOSCA_SHAPE,
                    format!("scalar type `{}` has `prefixes`, so its `units` must be a single unit with multiplier 1", self.name),
                )
                .at(map.entry("prefixes").map_or(at, |e| e.key.span))
                .hint("§9.1.2.2 scalar: if prefixes is used then units MUST only contain one entry, with multiplier 1; list other units without prefixes"),
            );
            return;
        }
        let with_prefixes = !prefixes.is_empty();
        let table: UnitTable = if with_prefixes {
            prefixes
                .iter()
                .map(|(p, f)| (format!("{p}{}", units[0].0), f * units[0].1))
                .collect()
        } else {
            units
        };
        let ones: Vec<&str> = table
            .iter()
            .filter(|(_, f)| *f == 1.0)
            .map(|(u, _)| u.as_str())
            .collect();
        let canonical = self
            .defs
            .iter()
            .find_map(|d| d.def.as_map()?.get("canonical_unit"))
            .and_then(|n| n.as_str().map(|t| (t, n.span)));
        self.check_unit_of_one(checker, &ones, canonical.is_some(), with_prefixes, at);
        if let Some((unit, span)) = canonical {
            self.check_canonical_unit(checker, &table, &ones, unit, span);
        }
    }

    /// At least one unit has multiplier 1, and when several do, `canonical_unit` says which
    /// of them values are converted into.
    fn check_unit_of_one(
        &self,
        checker: &mut Checker,
        ones: &[&str],
        has_canonical: bool,
        with_prefixes: bool,
        at: Span,
    ) {
        let name = self.name;
        if ones.is_empty() {
            checker.report(
                Diagnostic::error(
                    codes::TOSCA_SHAPE,
                    format!("scalar type `{name}` has no unit with multiplier 1"),
                )
                .at(at)
                .hint(if with_prefixes {
                    "with prefixes, the unit strings are prefix + unit: add the prefix \"\" with multiplier 1 to make the base unit one (§9.1.2.2 scalar)".to_string()
                } else {
                    "§9.1.2.2 scalar: at least one unit MUST have the multiplier 1".to_string()
                }),
            );
        } else if ones.len() > 1 && !has_canonical {
            checker.report(
                Diagnostic::error(
                    codes::TOSCA_MISSING_KEY,
                    format!(
                        "scalar type `{name}` has several units with multiplier 1 ({}) and no `canonical_unit`",
                        ones.join(", ")
                    ),
                )
                .at(at)
                .hint("name one of them with `canonical_unit` (§9.1.2.2 scalar)"),
            );
        }
    }

    /// The `canonical_unit` (`unit`, written at `span`) is one of the units, with multiplier 1.
    fn check_canonical_unit(
        &self,
        checker: &mut Checker,
        table: &UnitTable,
        ones: &[&str],
        unit: &str,
        span: Span,
    ) {
        let name = self.name;
        match table.iter().find(|(u, _)| u == unit) {
            None => {
                let units: Vec<&str> = table.iter().map(|(u, _)| u.as_str()).collect();
                checker.report(
                    Diagnostic::error(
                        codes::TOSCA_UNKNOWN_NAME,
                        format!("the `canonical_unit` `{unit}` of scalar type `{name}` is not one of its units"),
                    )
                    .at(span)
                    .did_you_mean(unit, &units, Some(format!("its units are: {}", units.join(", ")))),
                );
            }
            Some((_, factor)) if *factor != 1.0 => checker.report(
                Diagnostic::error(
                    codes::TOSCA_SHAPE,
                    format!("the `canonical_unit` `{unit}` of scalar type `{name}` has the multiplier {factor}, not 1"),
                )
                .at(span)
                .hint(format!(
                    "multipliers convert values into the canonical unit (§9.1.2.2 scalar), so the canonical unit's own is 1: choose one of {}",
                    ones.join(", ")
                )),
            ),
            Some(_) => {}
        }
    }
}
