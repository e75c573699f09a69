//! Where a reading puts what it finds. The readers a value goes through (the typed reader of
//! `resolve/typing`, `ValueReader`, constraint and validation clauses) take a [`Findings`]:
//! a run's [`Diagnostics`] (the reading that owns the value reports), `None` of an
//! `Option<&mut Diagnostics>` (a second reading, whose owner reports: nothing is made and the
//! checks that only find are skipped), or a [`FirstError`]: a reading that only asks whether a
//! value fits and, when it does not, why, and keeps nothing else (a custom function's argument
//! judged against each of its signatures, §10.4 Function Definitions). A reading judged this
//! way builds no diagnostic it then drops unread; what it returns is the verdict.

use super::{Diagnostic, Diagnostics};

/// Where a reading puts what it finds: see the module docs.
pub trait Findings {
    /// Whether anything found now would be kept: a reading for which it would not skips the
    /// checks that only find (constraints, validation clauses) and makes no diagnostic.
    fn judges(&self) -> bool;

    /// Takes the finding `make` makes, which is called only if [`Self::judges`].
    fn find(&mut self, make: impl FnOnce() -> Diagnostic);
}

impl Findings for Diagnostics {
    fn judges(&self) -> bool {
        true
    }

    fn find(&mut self, make: impl FnOnce() -> Diagnostic) {
        self.push(make());
    }
}

/// `Some`: reported into the diagnostics; `None`: a second reading, reported by its owner.
impl Findings for Option<&mut Diagnostics> {
    fn judges(&self) -> bool {
        self.is_some()
    }

    fn find(&mut self, make: impl FnOnce() -> Diagnostic) {
        if let Some(diags) = self {
            diags.push(make());
        }
    }
}

/// The first error a reading finds: whether what it read fits (none) and, if not, why. Once
/// it has one, it judges nothing more, so the rest of the reading makes no diagnostic.
/// Warnings are not kept: a judging reading's value, once it fits, is read again where it is
/// used, reporting (as a custom function's chosen signature reads its arguments).
#[derive(Debug, Default)]
pub struct FirstError(Option<Diagnostic>);

impl FirstError {
    /// The first error found, if any.
    pub fn into_error(self) -> Option<Diagnostic> {
        self.0
    }
}

impl Findings for FirstError {
    fn judges(&self) -> bool {
        self.0.is_none()
    }

    fn find(&mut self, make: impl FnOnce() -> Diagnostic) {
        if self.0.is_none() {
            let found = make();
            if found.is_error() {
                self.0 = Some(found);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::codes;

    #[test]
    fn first_error_keeps_the_first_error_and_then_judges_nothing() {
        let mut first = FirstError::default();
        first.find(|| Diagnostic::warning(codes::TOSCA_TYPE_MISMATCH, "a warning"));
        assert!(first.judges(), "a warning is not a verdict");
        first.find(|| Diagnostic::error(codes::TOSCA_TYPE_MISMATCH, "first"));
        assert!(!first.judges());
        first.find(|| panic!("nothing is made once the verdict is known"));
        assert_eq!(first.into_error().map(|d| d.message), Some("first".into()));
    }

    #[test]
    fn a_second_reading_makes_nothing_and_a_reporting_one_keeps_all() {
        let mut none: Option<&mut Diagnostics> = None;
        assert!(!none.judges());
        none.find(|| panic!("a second reading makes no diagnostic"));
        let mut diags = Diagnostics::new();
        let mut some = Some(&mut diags);
        some.find(|| Diagnostic::warning(codes::TOSCA_TYPE_MISMATCH, "w"));
        some.find(|| Diagnostic::error(codes::TOSCA_TYPE_MISMATCH, "e"));
        assert_eq!(diags.iter().count(), 2);
    }
}
