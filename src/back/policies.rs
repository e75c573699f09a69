//! How a placement or a scaling policy reads, the same for every backend: whether a placement
//! keeps its targets together or apart (and how strictly), what a scaling policy's trigger
//! watches, and which nodes a policy's targets name.
//!
//! Placement (`tosca.policies.Placement`, §5.10.2) keeps its targets together unless the policy
//! says apart: a type whose name says `Antilocate` or `AntiAffinity`, or a `policy`/`affinity`
//! property whose value says `anti` (as Heat's and Tacker's translators read them: a plain
//! placement policy is an affinity server group there). It is strict unless a value says `soft`
//! or `preferred` ([`placement_is_soft`]), as those translators' server groups are.
//!
//! Scaling (`tosca.policies.Scaling`, §5.10.3): the first trigger whose condition reads
//! `utilization greater_than N%` gives the metric (cpu unless the trigger's `metric` names
//! memory) and the threshold as written ([`utilization_trigger`]).

use crate::ir::{NodeId, Policy, PolicyTarget, Topology, Value};

use super::engine::Reader;

use super::kubernetes::values::integer;

/// Whether a placement policy keeps its targets together or apart.
#[derive(Debug, PartialEq, Eq)]
pub enum Placement {
    Together,
    Apart,
}

/// Together or apart, as the policy's type or its `policy`/`affinity`/`placement` property
/// says; together when neither does. `properties` is `p`'s, read through the backend's ledger.
pub fn placement_mode(p: &Policy, properties: Reader) -> Placement {
    let said = ["policy", "affinity", "placement", "rule"]
        .iter()
        .filter_map(|k| properties.get(k).and_then(Value::as_str))
        .map(str::to_ascii_lowercase)
        .chain(p.types.iter().map(|t| t.to_ascii_lowercase()));
    for text in said {
        if text.contains("anti") {
            return Placement::Apart;
        }
        if text.contains("affinity") || text.contains("colocate") {
            return Placement::Together;
        }
    }
    Placement::Together
}

/// Whether a placement is a preference rather than a rule: a `policy`/`affinity`/`placement`/
/// `rule` value or a type name that says `soft` or `preferred`, or `strict: false`.
pub fn placement_is_soft(p: &Policy, properties: Reader) -> bool {
    if matches!(properties.get("strict"), Some(Value::Boolean(false))) {
        return true;
    }
    ["policy", "affinity", "placement", "rule"]
        .iter()
        .filter_map(|k| properties.get(k).and_then(Value::as_str))
        .map(str::to_ascii_lowercase)
        .chain(p.types.iter().map(|t| t.to_ascii_lowercase()))
        .any(|t| t.contains("soft") || t.contains("preferred"))
}

/// The nodes a policy's targets name, groups by their members, in target order, each once.
pub fn policy_nodes(topology: &Topology, targets: &[PolicyTarget]) -> Vec<NodeId> {
    let mut out: Vec<NodeId> = Vec::new();
    for t in targets {
        let named: Vec<NodeId> = match *t {
            PolicyTarget::Node(n) => vec![n],
            PolicyTarget::Group(g) => topology[g].members.clone(),
        };
        for n in named {
            if !out.contains(&n) {
                out.push(n);
            }
        }
    }
    out
}

/// What a scaling policy's trigger watches.
#[derive(Debug, PartialEq)]
pub enum Trigger {
    /// `utilization greater_than N%` of `cpu` or `memory`.
    Utilization {
        resource: &'static str,
        percent: Option<i64>,
    },
    /// Something else, described for a warning.
    Unknown(String),
}

