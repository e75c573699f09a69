//! Checking many outputs with a slow checker in batches, without losing a failure.
//!
//! A checker that starts slowly (`dot`, `terraform fmt`, `hcl2tojson`) runs once over a batch of
//! outputs; when it rejects the batch, each member is checked alone to name the culprits. A
//! batch can fail while every member passes alone (the checker chokes on the combination, or a
//! member fails only sometimes): that is a failure too, reported with the batch's own error,
//! never a pass.

/// Checks `items` in batches of `size` with `batch`, and each member of a failed batch with
/// `one`. Returns every failure: the members' errors, and for a failed batch none of whose
/// members fails alone, the batch's error with the range of members it covered.
pub fn check_in_batches<T>(
    items: &[T],
    size: usize,
    batch: impl Fn(&[T]) -> Result<(), String>,
    one: impl Fn(&T) -> Result<(), String>,
) -> Vec<String> {
    let mut failures = Vec::new();
    for (n, chunk) in items.chunks(size.max(1)).enumerate() {
        let Err(why) = batch(chunk) else {
            continue;
        };
        let culprits: Vec<String> = chunk.iter().filter_map(|item| one(item).err()).collect();
        if culprits.is_empty() {
            let first = n * size.max(1);
            failures.push(format!(
                "a batch (items {first} to {}) failed, but none of its members fails alone: {why}",
                first + chunk.len() - 1
            ));
        }
        failures.extend(culprits);
    }
    failures
}
