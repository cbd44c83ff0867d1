//! The font plots are drawn with. Plotters' `ab_glyph` backend finds no system fonts, which is
//! what we want on headless training machines that have none, so a subset of DejaVu Sans
//! (licence in `assets/LICENSE-DejaVuSans.txt`) is compiled in and registered once.

use std::sync::OnceLock;

use plotters::style::{FontStyle, register_font};

/// Family name the plots ask for; plotters' default family, so every text style resolves to it.
pub(super) const FAMILY: &str = "sans-serif";

static FONT_BYTES: &[u8] = include_bytes!("../../assets/DejaVuSans-subset.ttf");

/// Registers the bundled font; cheap after the first call. `false` if the bytes do not parse.
pub(super) fn register() -> bool {
    static REGISTERED: OnceLock<bool> = OnceLock::new();
    *REGISTERED.get_or_init(|| register_font(FAMILY, FontStyle::Normal, FONT_BYTES).is_ok())
}
