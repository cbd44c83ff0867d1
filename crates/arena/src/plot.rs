//! Rating plots: Elo against generation and against training time, side by side, each
//! generation with its interval as an error bar and the fixed baselines as dashed horizontal
//! lines. Written as PNG (to look at) and SVG (to put in reports).

mod font;

use std::ops::Range;
use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::prelude::*;
use thiserror::Error;

/// One rated model generation.
#[derive(Debug, Clone, PartialEq)]
pub struct GenerationPoint {
    pub generation: u32,
    /// Training time when the generation was saved.
    pub hours: f64,
    pub elo: f64,
    pub lower: f64,
    pub upper: f64,
}

/// A fixed opponent drawn as a reference line.
#[derive(Debug, Clone, PartialEq)]
pub struct Baseline {
    pub name: String,
    pub elo: f64,
}

/// Everything one figure shows.
#[derive(Debug, Clone, Copy)]
pub struct RatingPlot<'a> {
    pub title: &'a str,
    pub points: &'a [GenerationPoint],
    pub baselines: &'a [Baseline],
}

/// Where the figure was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlotFiles {
    pub png: PathBuf,
    pub svg: PathBuf,
}

#[derive(Debug, Error)]
pub enum PlotError {
    #[error("there are no rated generations to plot")]
    NoPoints,
    #[error("the bundled plot font could not be loaded")]
    Font,
    #[error("drawing the plot failed: {0}")]
    Draw(String),
}

impl<E: std::error::Error + Send + Sync> From<DrawingAreaErrorKind<E>> for PlotError {
    fn from(error: DrawingAreaErrorKind<E>) -> Self {
        Self::Draw(error.to_string())
    }
}

const SIZE: (u32, u32) = (1400, 600);
const MODEL_COLOUR: RGBColor = RGBColor(31, 119, 180);
/// Baseline colours (matplotlib's tab10 after its blue), dark enough to read on white.
const BASELINE_COLOURS: [RGBColor; 5] = [
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(127, 127, 127),
];

/// One panel's horizontal axis.
struct Axis {
    caption: &'static str,
    label: &'static str,
    value: fn(&GenerationPoint) -> f64,
    /// Smallest padding either side, so a single point still gets a visible range.
    min_padding: f64,
    tick_label: fn(&f64) -> String,
}

const GENERATION_AXIS: Axis = Axis {
    caption: "Elo by generation",
    label: "generation",
    value: |p| f64::from(p.generation),
    min_padding: 1.0,
    // Generations are whole numbers; ticks between them get no label.
    tick_label: |x| {
        if x.fract() == 0.0 {
            format!("{x:.0}")
        } else {
            String::new()
        }
    },
};

/// Runs shorter than this are plotted in minutes, longer ones in hours.
const HOURS_AXIS_FROM: f64 = 2.0;

/// The training-time axis, in the unit that suits a run that lasted `hours`.
fn time_axis(hours: f64) -> Axis {
    if hours < HOURS_AXIS_FROM {
        Axis {
            caption: "Elo by training time",
            label: "training time (minutes)",
            value: |p| p.hours * 60.0,
            min_padding: 1.0,
            tick_label: round_tick,
        }
    } else {
        Axis {
            caption: "Elo by training time",
            label: "training time (hours)",
            value: |p| p.hours,
            min_padding: 0.5,
            tick_label: round_tick,
        }
    }
}

