//! The pure built-ins on known and unknown arguments: results, wrong arguments, and the
//! decisions the module docs list.

use super::sets::plain_sets;
use super::*;
use crate::ir::{Call, Dialect, ScalarUnit};

/// The pure built-in of TOSCA 2.0 called `name` applied to `args`.
fn apply(name: &str, args: &[Value], patterns: &Patterns) -> Outcome {
    super::apply(&Function::parse(name, Dialect::Tosca2), args, patterns)
}

/// A map of values keyed by text, for tests.
fn map(entries: &[(&str, Value)]) -> Value {
    Value::Map(Box::new(
        entries
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect::<indexmap::IndexMap<_, _>>(),
    ))
}

fn s(t: &str) -> Value {
    Value::string(t)
}
fn i(n: i64) -> Value {
    Value::Integer(n)
}
fn b(v: bool) -> Value {
    Value::Boolean(v)
}
fn l(items: Vec<Value>) -> Value {
    Value::List(items)
}
fn later() -> Value {
    Value::Call(Box::new(Call::new(
        Function::GetAttribute,
        vec![s("x"), s("y")],
    )))
}
fn value(name: &str, args: Vec<Value>) -> Value {
    match apply(name, &args, &Patterns::default()) {
        Outcome::Value(v) => v,
        other => panic!("{name}: {other:?}"),
    }
}
fn wrong_arg(name: &str, args: Vec<Value>) -> Option<usize> {
    match apply(name, &args, &Patterns::default()) {
        Outcome::Wrong { arg, .. } => arg,
        other => panic!("{name} should be wrong: {other:?}"),
    }
}
fn gb(n: f64) -> Value {
    Value::Scalar(Box::new(ScalarUnit {
        text: format!("{n} GB"),
        number: n,
        unit: "GB".into(),
        canonical: n * 1e9,
        canonical_unit: "B".into(),
    }))
}

#[test]
fn logic_short_circuits_over_unknown_arguments() {
    assert_eq!(value("and", vec![b(true), b(true)]), b(true));
    assert_eq!(value("and", vec![later(), b(false)]), b(false));
    assert_eq!(
        apply("and", &[later(), b(true)], &Patterns::default()),
        Outcome::Later
    );
    assert_eq!(value("or", vec![later(), b(true)]), b(true));
    assert_eq!(value("xor", vec![b(true), b(false)]), b(true));
    assert_eq!(value("not", vec![b(true)]), b(false));
    assert_eq!(wrong_arg("and", vec![b(true), s("yes")]), Some(1));
}

#[test]
fn comparisons_promote_integers_and_read_strings_as_the_other_side() {
    assert_eq!(
        value("greater_than", vec![i(3), Value::Float(2.5)]),
        b(true)
    );
    assert_eq!(value("less_than", vec![s("a"), s("b")]), b(true));
    assert_eq!(
        value("greater_or_equal", vec![gb(1.0), s("0.5 GB")]),
        b(true)
    );
    assert_eq!(
        value("less_than", vec![gb(1.0), s("2000000000 B")]),
        b(true)
    );
    // A unit only the scalar type knows cannot be read here: left for later.
    assert_eq!(
        apply("less_than", &[gb(1.0), s("3 TB")], &Patterns::default()),
        Outcome::Later
    );
    // Different types are not ordered: false (§10.2.2.2.2 $greater_than).
    assert_eq!(value("greater_than", vec![s("3"), i(2)]), b(false));
    assert_eq!(wrong_arg("greater_than", vec![l(vec![]), i(2)]), Some(0));
    assert_eq!(value("equal", vec![i(2), Value::Float(2.0)]), b(true));
    assert_eq!(wrong_arg("equal", vec![s("2"), i(2)]), Some(1));
    assert_eq!(
        value("valid_values", vec![i(2), l(vec![i(1), i(2)])]),
        b(true)
    );
    // Timestamps by instant: 10:00 at +02:00 is before 09:00 UTC.
    let ts = |t: &str| Value::Timestamp(t.to_string());
    let (early, late) = (ts("2024-01-01T10:00:00+02:00"), ts("2024-01-01T09:00:00Z"));
    assert_eq!(value("less_than", vec![early.clone(), late]), b(true));
    assert_eq!(
        value("equal", vec![early, s("2024-01-01T08:00:00Z")]),
        b(true)
    );
}

