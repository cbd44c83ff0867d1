//! The page, embedded so that the binary serves it without any files beside it.

pub const PAGE: &str = include_str!("page/index.html");
pub const CSS: &str = include_str!("page/page.css");
pub const JS: &str = include_str!("page/page.js");
/// What the page shares with a game's drawing module.
pub const KIT: &str = include_str!("page/kit.js");