/// A tick value with at most two decimals and no trailing zeros: plotters' tick positions are
/// sums of binary fractions (0.30000000000000004), which printed in full overlap.
fn round_tick(x: &f64) -> String {
    let text = format!("{x:.2}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" { "0" } else { text }.to_owned()
}

/// Writes `<stem>.png` and `<stem>.svg`.
pub fn save_rating_plots(plot: &RatingPlot<'_>, stem: &Path) -> Result<PlotFiles, PlotError> {
    if plot.points.is_empty() {
        return Err(PlotError::NoPoints);
    }
    if !font::register() {
        return Err(PlotError::Font);
    }
    let files = PlotFiles {
        png: with_suffix(stem, ".png"),
        svg: with_suffix(stem, ".svg"),
    };
    draw(
        BitMapBackend::new(&files.png, SIZE).into_drawing_area(),
        plot,
    )?;
    draw(SVGBackend::new(&files.svg, SIZE).into_drawing_area(), plot)?;
    Ok(files)
}

/// `stem` with `suffix` appended (not `with_extension`, which would eat a dotted stem's tail).
fn with_suffix(stem: &Path, suffix: &str) -> PathBuf {
    let mut name = stem.as_os_str().to_owned();
    name.push(suffix);
    name.into()
}

fn draw<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    plot: &RatingPlot<'_>,
) -> Result<(), PlotError> {
    root.fill(&WHITE)?;
    let body = root.titled(plot.title, (font::FAMILY, 28))?;
    let elo_values = plot
        .points
        .iter()
        .flat_map(|p| [p.elo, p.lower, p.upper])
        .chain(plot.baselines.iter().map(|b| b.elo));
    let elo_range = padded_range(elo_values, 50.0);
    let hours = plot.points.iter().map(|p| p.hours).fold(0.0, f64::max);
    let axes = [GENERATION_AXIS, time_axis(hours)];
    for (area, axis) in body.split_evenly((1, 2)).iter().zip(&axes) {
        draw_panel(area, axis, plot, elo_range.clone())?;
    }
    root.present()?;
    Ok(())
}

fn draw_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    axis: &Axis,
    plot: &RatingPlot<'_>,
    y: Range<f64>,
) -> Result<(), PlotError> {
    let x = padded_range(plot.points.iter().map(axis.value), axis.min_padding);
    let mut chart = ChartBuilder::on(area)
        .caption(axis.caption, (font::FAMILY, 20))
        .margin(16)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(x.clone(), y.clone())?;
    chart
        .configure_mesh()
        .x_desc(axis.label)
        .y_desc("Elo")
        .x_labels(8)
        .x_label_formatter(&axis.tick_label)
        .y_label_formatter(&|y| format!("{y:.0}"))
        .draw()?;

    for (baseline, colour) in plot.baselines.iter().zip(BASELINE_COLOURS.iter().cycle()) {
        let style = colour.stroke_width(2);
        chart
            .draw_series(DashedLineSeries::new(
                [(x.start, baseline.elo), (x.end, baseline.elo)],
                10,
                6,
                style,
            ))?
            .label(baseline.name.as_str())
            .legend(move |(lx, ly)| PathElement::new([(lx, ly), (lx + 20, ly)], style));
    }

    // Infinite interval ends (a perfect record) are drawn to the edge of the panel.
    let clamp = |v: f64| v.clamp(y.start, y.end);
    let coords = || plot.points.iter().map(|p| ((axis.value)(p), p));
    let line = MODEL_COLOUR.stroke_width(2);
    chart
        .draw_series(LineSeries::new(
            coords().map(|(px, p)| (px, clamp(p.elo))),
            line,
        ))?
        .label("model (95% interval)")
        .legend(move |(lx, ly)| PathElement::new([(lx, ly), (lx + 20, ly)], line));
    chart.draw_series(coords().map(|(px, p)| {
        ErrorBar::new_vertical(
            px,
            clamp(p.lower),
            clamp(p.elo),
            clamp(p.upper),
            MODEL_COLOUR.stroke_width(1),
            8,
        )
    }))?;
    chart.draw_series(
        coords().map(|(px, p)| Circle::new((px, clamp(p.elo)), 4, MODEL_COLOUR.filled())),
    )?;

    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()?;
    Ok(())
}

