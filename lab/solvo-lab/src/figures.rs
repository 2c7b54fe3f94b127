//! SVG figures of the reproductions (the `plotters` crate's SVG backend, no font
//! library: text is written as SVG text and drawn by the viewer). Each function writes
//! one file and returns an error naming it when it cannot.

use crate::othello_solved::{OpeningTree, SortedPoint};
use plotters::prelude::*;
use std::collections::BTreeMap;
use std::path::Path;

fn named(path: &Path) -> impl Fn(&dyn std::fmt::Display) -> String + '_ {
    move |e| format!("{}: {e}", path.display())
}

/// Figure 2: nodes per leaf, sorted largest first (log scale, left axis), and the
/// running share of all nodes (right axis), against the leaves' rank as a share.
pub fn draw_sorted_nodes(path: &Path, points: &[SortedPoint], title: &str) -> Result<(), String> {
    let err = named(path);
    let root = SVGBackend::new(path, (900, 560)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let max = points.iter().map(|p| p.nodes).max().unwrap_or(1).max(1) as f64;
    let min = points.iter().map(|p| p.nodes).filter(|&n| n > 0).min().unwrap_or(1).max(1) as f64;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(45)
        .y_label_area_size(80)
        .right_y_label_area_size(60)
        .build_cartesian_2d(0f64..1f64, (min / 2.0..max * 2.0).log_scale())
        .map_err(|e| err(&e))?
        .set_secondary_coord(0f64..1f64, 0f64..1f64);
    chart
        .configure_mesh()
        .x_desc("leaves, sorted by nodes (largest first), share of all")
        .y_desc("nodes of the leaf")
        .y_label_formatter(&|v| format!("{v:.0e}"))
        .draw()
        .map_err(|e| err(&e))?;
    chart.configure_secondary_axes().y_desc("cumulative share of all nodes").draw().map_err(|e| err(&e))?;
    chart
        .draw_series(LineSeries::new(points.iter().map(|p| (p.share, (p.nodes.max(1)) as f64)), BLUE.stroke_width(2)))
        .map_err(|e| err(&e))?
        .label("nodes of the leaf")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLUE.stroke_width(2)));
    let orange = RGBColor(230, 130, 0);
    chart
        .draw_secondary_series(LineSeries::new(points.iter().map(|p| (p.share, p.cumulative)), orange.stroke_width(2)))
        .map_err(|e| err(&e))?
        .label("cumulative share")
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], orange.stroke_width(2)));
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::MiddleRight)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))
}

/// Figure 3: the nodes summed over the leaves of each estimate (bars, log scale), from
/// `bins` = estimate -> (leaves, nodes).
pub fn draw_nodes_by_estimate(path: &Path, bins: &BTreeMap<i32, (u64, u64)>, title: &str) -> Result<(), String> {
    let err = named(path);
    let root = SVGBackend::new(path, (900, 560)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let lo = bins.keys().next().copied().unwrap_or(-2) - 2;
    let hi = bins.keys().last().copied().unwrap_or(2) + 2;
    let max = bins.values().map(|v| v.1).max().unwrap_or(1).max(1) as f64;
    let min = bins.values().map(|v| v.1).filter(|&n| n > 0).min().unwrap_or(1).max(1) as f64;
    let floor = min / 2.0;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(45)
        .y_label_area_size(80)
        .build_cartesian_2d(f64::from(lo)..f64::from(hi), (floor..max * 2.0).log_scale())
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .x_desc("estimated value of the leaf (discs, side to move)")
        .x_label_formatter(&|v| format!("{v:.0}"))
        .y_desc("nodes summed over the leaves")
        .y_label_formatter(&|v| format!("{v:.0e}"))
        .draw()
        .map_err(|e| err(&e))?;
    chart
        .draw_series(bins.iter().filter(|(_, v)| v.1 > 0).map(|(&e, v)| {
            let x = f64::from(e);
            Rectangle::new([(x - 0.8, floor), (x + 0.8, v.1 as f64)], BLUE.mix(0.7).filled())
        }))
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))
}

/// Figure 4: the perfect player's opening tree to `max_ply` plies, one column per ply:
/// the published line's moves bold black, the player's other choices bold grey, the
/// opponent's moves thin; positions proven draws are filled, the others hollow.
pub fn draw_opening_tree(path: &Path, tree: &OpeningTree, max_ply: u32, title: &str) -> Result<(), String> {
    let err = named(path);
    let shown: Vec<usize> = (0..tree.nodes.len()).filter(|&i| tree.nodes[i].ply <= max_ply).collect();
    let plies = max_ply as usize + 1;
    let mut per_ply = vec![0usize; plies];
    let mut row_of = vec![0usize; tree.nodes.len()];
    for &i in &shown {
        let p = tree.nodes[i].ply as usize;
        row_of[i] = per_ply[p];
        per_ply[p] += 1;
    }
    let rows = per_ply.iter().copied().max().unwrap_or(1).max(1);
    let (col_w, row_h) = (120i32, 22i32);
    let width = (col_w * plies as i32 + 60) as u32;
    let height = (row_h * rows as i32 + 110) as u32;
    let root = SVGBackend::new(path, (width, height)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    root.draw(&Text::new(title.to_string(), (20, 14), ("sans-serif", 16))).map_err(|e| err(&e))?;
    let at = |i: usize| -> (i32, i32) { (40 + col_w * tree.nodes[i].ply as i32, 70 + row_h * row_of[i] as i32) };
    for (ply, count) in per_ply.iter().enumerate() {
        let x = 40 + col_w * ply as i32;
        root.draw(&Text::new(format!("ply {ply}: {count}"), (x - 20, 44), ("sans-serif", 12))).map_err(|e| err(&e))?;
    }
    let grey = RGBColor(140, 140, 140);
    let light = RGBColor(200, 200, 200);
    for &i in &shown {
        let n = &tree.nodes[i];
        if n.ply >= max_ply {
            continue;
        }
        let from = at(i);
        // The player's choices first: theirs is the label of a child both reach.
        let mut moves = n.moves.clone();
        moves.sort_by_key(|&(_, _, by_player)| !by_player);
        let mut labelled = Vec::new();
        for (sq, j, by_player) in moves {
            let to = at(j);
            let on_line = n.on_line && tree.nodes[j].on_line;
            let (style, color) = match (on_line, by_player) {
                (true, _) => (BLACK.stroke_width(3), BLACK),
                (false, true) => (grey.stroke_width(3), grey),
                (false, false) => (light.stroke_width(1), RGBColor(110, 110, 110)),
            };
            root.draw(&PathElement::new(vec![from, to], style)).map_err(|e| err(&e))?;
            // One label per child (symmetric moves lead to one position).
            if !labelled.contains(&j) && (on_line || by_player || per_ply[n.ply as usize + 1] <= 40) {
                labelled.push(j);
                let label = (to.0 - 30, to.1 - 15);
                root.draw(&Text::new(sq.to_string(), label, ("sans-serif", 10).into_font().color(&color)))
                    .map_err(|e| err(&e))?;
            }
        }
    }
    for &i in &shown {
        let n = &tree.nodes[i];
        let (x, y) = at(i);
        let color = if n.on_line { BLACK } else { grey };
        let style = if n.draw { color.filled() } else { color.stroke_width(1) };
        root.draw(&Circle::new((x, y), 4, style)).map_err(|e| err(&e))?;
    }
    root.present().map_err(|e| err(&e))
}
