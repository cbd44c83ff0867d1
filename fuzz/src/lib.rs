//! What the fuzz targets share: the list of games, so that a new game is one line here for
//! every target that reads its input as each game's (its rules, configs, checkpoints, bot
//! settings).

/// Calls `$run::<G>(args)` for every game `G` the binary plays.
#[macro_export]
macro_rules! for_every_game {
    ($run:ident($($arg:expr),*)) => {{
        $run::<ghast::Ghast>($($arg),*);
        $run::<ghast::Fakerghast>($($arg),*);
        $run::<ghodak::Ghodak>($($arg),*);
        $run::<pig::Pig>($($arg),*);
        $run::<vastuz::Vastuz>($($arg),*);
        $run::<qast::Qast>($($arg),*);
        $run::<ghostchess::GhostChess>($($arg),*);
    }};
}
