//! What a message is about, written only when a message is made.
//!
//! The resolver names the thing each check is about (`node template `web``, `capability `c` of
//! node template `web``, `` `properties` ``) for every thing it reads, but a name is only ever
//! read when a diagnostic is made, and nearly every thing checks clean. Formatting each name up
//! front cost about 7% of `check`'s instructions (docs/performance.md, "Time, what costs
//! instructions"), so a subject is kept as the pieces it is written from and formatted by
//! [`fmt::Display`] inside the message that names it.
//!
//! The one shape: a function that names its subject in messages takes `impl Display` (`+ Copy`
//! where it passes the subject on more than once; `&dyn Display` where a non-generic signature
//! is clearer), and callers build it with [`Subject`]. A `&str` still fits, for callers whose
//! subject is already written.

use std::fmt;

/// A subject's pieces: `kind `name``, then ` of <parent>` if it has one. With an empty `kind`
/// it is only `` `name` ``. `Copy`, so a caller builds it once and passes it to each check.
#[derive(Clone, Copy)]
pub struct Subject<'a> {
    kind: &'static str,
    name: &'a str,
    of: Option<&'a Subject<'a>>,
}

impl<'a> Subject<'a> {
    /// `kind `name``, e.g. `Subject::new("node template", "web")`.
    pub const fn new(kind: &'static str, name: &'a str) -> Self {
        Subject {
            kind,
            name,
            of: None,
        }
    }

    /// Only `` `name` ``, e.g. a section: `` `properties` ``.
    pub const fn quoted(name: &'a str) -> Self {
        Subject::new("", name)
    }

    /// This subject ` of parent`: `capability `c` of node template `web``.
    pub const fn of(self, parent: &'a Subject<'a>) -> Self {
        Subject {
            of: Some(parent),
            ..self
        }
    }
}

impl fmt::Display for Subject<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.kind.is_empty() {
            write!(f, "{} ", self.kind)?;
        }
        write!(f, "`{}`", self.name)?;
        if let Some(parent) = self.of {
            write!(f, " of {parent}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::Subject;

    #[test]
    fn writes_kind_name_and_parent() {
        let node = Subject::new("node template", "web");
        assert_eq!(node.to_string(), "node template `web`");
        assert_eq!(
            Subject::new("capability", "scaling").of(&node).to_string(),
            "capability `scaling` of node template `web`"
        );
        assert_eq!(Subject::quoted("properties").to_string(), "`properties`");
        assert_eq!(
            Subject::quoted("type").of(&node).to_string(),
            "`type` of node template `web`"
        );
    }
}
