//! The roofline picture of `sched-apply profile --svg`: log-log axes of
//! operational intensity (FLOP/byte) and performance (GFLOP/s), this core's
//! roof (the measured peak and memory bandwidth), each accelerator's roof
//! from its target description, and the payload's whole call before and
//! after the schedule, joined by an arrow; with two funcs or more, each
//! func's own pair too, smaller and named. Drawn with `plotters`.

use crate::Exit;
use plotters::prelude::*;
use std::path::Path;

/// The roofs to draw.
pub(crate) struct Roofs {
    /// This core's fp32 peak, GFLOP/s.
    pub peak_gflops: f64,
    /// This core's memory bandwidth, GB/s.
    pub bandwidth_gbs: f64,
    /// `(name, peak GFLOP/s, bandwidth GB/s)` per accelerator target.
    pub accelerators: Vec<(String, f64, f64)>,
}

/// One func's points, or the whole call's: (FLOP/byte, GFLOP/s) before and
/// after the schedule.
pub(crate) struct StagePoints {
    pub name: String,
    pub before: Option<(f64, f64)>,
    pub after: Option<(f64, f64)>,
}

/// Funcs drawn with their names; past this many, the picture shows the
/// whole call only (the text report has every func).
const MAX_NAMED_STAGES: usize = 12;

/// The attainable GFLOP/s at `intensity` under a roof.
fn roof(peak: f64, bandwidth: f64, intensity: f64) -> f64 {
    peak.min(bandwidth * intensity)
}

/// The picture's chart: log-log axes drawn into an SVG string.
type Chart<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<LogCoord<f64>, LogCoord<f64>>>;

/// What drawing can fail with (plotters' errors, boxed).
type Drawn = Result<(), Box<dyn std::error::Error>>;

/// The axes' ranges: intensities (FLOP/byte) and performance (GFLOP/s).
struct Frame {
    x_min: f64,
    x_max: f64,
    y_min: f64,
    top: f64,
}

impl Frame {
    /// Ranges that hold every point and roof, with room around them.
    fn around(points: &[(f64, f64)], roofs: &Roofs) -> Self {
        let mut x_min: f64 = 0.01;
        let mut x_max: f64 = 1000.0;
        for &(x, _) in points {
            x_min = x_min.min(x / 4.0);
            x_max = x_max.max(x * 4.0);
        }
        let top = roofs
            .accelerators
            .iter()
            .map(|a| a.1)
            .fold(roofs.peak_gflops, f64::max)
            .max(1.0);
        let y_min = points
            .iter()
            .map(|p| p.1 / 4.0)
            .fold(top / 1e4, f64::min)
            .max(1e-6);
        Self {
            x_min,
            x_max,
            y_min,
            top,
        }
    }

    /// A roof's line across the x range.
    fn samples(&self, peak: f64, bandwidth: f64) -> Vec<(f64, f64)> {
        (0..=200)
            .map(|i| {
                let x = self.x_min * (self.x_max / self.x_min).powf(i as f64 / 200.0);
                (x, roof(peak, bandwidth, x))
            })
            .collect()
    }
}

/// Writes the picture to `path` (whole or not at all); a point without a measured time or a known
/// intensity is left out (the text report says so).
pub(crate) fn write_svg(
    path: &Path,
    title: &str,
    roofs: &Roofs,
    whole: &StagePoints,
    stages: &[StagePoints],
) -> Result<(), Exit> {
    let stages: &[StagePoints] = if (2..=MAX_NAMED_STAGES).contains(&stages.len()) {
        stages
    } else {
        &[]
    };
    let points: Vec<(f64, f64)> = [whole.before, whole.after]
        .into_iter()
        .flatten()
        .chain(
            stages
                .iter()
                .flat_map(|s| s.before.into_iter().chain(s.after)),
        )
        .collect();
    let frame = Frame::around(&points, roofs);
    let mut svg = String::new();
    let drawn = (|| -> Drawn {
        let area = SVGBackend::with_string(&mut svg, (900, 600)).into_drawing_area();
        area.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(&area)
            .caption(title, ("sans-serif", 18))
            .margin(16)
            .x_label_area_size(48)
            .y_label_area_size(72)
            .build_cartesian_2d(
                (frame.x_min..frame.x_max).log_scale(),
                (frame.y_min..frame.top * 2.0).log_scale(),
            )?;
        chart
            .configure_mesh()
            .x_desc("operational intensity (FLOP per off-chip byte)")
            .y_desc("performance (GFLOP/s)")
            .draw()?;
        draw_roofs(&mut chart, &frame, roofs)?;
        draw_stages(&mut chart, stages)?;
        draw_whole_call(&mut chart, whole)?;
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::LowerRight)
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .draw()?;
        area.present()?;
        Ok(())
    })();
    drawn.map_err(|e| {
        Exit::input(format!(
            "{}: error: cannot draw the roofline: {e}",
            path.display()
        ))
    })?;
    // Drawn in memory and written whole: a full disk leaves the old picture.
    crate::files::write_bytes(path, svg.as_bytes())
}