#[test]
fn in_range_includes_both_bounds_and_checks_them() {
    let range = |lo: Value, hi: Value| l(vec![lo, hi]);
    assert_eq!(value("in_range", vec![i(0), range(i(0), i(10))]), b(true));
    assert_eq!(value("in_range", vec![i(10), range(i(0), i(10))]), b(true));
    assert_eq!(value("in_range", vec![i(11), range(i(0), i(10))]), b(false));
    assert_eq!(
        value("in_range", vec![Value::Float(2.5), range(i(2), i(3))]),
        b(true)
    );
    assert_eq!(
        value("in_range", vec![gb(2.0), range(s("1 GB"), gb(4.0))]),
        b(true)
    );
    // A value of another kind is never in the range.
    assert_eq!(
        value("in_range", vec![s("5"), range(i(0), i(10))]),
        b(false)
    );
    assert_eq!(
        apply(
            "in_range",
            &[later(), range(i(0), i(10))],
            &Patterns::default()
        ),
        Outcome::Later
    );
    // The bounds are judged even when the value is known only later.
    assert_eq!(
        wrong_arg("in_range", vec![later(), range(i(10), i(0))]),
        Some(1)
    );
    assert_eq!(wrong_arg("in_range", vec![i(1), l(vec![i(0)])]), Some(1));
    assert_eq!(wrong_arg("in_range", vec![i(1), i(0)]), Some(1));
    assert_eq!(
        wrong_arg("in_range", vec![i(1), range(i(0), s("x"))]),
        Some(1)
    );
    assert_eq!(
        wrong_arg("in_range", vec![l(vec![]), range(i(0), i(1))]),
        Some(0)
    );
}

#[test]
fn string_and_list_predicates() {
    assert_eq!(value("matches", vec![s("abc"), s("b")]), b(true));
    assert_eq!(value("matches", vec![s("abc"), s("^b$")]), b(false));
    assert_eq!(wrong_arg("matches", vec![s("abc"), s("(")]), Some(1));
    assert_eq!(value("has_suffix", vec![s("abc"), s("bc")]), b(true));
    assert_eq!(
        value(
            "has_prefix",
            vec![l(vec![i(1), i(2), i(3)]), l(vec![i(1), i(2)])]
        ),
        b(true)
    );
    assert_eq!(
        value(
            "contains",
            vec![l(vec![i(1), i(2), i(3)]), l(vec![i(2), i(3)])]
        ),
        b(true)
    );
    assert_eq!(
        value(
            "contains",
            vec![l(vec![i(1), i(2), i(3)]), l(vec![i(3), i(2)])]
        ),
        b(false)
    );
    assert_eq!(wrong_arg("contains", vec![s("abc"), l(vec![])]), Some(1));
    let m = map(&[("a", i(1)), ("b", i(2))]);
    assert_eq!(value("has_entry", vec![m.clone(), i(2)]), b(true));
    assert_eq!(value("has_key", vec![m.clone(), s("b")]), b(true));
    assert_eq!(
        value("has_all_keys", vec![m.clone(), l(vec![s("a"), s("c")])]),
        b(false)
    );
    assert_eq!(
        value("has_any_key", vec![m.clone(), l(vec![s("a"), s("c")])]),
        b(true)
    );
    assert_eq!(
        value("has_all_entries", vec![m.clone(), l(vec![i(1), i(2)])]),
        b(true)
    );
    assert_eq!(wrong_arg("has_key", vec![l(vec![]), s("a")]), Some(0));
    assert_eq!(value("length", vec![s("zoë")]), i(3));
    assert_eq!(value("length", vec![m]), i(2));
    assert_eq!(value("length", vec![Value::Bytes("aGk=".into())]), i(2));
}

#[test]
fn strings_join_concat_and_token() {
    assert_eq!(
        value("concat", vec![s("http://"), s("h"), s(":80")]),
        s("http://h:80")
    );
    assert_eq!(
        value("concat", vec![l(vec![i(1)]), l(vec![l(vec![i(2)])])]),
        l(vec![i(1), l(vec![i(2)])])
    );
    assert_eq!(
        apply("concat", &[s("a"), later()], &Patterns::default()),
        Outcome::Later
    );
    assert_eq!(
        wrong_arg("concat", vec![s("port "), later(), i(80)]),
        Some(2)
    );
    assert_eq!(
        value("join", vec![l(vec![s("a"), s("b")]), s(",")]),
        s("a,b")
    );
    assert_eq!(value("join", vec![l(vec![s("a"), s("b")])]), s("ab"));
    assert_eq!(
        wrong_arg("join", vec![l(vec![s("prefix"), i(1111)]), s("_")]),
        Some(0)
    );
    assert_eq!(value("token", vec![s("a:b::c"), s(":"), i(2)]), s(""));
    assert_eq!(value("token", vec![s("a:b;c"), s(":;"), i(2)]), s("c"));
    assert_eq!(wrong_arg("token", vec![s("a:b"), s(":"), i(2)]), Some(2));
    assert_eq!(wrong_arg("token", vec![s("a:b"), s(":"), i(-1)]), Some(2));
}