/// The span of the finite `values`, widened by 5% (at least `min_padding`) each side.
fn padded_range(values: impl Iterator<Item = f64>, min_padding: f64) -> Range<f64> {
    let (low, high) = values
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
    if low > high {
        return -min_padding..min_padding;
    }
    let padding = (0.05 * (high - low)).max(min_padding);
    low - padding..high + padding
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ladder() -> Vec<GenerationPoint> {
        [
            (1, 0.5, 120.0),
            (2, 1.25, 310.0),
            (3, 2.0, 420.0),
            (5, 3.5, 640.0),
        ]
        .into_iter()
        .map(|(generation, hours, elo)| GenerationPoint {
            generation,
            hours,
            elo,
            lower: elo - 60.0,
            upper: elo + 60.0,
        })
        .collect()
    }

    fn baselines() -> Vec<Baseline> {
        vec![
            Baseline {
                name: "random".into(),
                elo: 0.0,
            },
            Baseline {
                name: "uct-1000".into(),
                elo: 450.0,
            },
        ]
    }

    #[test]
    fn padded_range_by_hand() {
        // Span 100..300 pads 5% of 200 = 10; a single value pads the minimum; ∞ is ignored.
        assert_eq!(padded_range([100.0, 300.0].into_iter(), 1.0), 90.0..310.0);
        assert_eq!(
            padded_range([7.0, f64::INFINITY].into_iter(), 1.0),
            6.0..8.0
        );
        assert_eq!(padded_range(std::iter::empty(), 2.0), -2.0..2.0);
    }

    #[test]
    fn ticks_are_round_and_short() {
        for (x, label) in [
            (0.300_000_000_000_000_04, "0.3"),
            (2.0, "2"),
            (12.5, "12.5"),
            (0.126, "0.13"),
            (-0.000_1, "0"),
        ] {
            assert_eq!(round_tick(&x), label, "{x}");
        }
    }

    #[test]
    fn short_runs_are_plotted_in_minutes_long_ones_in_hours() {
        let point = &ladder()[1];
        let short = time_axis(0.5);
        assert_eq!(short.label, "training time (minutes)");
        assert_eq!((short.value)(point), 75.0);
        let long = time_axis(3.5);
        assert_eq!(long.label, "training time (hours)");
        assert_eq!((long.value)(point), 1.25);
    }

    #[test]
    fn suffix_keeps_dotted_stems() {
        assert_eq!(
            with_suffix(Path::new("run.v2/ratings"), ".png"),
            PathBuf::from("run.v2/ratings.png")
        );
        assert_eq!(
            with_suffix(Path::new("ratings.gen-3"), ".svg"),
            PathBuf::from("ratings.gen-3.svg")
        );
    }

    #[test]
    fn writes_png_and_svg() {
        let dir = tempfile::tempdir().unwrap();
        let points = ladder();
        let baselines = baselines();
        let plot = RatingPlot {
            title: "Ghast ratings",
            points: &points,
            baselines: &baselines,
        };
        let files = save_rating_plots(&plot, &dir.path().join("ratings")).unwrap();

        let png = std::fs::read(&files.png).unwrap();
        assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG");
        assert!(
            png.len() > 10_000,
            "PNG of {} bytes is too small",
            png.len()
        );

        let svg = std::fs::read_to_string(&files.svg).unwrap();
        assert!(svg.starts_with("<svg"));
        for text in ["Ghast ratings", "training time (hours)", "uct-1000"] {
            assert!(svg.contains(text), "SVG lacks {text:?}");
        }
    }

    #[test]
    fn infinite_interval_ends_still_plot() {
        let dir = tempfile::tempdir().unwrap();
        let mut points = ladder();
        points[3].upper = f64::INFINITY;
        let plot = RatingPlot {
            title: "perfect record",
            points: &points,
            baselines: &[],
        };
        assert!(save_rating_plots(&plot, &dir.path().join("p")).is_ok());
    }

    #[test]
    fn nothing_to_plot_is_an_error() {
        let plot = RatingPlot {
            title: "empty",
            points: &[],
            baselines: &[],
        };
        let result = save_rating_plots(&plot, Path::new("unused"));
        assert!(matches!(result, Err(PlotError::NoPoints)));
    }
}