/// This core's roof, then each accelerator's, each with its legend.
fn draw_roofs(chart: &mut Chart<'_, '_>, frame: &Frame, roofs: &Roofs) -> Drawn {
    chart
        .draw_series(LineSeries::new(
            frame.samples(roofs.peak_gflops, roofs.bandwidth_gbs),
            BLACK.stroke_width(2),
        ))?
        .label(format!(
            "this core: {:.1} GFLOP/s, {:.1} GB/s (measured)",
            roofs.peak_gflops, roofs.bandwidth_gbs
        ))
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLACK.stroke_width(2)));
    let colours = [BLUE, MAGENTA, CYAN, GREEN];
    for (index, (name, peak, bandwidth)) in roofs.accelerators.iter().enumerate() {
        let colour = colours[index % colours.len()];
        chart
            .draw_series(LineSeries::new(
                frame.samples(*peak, *bandwidth),
                colour.stroke_width(2),
            ))?
            .label(format!(
                "accelerator {name}: {peak:.1} GFLOP/s, {bandwidth:.1} GB/s (its target file)"
            ))
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
            });
    }
    Ok(())
}

/// Each func's pair of points, joined and named (the first pair gives the
/// legend its entries).
fn draw_stages(chart: &mut Chart<'_, '_>, stages: &[StagePoints]) -> Drawn {
    let grey = RGBColor(150, 150, 150);
    let green = RGBColor(0, 140, 0);
    for (index, stage) in stages.iter().enumerate() {
        if let (Some(from), Some(to)) = (stage.before, stage.after) {
            chart.draw_series(std::iter::once(PathElement::new(vec![from, to], grey)))?;
        }
        let before_series = chart.draw_series(
            stage
                .before
                .map(|at| Circle::new(at, 4, RED.stroke_width(2))),
        )?;
        if index == 0 {
            before_series
                .label("a func before the schedule")
                .legend(|(x, y)| Circle::new((x + 10, y), 4, RED.stroke_width(2)));
        }
        let after_series = chart.draw_series(
            stage
                .after
                .map(|at| Circle::new(at, 4, green.stroke_width(2))),
        )?;
        if index == 0 {
            after_series
                .label("a func after the schedule (named)")
                .legend(move |(x, y)| Circle::new((x + 10, y), 4, green.stroke_width(2)));
        }
        if let Some(at) = stage.after.or(stage.before) {
            // Alternately above and below its point, so near names stay apart.
            let offset = if index % 2 == 0 { (8, -16) } else { (8, 4) };
            chart.draw_series(std::iter::once(
                EmptyElement::at(at) + Text::new(stage.name.clone(), offset, ("sans-serif", 13)),
            ))?;
        }
    }
    Ok(())
}

/// The whole call's two points, with an arrow from before to after.
fn draw_whole_call(chart: &mut Chart<'_, '_>, whole: &StagePoints) -> Drawn {
    let (before, after) = (whole.before, whole.after);
    if let (Some(from), Some(to)) = (before, after) {
        chart.draw_series(std::iter::once(PathElement::new(
            vec![from, to],
            RGBColor(120, 120, 120).stroke_width(2),
        )))?;
        chart.draw_series(std::iter::once(TriangleMarker::new(
            to,
            7,
            RGBColor(120, 120, 120).filled(),
        )))?;
    }
    for (point, label, colour) in [
        (before, "the whole call before the schedule", RED),
        (
            after,
            "the whole call after the schedule",
            RGBColor(0, 140, 0),
        ),
    ] {
        if let Some(at) = point {
            chart
                .draw_series(std::iter::once(Circle::new(at, 6, colour.filled())))?
                .label(format!(
                    "{label}: {:.2} FLOP/byte, {:.2} GFLOP/s",
                    at.0, at.1
                ))
                .legend(move |(x, y)| Circle::new((x + 10, y), 5, colour.filled()));
        }
    }
    Ok(())
}
