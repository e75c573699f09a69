//! Which inputs are secrets. An input is sensitive when its definition says so
//! (`metadata: { sensitive: true }`), when its type is a credential
//! (`tosca.datatypes.Credential` and types derived from it, read by the resolver), or when its
//! name says it is one (see [`looks_secret`]); the last is a guess, so it comes with a warning
//! that suggests marking the input.
//!
//! A sensitive input's variable is `sensitive = true`, has no `default` (a default password in
//! a template would otherwise be written to `variables.tf`), its value given with `--set` is
//! written to no file, and every output showing it is `sensitive = true`. Its value reaches
//! scripts through the variable (cloud-init is rendered by Terraform), never as a literal.

use crate::diag::{Diagnostic, codes};
use crate::ir::Input;
use crate::source::Span;

/// The words of a name that mean a secret, whole (`db_password`, `apiToken`, `SECRET_KEY`),
/// never inside another word (`passport`, `tokenizer`, `keyboard`).
const SECRET_WORDS: &[&str] = &[
    "password",
    "passwd",
    "pwd",
    "passphrase",
    "secret",
    "token",
    "credential",
    "credentials",
    "apikey",
    "privatekey",
];

/// Pairs of words that mean a secret together (`api_key`, `private_key`, `access_key`).
const SECRET_PAIRS: &[(&str, &str)] = &[
    ("api", "key"),
    ("private", "key"),
    ("access", "key"),
    ("secret", "key"),
    ("auth", "key"),
];

/// Whether a name reads like a secret's.
pub fn looks_secret(name: &str) -> bool {
    let snake = heck::ToSnakeCase::to_snake_case(name);
    let words: Vec<&str> = snake.split('_').filter(|w| !w.is_empty()).collect();
    words.iter().any(|w| SECRET_WORDS.contains(w))
        || words
            .windows(2)
            .any(|pair| SECRET_PAIRS.contains(&(pair[0], pair[1])))
}

/// Whether `input` is sensitive, and the warning when only its name says so.
pub fn sensitive(input: &Input, span: Option<Span>) -> (bool, Option<Diagnostic>) {
    if input.sensitive {
        return (true, None);
    }
    if !looks_secret(&input.name) {
        return (false, None);
    }
    let mut d = Diagnostic::warning(
        codes::TF_UNMARKED_SECRET,
        format!(
            "input `{}` looks like a secret by its name, so its variable is sensitive: no default and no value written to any file, and outputs showing it are sensitive",
            input.name
        ),
    )
    .hint("say so in the template: add `metadata: { sensitive: true }` to the input's definition");
    if let Some(span) = span {
        d = d.at(span);
    }
    (true, Some(d))
}

#[cfg(test)]
mod tests {
    use super::looks_secret;

    #[test]
    fn secret_names_are_whole_words() {
        for name in [
            "db_password",
            "db_root_pwd",
            "apiToken",
            "SECRET_KEY",
            "aws_access_key",
            "admin-passwd",
            "private_key",
        ] {
            assert!(looks_secret(name), "{name}");
        }
        for name in [
            "passport",
            "tokenizer_url",
            "key_name",
            "keyboard",
            "db_user",
            "public_key",
        ] {
            assert!(!looks_secret(name), "{name}");
        }
    }
}
