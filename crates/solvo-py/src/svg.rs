//! A position drawn as SVG for notebooks (`Position._repr_svg_`): the board's squares
//! with their coordinates, the discs, and a dot on each legal move of the side to move.

use solvo_othello::{Position, Square};
use std::fmt::Write;

const CELL: u32 = 32;
const MARGIN: u32 = 20;

/// The SVG drawing of `pos`.
pub fn board(pos: &Position) -> String {
    let (off, side) = (u32::from(pos.size.offset()), u32::from(pos.size.side()));
    let width = 2 * MARGIN + side * CELL;
    let mut s = format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{width}" viewBox="0 0 {width} {width}" font-family="sans-serif" font-size="12">"##
    );
    let _ = write!(
        s,
        r##"<rect x="{MARGIN}" y="{MARGIN}" width="{w}" height="{w}" fill="#2e7d32" stroke="#000"/>"##,
        w = side * CELL
    );
    for i in 0..=side {
        let p = MARGIN + i * CELL;
        let end = MARGIN + side * CELL;
        let _ = write!(s, r##"<line x1="{p}" y1="{MARGIN}" x2="{p}" y2="{end}" stroke="#000" stroke-width="1"/>"##);
        let _ = write!(s, r##"<line x1="{MARGIN}" y1="{p}" x2="{end}" y2="{p}" stroke="#000" stroke-width="1"/>"##);
    }
    for i in 0..side {
        let c = MARGIN + i * CELL + CELL / 2;
        let file = (b'a' + (off + i) as u8) as char;
        let _ = write!(s, r##"<text x="{c}" y="{y}" text-anchor="middle">{file}</text>"##, y = MARGIN - 6);
        let _ = write!(
            s,
            r##"<text x="{x}" y="{y}" text-anchor="middle">{rank}</text>"##,
            x = MARGIN / 2,
            y = c + 4,
            rank = off + i + 1
        );
    }
    let moves = pos.moves();
    for r in 0..side {
        for c in 0..side {
            let sq = Square::from_row_col((off + r) as u8, (off + c) as u8);
            let (cx, cy) = (MARGIN + c * CELL + CELL / 2, MARGIN + r * CELL + CELL / 2);
            let fill = if pos.black() & sq.bit() != 0 {
                Some("#000")
            } else if pos.white() & sq.bit() != 0 {
                Some("#fff")
            } else {
                None
            };
            match fill {
                Some(f) => {
                    let _ =
                        write!(s, r##"<circle cx="{cx}" cy="{cy}" r="{}" fill="{f}" stroke="#000"/>"##, CELL / 2 - 3);
                }
                None if moves & sq.bit() != 0 => {
                    let _ = write!(s, r##"<circle cx="{cx}" cy="{cy}" r="3" fill="#000" fill-opacity="0.5"/>"##);
                }
                None => {}
            }
        }
    }
    s.push_str("</svg>");
    s
}
