use std::collections::BTreeMap;

use indexmap::IndexMap;
use serde::Serialize;
use serde_json::json;

use super::*;

/// What templates saw before: the value through serde_json, then Tera's own conversion.
fn through_json<T: Serialize + ?Sized>(value: &T) -> Value {
    let json = serde_json::to_value(value).unwrap_or(serde_json::Value::Null);
    Value::try_from_serializable(&json).unwrap()
}

/// Equal in every way a template can tell: kind (so `1` is not `1.0`), value, and the order of
/// map keys.
fn assert_same(a: &Value, b: &Value, path: &str) {
    assert_eq!(a.kind(), b.kind(), "kind at {path}: {a:?} vs {b:?}");
    if let (Some(x), Some(y)) = (a.as_map(), b.as_map()) {
        let kx: Vec<_> = x.keys().map(|k| k.to_string()).collect();
        let ky: Vec<_> = y.keys().map(|k| k.to_string()).collect();
        assert_eq!(kx, ky, "keys at {path}");
        for ((k, v), (_, w)) in x.iter().zip(y) {
            assert_same(v, w, &format!("{path}.{k}"));
        }
    } else if let (Some(x), Some(y)) = (a.as_array(), b.as_array()) {
        assert_eq!(x.len(), y.len(), "length at {path}");
        for (i, (v, w)) in x.iter().zip(y).enumerate() {
            assert_same(v, w, &format!("{path}[{i}]"));
        }
    } else {
        assert_eq!(a, b, "value at {path}");
    }
}

#[derive(Serialize)]
#[serde(tag = "kind", content = "value", rename_all = "snake_case")]
enum Adjacent {
    Nothing,
    Number(f64),
    Pair(i64, String),
}

#[derive(Serialize)]
enum External {
    Unit,
    Newtype(u8),
    Tuple(i32, bool),
    Struct { a: Option<i8>, b: char },
}

#[derive(Serialize)]
struct Newtype(u64);

#[derive(Serialize)]
struct Everything {
    unsigned: u64,
    negative: i64,
    positive_signed: i64,
    big: i128,
    float: f64,
    infinite: f64,
    nan: f32,
    text: &'static str,
    long_text: String,
    none: Option<String>,
    some: Option<&'static str>,
    unit: (),
    tuple: (u8, &'static str),
    bytes: serde_json::Value,
    newtype: Newtype,
    adjacent: Vec<Adjacent>,
    external: Vec<External>,
    ordered: IndexMap<String, i32>,
    sorted: BTreeMap<i32, &'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    skipped: Option<u8>,
    json: serde_json::Value,
}

fn everything() -> Everything {
    Everything {
        unsigned: 7,
        negative: -3,
        positive_signed: 5,
        big: 12,
        float: 2.5,
        infinite: f64::INFINITY,
        nan: f32::NAN,
        text: "short",
        long_text: "a string longer than twenty-one bytes".into(),
        none: None,
        some: Some("x"),
        unit: (),
        tuple: (1, "one"),
        bytes: json!([1, 2]),
        newtype: Newtype(9),
        adjacent: vec![
            Adjacent::Nothing,
            Adjacent::Number(1.0),
            Adjacent::Pair(-1, "p".into()),
        ],
        external: vec![
            External::Unit,
            External::Newtype(3),
            External::Tuple(-4, true),
            External::Struct {
                a: Some(-1),
                b: 'é',
            },
        ],
        ordered: [("z", 1), ("a", 2), ("m", 3)]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
        sorted: [(2, "two"), (1, "one")].into_iter().collect(),
        skipped: None,
        json: json!({ "k": [null, true, 1.5, -2, "s", { "z": {}, "a": [] }] }),
    }
}

#[test]
fn values_are_what_the_json_route_gave_templates() {
    let value = everything();
    assert_same(&to_tera(&value), &through_json(&value), "");
    // A JSON document converted directly is the same as through serde.
    let json = serde_json::to_value(&value).unwrap();
    assert_same(&json_to_tera(&json), &through_json(&json), "");
    assert_same(
        &json_to_tera(&json!(-1.5e300)),
        &through_json(&-1.5e300),
        "",
    );
}

#[test]
fn non_finite_floats_are_none_and_integers_keep_their_json_kind() {
    let v = to_tera(&everything());
    let get = |k: &str| v.get_from_path(k).cloned().unwrap();
    assert!(get("infinite").is_none());
    assert!(get("nan").is_none());
    assert!(get("positive_signed").is_u64());
    assert!(get("negative").is_i64());
    assert!(get("float").is_f64());
}

#[test]
fn identical_parts_are_one_allocation() {
    let ancestry = [
        "tosca.capabilities.Endpoint.Database",
        "tosca.capabilities.Root",
    ];
    let value = json!({
        "a": { "types": ancestry, "properties": { "port": 5432 } },
        "b": { "types": ancestry, "properties": { "port": 5432 } },
        "c": { "types": ancestry, "properties": { "port": 5433 } },
    });
    for v in [to_tera(&value), json_to_tera(&value)] {
        shares_identical_parts(&v);
        assert_same(&v, &through_json(&value), "");
    }
}

fn shares_identical_parts(v: &Value) {
    let at = |p: &str| v.get_from_path(p).unwrap().clone();
    assert!(std::ptr::eq(
        at("a").as_map().unwrap(),
        at("b").as_map().unwrap()
    ));
    assert!(std::ptr::eq(
        at("a.types").as_array().unwrap(),
        at("c.types").as_array().unwrap()
    ));
    assert!(!std::ptr::eq(
        at("a").as_map().unwrap(),
        at("c").as_map().unwrap()
    ));
}

#[test]
fn look_alikes_are_not_shared() {
    // Same entries in another order, the same text as another kind, a longer list: each keeps
    // its own value.
    let value = json!([
        { "x": 1, "y": 2 },
        { "y": 2, "x": 1 },
        [1], ["1"], [1.0], [true], [null], [[]], [{}], [1, 1],
        { "x": "1" }, { "x": [1] }, { "x": {} },
    ]);
    for v in [to_tera(&value), json_to_tera(&value)] {
        assert_same(&v, &through_json(&value), "");
        not_shared(v.as_array().unwrap());
    }
}

fn not_shared(items: &[Value]) {
    for (i, a) in items.iter().enumerate() {
        for b in &items[i + 1..] {
            let shared = match (a.as_map(), b.as_map()) {
                (Some(x), Some(y)) => std::ptr::eq(x, y),
                _ => {
                    matches!((a.as_array(), b.as_array()), (Some(x), Some(y)) if std::ptr::eq(x, y) && !x.is_empty())
                }
            };
            assert!(!shared, "{a:?} and {b:?} must not be shared");
        }
    }
}

#[test]
fn keys_that_json_cannot_hold_give_none() {
    let mut map = BTreeMap::new();
    map.insert(vec![1], 2);
    assert!(to_tera(&map).is_none());
}

/// The topology of every example template, converted with sharing, is what the JSON route gave.
#[test]
fn example_topologies_are_what_the_json_route_gave() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut read_any = false;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "yaml") {
            continue;
        }
        let options = crate::pipeline::ReadOptions {
            input: Some(crate::source::InputArg::Path(path.clone())),
            ..Default::default()
        };
        let mut diags = crate::diag::Diagnostics::new();
        let Some(topology) = crate::pipeline::read(&options, &mut diags).topology else {
            continue;
        };
        read_any = true;
        assert_same(
            &to_tera(&topology),
            &through_json(&topology),
            &path.display().to_string(),
        );
    }
    assert!(read_any, "no example was read");
}
