//! What the fuzz targets share: the list of games, taken from the `games` crate (the one list
//! the binary's registry reads too), so that a target that reads its input as each game's
//! (its rules, configs, checkpoints, bot settings, queries) runs it for every game.

/// Calls `$run::<G>(args)` for every game `G` the binary plays.
#[macro_export]
macro_rules! for_every_game {
    ($run:ident($($arg:expr),*)) => {{
        games::with_every_game!($crate::call_for_each [$run ($($arg),*)]);
    }};
}

/// [`for_every_game!`]'s callback: `$run::<G>(args)` for each game type it is given.
#[macro_export]
macro_rules! call_for_each {
    ([$run:ident $args:tt] $($game:ty),* $(,)?) => {
        $( $run::<$game> $args; )*
    };
}

/// The game a selector byte picks among the games `has` accepts, in the list's order
/// (wrapping round): the targets that need a capability (GTP, a page) pick with it, so that
/// the list of games stays in one place. Call [`Pick::offer`] for every game
/// (`for_every_game!`); the picked one is the `selector % count`th game accepted.
pub struct Pick {
    accepted: Vec<&'static str>,
    selector: usize,
}

impl Pick {
    /// A pick by `selector` among the games whose names `accepted` lists.
    pub fn new(selector: u8, accepted: Vec<&'static str>) -> Pick {
        Pick {
            accepted,
            selector: usize::from(selector),
        }
    }

    /// Whether `name` is the game picked.
    pub fn is(&self, name: &str) -> bool {
        !self.accepted.is_empty()
            && self.accepted[self.selector % self.accepted.len()] == name
    }
}