#[test]
fn sets_of_plain_values_agree_with_comparing_each_pair() {
    let values = [
        Value::Null,
        b(true),
        b(false),
        i(1),
        i(-0),
        Value::Float(1.0),
        Value::Float(-0.0),
        Value::Float(0.5),
        Value::Float(f64::NAN),
        s("1"),
        s(""),
        s("true"),
        s("a"),
    ];
    // Every pair of lists of up to three of them, in every order.
    let lists: Vec<Vec<Value>> = (0..values.len() * values.len() * values.len())
        .map(|n| {
            let k = values.len();
            vec![
                values[n % k].clone(),
                values[n / k % k].clone(),
                values[n / k / k % k].clone(),
            ]
        })
        .collect();
    for (x, y) in lists.iter().zip(lists.iter().rev()).step_by(7) {
        for union in [true, false] {
            let lists = [x, y];
            let candidates: Vec<&Value> = if union {
                x.iter().chain(y.iter()).collect()
            } else {
                x.iter().collect()
            };
            let nan = |l: &Vec<Value>| l.iter().any(|v| matches!(v, Value::Float(f) if f.is_nan()));
            let Some(fast) = plain_sets(union, &lists, &candidates) else {
                assert!(nan(x) || nan(y), "{x:?} {y:?}");
                continue;
            };
            let mut slow: Vec<Value> = Vec::new();
            for item in candidates {
                if slow.iter().any(|o| same(o, item)) {
                    continue;
                }
                if union || y.iter().any(|v| same(v, item)) {
                    slow.push(item.clone());
                }
            }
            let text = |l: &[Value]| format!("{l:?}");
            assert_eq!(text(&fast), text(&slow), "{x:?} {y:?} union {union}");
        }
    }
}

#[test]
fn sets_keep_first_occurrence_order() {
    assert_eq!(
        value("union", vec![l(vec![i(1), i(7)]), l(vec![i(3), i(1)])]),
        l(vec![i(1), i(7), i(3)])
    );
    assert_eq!(value("union", vec![l(vec![i(1), i(1)])]), l(vec![i(1)]));
    assert_eq!(
        value(
            "intersection",
            vec![l(vec![i(3), i(1), i(3), i(2)]), l(vec![i(2), i(3)])]
        ),
        l(vec![i(3), i(2)])
    );
    assert_eq!(wrong_arg("union", vec![l(vec![]), i(1)]), Some(1));
}

#[test]
fn arithmetic() {
    assert_eq!(value("sum", vec![i(1), i(2), i(3)]), i(6));
    assert_eq!(
        value("sum", vec![i(1), Value::Float(0.5)]),
        Value::Float(1.5)
    );
    assert_eq!(value("difference", vec![i(1), i(3)]), i(-2));
    match value("sum", vec![gb(1.0), gb(2.0)]) {
        Value::Scalar(s) => assert_eq!((s.text.as_str(), s.canonical), ("3 GB", 3e9)),
        other => panic!("{other:?}"),
    }
    assert_eq!(wrong_arg("sum", vec![gb(1.0), i(2)]), Some(1));
    assert!(matches!(
        apply("sum", &[i(i64::MAX), i(1)], &Patterns::default()),
        Outcome::Wrong { arg: None, .. }
    ));
    assert_eq!(value("product", vec![i(2), i(3), i(4)]), i(24));
    assert_eq!(
        value("product", vec![i(2), Value::Float(1.5)]),
        Value::Float(3.0)
    );
    match value("product", vec![gb(2.0), i(3)]) {
        Value::Scalar(s) => assert_eq!(s.text, "6 GB"),
        other => panic!("{other:?}"),
    }
    assert_eq!(value("quotient", vec![i(7), i(2)]), Value::Float(3.5));
    assert_eq!(wrong_arg("quotient", vec![i(7), i(0)]), Some(1));
    assert_eq!(value("remainder", vec![i(7), i(2)]), i(1));
    assert_eq!(
        wrong_arg("remainder", vec![Value::Float(7.0), i(2)]),
        Some(0)
    );
    assert_eq!(value("round", vec![Value::Float(3.5)]), i(3));
    assert_eq!(value("round", vec![Value::Float(3.53)]), i(4));
    assert_eq!(value("round", vec![Value::Float(-3.5)]), i(-4));
    assert_eq!(value("floor", vec![Value::Float(-0.5)]), i(-1));
    assert_eq!(value("ceil", vec![Value::Float(0.2)]), i(1));
    assert_eq!(value("ceil", vec![i(2)]), i(2));
}

/// The IR's [`Function`] and this table say the same of every TOSCA 2.0 built-in: that it is
/// one, whether it is pure, whether it reads the representation graph.
#[test]
fn the_table_and_the_ir_agree_on_every_built_in() {
    for b in BUILT_INS.iter().chain([&IN_RANGE]) {
        let f = Function::parse(b.name, Dialect::Tosca2);
        assert!(f.is_built_in(Dialect::Tosca2), "{}", b.name);
        assert_eq!(f.is_pure(), b.group == Group::Pure, "{}", b.name);
        assert_eq!(f.is_query(), b.group == Group::Query, "{}", b.name);
    }
    for f in Function::built_ins().filter(|f| f.is_built_in(Dialect::Tosca2)) {
        let in_table = built_in(f.name()).is_some() || *f == Function::InRange;
        assert!(in_table, "{f} is no built-in of the table");
    }
}
