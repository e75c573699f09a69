//! Parts of the IR that many elements hold alike: the capabilities and interfaces a type
//! defines, which every node of the type starts from and most leave as they are.
//!
//! [`Shared`] keeps one copy of such a part for all of them; an element that writes to its part
//! (a template's assignment, a call evaluated into it) gets its own copy first
//! ([`Shared::make_mut`]). Serialized, a shared part is the part itself, so the IR's JSON does
//! not show the sharing; a serializer that converts many elements (the backends' conversion to
//! Tera values) can still convert each shared part once, through [`take_serializing`].

use std::any::Any;
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;
use std::ops::Deref;
use std::sync::Arc;

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::{Serialize, Serializer};

/// A part shared between elements until one of them writes to it. Compared and printed as the
/// part itself.
#[derive(Clone, PartialEq)]
pub struct Shared<T>(Arc<T>);

impl<T: std::fmt::Debug> std::fmt::Debug for Shared<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl<T> Shared<T> {
    pub fn new(value: T) -> Self {
        Shared(Arc::new(value))
    }
}

impl<T: Clone> Shared<T> {
    /// The part to write to, copied first if other elements share it.
    pub fn make_mut(this: &mut Self) -> &mut T {
        Arc::make_mut(&mut this.0)
    }
}

impl<T> Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// The name under which a shared part is handed to a serializer, as a newtype struct: every
/// serializer but the one that looks for it sees the part alone.
pub(crate) const SHARED_PART: &str = "toscana::ir::Shared";

/// The identity of a part being serialized, with a handle that keeps it alive (so its address
/// cannot be reused for another part while a serializer remembers it).
pub(crate) struct Serializing {
    pub address: usize,
    pub keep: Arc<dyn Any + Send + Sync>,
}

thread_local! {
    /// Set by [`Shared::serialize`] just before it hands its part to the serializer.
    static SERIALIZING: RefCell<Option<Serializing>> = const { RefCell::new(None) };
}

/// For a serializer's `serialize_newtype_struct` called with [`SHARED_PART`]: which shared part
/// this is. Taken before the part itself is serialized, which may serialize other shared parts.
pub(crate) fn take_serializing() -> Option<Serializing> {
    SERIALIZING.with(|s| s.borrow_mut().take())
}

impl<T: Serialize + Send + Sync + 'static> Serialize for Shared<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let keep: Arc<dyn Any + Send + Sync> = self.0.clone();
        let address = Arc::as_ptr(&self.0) as *const () as usize;
        SERIALIZING.with(|s| *s.borrow_mut() = Some(Serializing { address, keep }));
        let result = serializer.serialize_newtype_struct(SHARED_PART, &*self.0);
        // A serializer that does not look for shared parts leaves it set.
        SERIALIZING.with(|s| s.borrow_mut().take());
        result
    }
}

/// The schema of the part itself: sharing is not part of the IR's format.
impl<T: JsonSchema> JsonSchema for Shared<T> {
    fn inline_schema() -> bool {
        T::inline_schema()
    }
    fn schema_name() -> Cow<'static, str> {
        T::schema_name()
    }
    fn schema_id() -> Cow<'static, str> {
        T::schema_id()
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        T::json_schema(generator)
    }
}

/// Changes shared parts so that they stay shared: every element that held one part before the
/// change holds one changed part after it, made once (where [`Shared::make_mut`] on each
/// element would give each its own copy).
///
/// Only for a change that depends on the part alone (such as putting its maps in name order),
/// so that the part changed once is the part each element would have changed.
pub(crate) struct ChangedOnce<T> {
    /// By the address of the part before the change: that part (held, so that its address
    /// cannot be taken by another part while it is remembered) and the part after.
    by_address: HashMap<usize, (Shared<T>, Shared<T>)>,
}

impl<T> Default for ChangedOnce<T> {
    fn default() -> Self {
        ChangedOnce {
            by_address: HashMap::new(),
        }
    }
}

impl<T: Clone> ChangedOnce<T> {
    /// `part` changed by `change`: in place when no other element holds it, otherwise the
    /// copy made and changed for the first element that held it.
    pub fn change(&mut self, part: &mut Shared<T>, change: impl FnOnce(&mut T)) {
        if let Some(alone) = Arc::get_mut(&mut part.0) {
            change(alone);
            return;
        }
        let address = Arc::as_ptr(&part.0) as usize;
        let (_, changed) = self.by_address.entry(address).or_insert_with(|| {
            let mut copy = T::clone(part);
            change(&mut copy);
            (part.clone(), Shared::new(copy))
        });
        *part = changed.clone();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn same<T>(a: &Shared<T>, b: &Shared<T>) -> bool {
        Arc::ptr_eq(&a.0, &b.0)
    }

    #[test]
    fn a_part_changed_once_stays_shared() {
        let part = Shared::new(vec![3, 1, 2]);
        let mut holders = vec![part.clone(), part.clone(), part];
        let mut sorted = ChangedOnce::default();
        let mut sorts = 0;
        for holder in &mut holders {
            sorted.change(holder, |v: &mut Vec<i32>| {
                sorts += 1;
                v.sort();
            });
        }
        assert_eq!(sorts, 1);
        assert!(holders.iter().all(|h| **h == [1, 2, 3]));
        assert!(same(&holders[0], &holders[1]) && same(&holders[1], &holders[2]));
    }

    #[test]
    fn a_part_held_alone_is_changed_in_place() {
        let mut alone = Shared::new(vec![2, 1]);
        let before = Arc::as_ptr(&alone.0);
        ChangedOnce::default().change(&mut alone, |v: &mut Vec<i32>| v.sort());
        assert_eq!(*alone, [1, 2]);
        assert_eq!(Arc::as_ptr(&alone.0), before);
    }

    #[test]
    fn parts_alike_but_distinct_are_changed_apart() {
        let (a, b) = (Shared::new(vec![2, 1]), Shared::new(vec![2, 1]));
        let mut holders = [a.clone(), b.clone(), a, b];
        let mut sorted = ChangedOnce::default();
        for holder in &mut holders {
            sorted.change(holder, |v: &mut Vec<i32>| v.sort());
        }
        assert!(same(&holders[0], &holders[2]) && same(&holders[1], &holders[3]));
        assert!(!same(&holders[0], &holders[1]));
    }
}