/// The first of a policy's `triggers` with a condition, read as a utilization threshold.
pub fn utilization_trigger(triggers: Reader) -> Option<Trigger> {
    let trigger = triggers.find_map(|t| match t {
        Value::Map(m) => Some(m),
        _ => None,
    })?;
    let condition = trigger.get("condition");
    let constraint = condition
        .and_then(|c| match c {
            Value::Map(m) => m.get("constraint").and_then(Value::as_str),
            other => other.as_str(),
        })
        .unwrap_or("");
    let metric = trigger
        .get("metric")
        .or_else(|| trigger.get("meter_name"))
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_ascii_lowercase();
    let resource = if metric.contains("mem") {
        "memory"
    } else {
        "cpu"
    };
    let words: Vec<&str> = constraint.split_whitespace().collect();
    let threshold = condition
        .and_then(|c| match c {
            Value::Map(m) => m.get("threshold").and_then(integer),
            _ => None,
        })
        .or_else(|| {
            let at = words
                .iter()
                .position(|w| matches!(*w, "greater_than" | "greater_or_equal" | "gt" | "ge"))?;
            words.get(at + 1)?.trim_end_matches('%').parse().ok()
        });
    let watches_utilization = if constraint.is_empty() {
        metric.is_empty() || metric.contains("util") || metric == "cpu" || metric == "memory"
    } else {
        constraint.contains("utilization")
    };
    if !watches_utilization || (threshold.is_none() && !constraint.is_empty()) {
        let what = if constraint.is_empty() {
            metric
        } else {
            constraint.to_string()
        };
        return Some(Trigger::Unknown(format!("`{what}`")));
    }
    Some(Trigger::Utilization {
        resource,
        percent: threshold,
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn policy(
        types: &[&str],
        properties: &[(&str, Value)],
        triggers: Option<Value>,
    ) -> Policy {
        Policy {
            name: "p".to_string(),
            type_name: types[0].to_string(),
            types: types.iter().map(|t| t.to_string()).collect(),
            description: None,
            metadata: Default::default(),
            targets: Vec::new(),
            properties: properties
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
            triggers: triggers.into_iter().map(|t| ("t".to_string(), t)).collect(),
            location: None,
        }
    }

    fn map(entries: &[(&str, Value)]) -> Value {
        Value::Map(Box::new(
            entries
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
        ))
    }

    #[test]
    fn placement_is_affinity_unless_the_policy_says_apart() {
        let plain = policy(&["tosca.policies.Placement"], &[], None);
        assert_eq!(
            placement_mode(&plain, Reader::plain(&plain.properties)),
            Placement::Together
        );
        let anti = policy(
            &["tosca.policies.Placement"],
            &[("policy", Value::String("anti-affinity".into()))],
            None,
        );
        assert_eq!(
            placement_mode(&anti, Reader::plain(&anti.properties)),
            Placement::Apart
        );
        let typed = policy(
            &["my.policies.Antilocate", "tosca.policies.Placement"],
            &[],
            None,
        );
        assert_eq!(
            placement_mode(&typed, Reader::plain(&typed.properties)),
            Placement::Apart
        );
    }

    #[test]
    fn a_placement_is_soft_only_when_it_says_so() {
        let plain = policy(&["tosca.policies.Placement"], &[], None);
        assert!(!placement_is_soft(&plain, Reader::plain(&plain.properties)));
        let soft = policy(
            &["tosca.policies.Placement"],
            &[("policy", Value::String("soft-anti-affinity".into()))],
            None,
        );
        assert!(placement_is_soft(&soft, Reader::plain(&soft.properties)));
        assert_eq!(
            placement_mode(&soft, Reader::plain(&soft.properties)),
            Placement::Apart
        );
        let lax = policy(
            &["tosca.policies.Placement"],
            &[("strict", Value::Boolean(false))],
            None,
        );
        assert!(placement_is_soft(&lax, Reader::plain(&lax.properties)));
    }

    #[test]
    fn a_utilization_trigger_gives_the_metric_and_threshold_as_written() {
        let condition = map(&[(
            "constraint",
            Value::String("utilization greater_than 50%".into()),
        )]);
        let p = policy(
            &["tosca.policies.Scaling"],
            &[],
            Some(map(&[("condition", condition)])),
        );
        assert_eq!(
            utilization_trigger(Reader::plain(&p.triggers)),
            Some(Trigger::Utilization {
                resource: "cpu",
                percent: Some(50)
            })
        );
        let memory = policy(
            &["tosca.policies.Scaling"],
            &[],
            Some(map(&[
                ("metric", Value::String("memory_util".into())),
                ("condition", map(&[("threshold", Value::Integer(70))])),
            ])),
        );
        assert_eq!(
            utilization_trigger(Reader::plain(&memory.triggers)),
            Some(Trigger::Utilization {
                resource: "memory",
                percent: Some(70)
            })
        );
        let other = policy(
            &["tosca.policies.Scaling"],
            &[],
            Some(map(&[(
                "condition",
                map(&[(
                    "constraint",
                    Value::String("queue_length greater_than 10".into()),
                )]),
            )])),
        );
        assert!(matches!(
            utilization_trigger(Reader::plain(&other.triggers)),
            Some(Trigger::Unknown(_))
        ));
    }
}
