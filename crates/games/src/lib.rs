//! The games this build plays, listed once, in [`with_every_game!`]: the binary's registry
//! and the fuzz targets take the list from here, so that a new game is its crate and one line
//! (and its dependency) here.

pub use ghast;
pub use ghodak;
pub use ghostchess;
pub use pig;
pub use qast;
pub use vastuz;

/// Invokes the macro `callback` with every game's type, comma separated, the default game
/// first: `with_every_game!(registry)` is `registry! { Ghast, Fakerghast, ... }`. Tokens in
/// brackets after the callback go first, for a callback that needs them:
/// `with_every_game!(call [args])` is `call! { [args] Ghast, ... }`.
#[macro_export]
macro_rules! with_every_game {
    ($($callback:ident)::+ $([$($extra:tt)*])?) => {
        $($callback)::+! {
            $([$($extra)*])?
            $crate::ghast::Ghast,
            $crate::ghast::Fakerghast,
            $crate::ghodak::Ghodak,
            $crate::pig::Pig,
            $crate::vastuz::Vastuz,
            $crate::qast::Qast,
            $crate::ghostchess::GhostChess,
        }
    };
}
