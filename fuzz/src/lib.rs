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
