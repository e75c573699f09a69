//! The rules of a TOSCA 2.0 scalar type definition (§9.1.2.2 scalar; T2-SCALAR-02..10):
//! units with multipliers, one of them the canonical unit with multiplier one, prefixes only
//! over a single base unit, a number type for `data_type`, and what a derived scalar type may
//! not change.
//!
//! The rules about the whole unit table are judged on the type that writes `units`, `prefixes`
//! or `canonical_unit`, over what it inherits too, so a mistake in a parent is reported once.

use crate::diag::{Diagnostic, codes};
use crate::model::TypeDef;
use crate::yaml::{Core, Map, Node};

use super::tosca2_types::{Checker, multiplier};

pub(super) fn check(checker: &mut Checker, name: &str, map: &Map, defs: &[&TypeDef]) {
    let parents: Vec<&Map> = defs.iter().skip(1).filter_map(|d| d.def.as_map()).collect();
    let derives_from_scalar = map
        .get("derived_from")
        .and_then(Node::as_str)
        .is_some_and(|p| p == "scalar");
    if derives_from_scalar && !map.contains_key("units") {
        checker.report(
            Diagnostic::error(
                codes::TOSCA_MISSING_KEY,
                format!("scalar type `{name}` has no `units`"),
            )
            .at(defs[0].span)
            .hint("a scalar type lists its units with their multipliers, at least one of them 1, such as `units: { B: 1 }` (§9.1.2.2 scalar)"),
        );
    }

    // data_type: a number type, fixed once a scalar type has it (default float).
    let inherited = parents.iter().find_map(|m| m.get("data_type"));
    let inherited_data_type = inherited.and_then(Node::as_str).unwrap_or("float");
    let mut integer = false;
    if let Some(entry) = map.entry("data_type")
        && let Some(data_type) = entry.value.as_str()
    {
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
        if !parents.is_empty() && data_type != inherited_data_type {
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
    } else if checker.number_base(
        inherited_data_type,
        inherited.map_or(defs[0].span, |n| n.span),
    ) == Some("integer")
    {
        integer = true;
    }

    // canonical_unit: never added or changed by derivation.
    if let Some(entry) = map.entry("canonical_unit")
        && !parents.is_empty()
    {
        let inherited = parents
            .iter()
            .find_map(|m| m.get("canonical_unit").and_then(Node::as_str));
        if inherited != entry.value.as_str() {
            checker.report(
                Diagnostic::error(
                    codes::TOSCA_SHAPE,
                    format!("scalar type `{name}` adds or changes `canonical_unit` by derivation"),
                )
                .at(entry.key.span)
                .hint("a derived scalar type keeps the canonical unit of its parent (§9.1.2.2 scalar)"),
            );
        }
    }

    // Each multiplier: an integer or float above zero; an integer for an integer data_type.
    for key in ["units", "prefixes"] {
        let Some(table) = map.get(key) else { continue };
        let Some(table) = table.as_map() else {
            checker.report(
                Diagnostic::error(
                    codes::TOSCA_SHAPE,
                    format!(
                        "`{key}` of scalar type `{name}` must be a map of names to multipliers"
                    ),
                )
                .at(table.span),
            );
            continue;
        };
        for entry in table.entries() {
            let what = format!(
                "the multiplier of {} `{}`",
                if key == "units" { "unit" } else { "prefix" },
                entry.key.scalar_text().unwrap_or_default()
            );
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
                    if integer
                        && !matches!(entry.value.as_scalar().map(|s| s.core), Some(Core::Int(_)))
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
    }

    if !["units", "prefixes", "canonical_unit"]
        .iter()
        .any(|k| map.contains_key(k))
    {
        return;
    }
    // The whole table, inherited entries first.
    let collect = |key: &str| -> Vec<(String, f64)> {
        let mut out: Vec<(String, f64)> = Vec::new();
        for m in parents.iter().rev().chain(std::iter::once(&map)) {
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
    };
    let units = collect("units");
    let prefixes = collect("prefixes");
    let at = map
        .entry("units")
        .or_else(|| map.entry("prefixes"))
        .or_else(|| map.entry("canonical_unit"))
        .map_or(defs[0].span, |e| e.key.span);
    let single_base_unit = units.len() == 1 && units[0].1 == 1.0;
    if !prefixes.is_empty() && !single_base_unit {
        checker.report(
            Diagnostic::error(
                codes::TOSCA_SHAPE,
                format!("scalar type `{name}` has `prefixes`, so its `units` must be a single unit with multiplier 1"),
            )
            .at(map.entry("prefixes").map_or(at, |e| e.key.span))
            .hint("§9.1.2.2 scalar: if prefixes is used then units MUST only contain one entry, with multiplier 1; list other units without prefixes"),
        );
        return;
    }
    let table: Vec<(String, f64)> = if prefixes.is_empty() {
        units
    } else {
        prefixes
            .iter()
            .map(|(p, f)| (format!("{p}{}", units[0].0), f * units[0].1))
            .collect()
    };
    let ones: Vec<&str> = table
        .iter()
        .filter(|(_, f)| *f == 1.0)
        .map(|(u, _)| u.as_str())
        .collect();
    let canonical = defs
        .iter()
        .find_map(|d| d.def.as_map()?.get("canonical_unit"))
        .and_then(|n| n.as_str().map(|t| (t, n.span)));
    if ones.is_empty() {
        checker.report(
            Diagnostic::error(
                codes::TOSCA_SHAPE,
                format!("scalar type `{name}` has no unit with multiplier 1"),
            )
            .at(at)
            .hint(if prefixes.is_empty() {
                "§9.1.2.2 scalar: at least one unit MUST have the multiplier 1".to_string()
            } else {
                "with prefixes, the unit strings are prefix + unit: add the prefix \"\" with multiplier 1 to make the base unit one (§9.1.2.2 scalar)".to_string()
            }),
        );
    } else if ones.len() > 1 && canonical.is_none() {
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
    if let Some((unit, span)) = canonical {
        match table.iter().find(|(u, _)| u == unit) {
            None => checker.report(
                Diagnostic::error(
                    codes::TOSCA_UNKNOWN_NAME,
                    format!("the `canonical_unit` `{unit}` of scalar type `{name}` is not one of its units"),
                )
                .at(span)
                .did_you_mean(
                    unit,
                    &table.iter().map(|(u, _)| u.as_str()).collect::<Vec<_>>(),
                    Some(format!("its units are: {}", table.iter().map(|(u, _)| u.as_str()).collect::<Vec<_>>().join(", "))),
                ),
            ),
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
