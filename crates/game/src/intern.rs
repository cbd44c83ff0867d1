//! Tables a game builds once per set of options (Zobrist keys, bit masks) and keeps for the
//! life of the process.

use std::any::Any;
use std::sync::Mutex;

/// The table that `is_for` recognises, built by `build` on first use and kept for good. A
/// state then holds a plain `&'static` reference: copying a state (which search does
/// constantly) copies a pointer instead of touching a shared reference count. A process sees
/// only a handful of option sets, so what is kept stays small.
pub fn intern<T: Any + Send + Sync>(
    is_for: impl Fn(&T) -> bool,
    build: impl FnOnce() -> T,
) -> &'static T {
    static CACHE: Mutex<Vec<&'static (dyn Any + Send + Sync)>> = Mutex::new(Vec::new());
    let mut cache = CACHE
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let found = cache
        .iter()
        .filter_map(|entry| entry.downcast_ref::<T>())
        .find(|table| is_for(table));
    if let Some(table) = found {
        return table;
    }
    let table: &'static T = Box::leak(Box::new(build()));
    cache.push(table);
    table
}
