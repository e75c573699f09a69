//! A workload's environment: each variable once, a secret in the workload's Secret, a value
//! Kubernetes cannot hold warned about and left out.

use crate::diag::{Diagnostics, codes};
use crate::ir::Value;

use super::super::values::{data_key, shouty};
use super::addresses::{POD_IP_ENV, POD_IP_MARK};
use super::*;

impl Ctx<'_> {
    /// A property as environment: a credential becomes `<NAME>_USER` and a secret
    /// `<NAME>_TOKEN`; anything else `<NAME>`.
    pub(super) fn add_property_env(
        &mut self,
        plan: &mut Plan,
        node: usize,
        name: &str,
        value: &Value,
        secret: bool,
        mut diags: Option<&mut Diagnostics>,
    ) {
        if let Value::Map(map) = value
            && map.contains_key("token")
        {
            for (k, v) in map.iter() {
                let env = shouty(&format!("{name}_{k}"));
                let secret = k == "token" || k == "keys";
                self.add_env(plan, node, &env, v, secret, diags.as_deref_mut());
            }
            return;
        }
        self.add_env(plan, node, &shouty(name), value, secret, diags);
    }

    /// Adds one variable; a secret goes into the workload's Secret. A value Kubernetes cannot
    /// hold is a warning and left out.
    pub(super) fn add_env(
        &mut self,
        plan: &mut Plan,
        node: usize,
        name: &str,
        value: &Value,
        secret: bool,
        mut diags: Option<&mut Diagnostics>,
    ) {
        // The first planning pass decides workloads, which no variable changes.
        if self.foreseeing || matches!(value, Value::Null) {
            return;
        }
        let at = self.env_at.or(self.node(node).location);
        let text = match self.resolve(value, node, plan) {
            Ok(Some(t)) => t,
            Ok(None) => return,
            Err(why) => {
                self.warn_to(
                    diags.as_deref_mut(),
                    codes::K8S_UNSUPPORTED,
                    at,
                    format!(
                        "environment variable `{name}` of `{}` is left out: {why}",
                        self.node(node).name
                    ),
                    "give the value as a literal or an input, or set it after deployment",
                );
                return;
            }
        };
        if let Some(existing) = plan.env.iter().find(|e| e.name == name) {
            let same = existing.value.as_deref() == Some(env_value(&text).as_str())
                || (existing.secret.is_some() && plan.secret.get(name) == Some(&text));
            if !same && let Some(diags) = diags {
                let d = self.warn(
                        codes::K8S_UNSUPPORTED,
                        at,
                        format!("environment variable `{name}` of `{}` is set twice with different values; the first is kept", self.node(node).name),
                        "the lifted stack runs in one container, which has one environment",
                    );
                diags.push(d);
            }
            return;
        }
        let own_address = text.contains(POD_IP_MARK);
        if secret && !own_address {
            // A Secret's value reaches the container as it is: Kubernetes expands `$(...)`
            // only in `value`.
            let key = data_key(name);
            plan.secret.insert(key.clone(), text);
            plan.env.push(Env {
                name: name.to_string(),
                value: None,
                secret: Some(String::new()), // named in `finish`
                key: Some(key),
                field: None,
            });
        } else {
            if own_address && !plan.env.iter().any(|e| e.name == POD_IP_ENV) {
                // First, so that every later variable can refer to it.
                plan.env.insert(
                    0,
                    Env {
                        name: POD_IP_ENV.to_string(),
                        value: None,
                        secret: None,
                        key: None,
                        field: Some("status.podIP".to_string()),
                    },
                );
            }
            plan.env.push(Env {
                name: name.to_string(),
                value: Some(env_value(&text)),
                secret: None,
                key: None,
                field: None,
            });
        }
    }
}

/// The text of an environment variable's `value` that the container sees as `text`:
/// Kubernetes expands `$(NAME)` in `value` and reads `$$` as `$`, so every `$` is doubled; a
/// node's own address (`POD_IP_MARK`) becomes a reference to the variable the downward API
/// fills with the pod IP, which is the one expansion meant.
fn env_value(text: &str) -> String {
    text.replace('$', "$$")
        .replace(POD_IP_MARK, &format!("$({POD_IP_ENV})"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_env_value_reaches_the_container_as_written() {
        // Kubernetes reads `$$` as `$` and expands `$(NAME)`: both are escaped.
        assert_eq!(env_value("p$(HOME)x$$y$"), "p$$(HOME)x$$$$y$$");
        // The one reference meant: the pod's own IP.
        assert_eq!(
            env_value(&format!("http://{POD_IP_MARK}:80")),
            "http://$(TOSCANA_POD_IP):80"
        );
    }
}
