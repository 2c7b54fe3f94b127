//! Match openings: XOT-style lists (one transcript a line) and seeded random openings.

use solvo_core::rng::Rng;
use solvo_othello::formats::transcript::{parse_transcript, Ply, Replay};
use solvo_othello::{Position, Square};

/// The openings of a list: one transcript a line from `start` (blank lines and lines
/// starting with `#` or `%` skipped). Errors name the line and what is wrong.
pub fn parse_openings(text: &str, start: &Position) -> Result<Vec<Replay>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with('%') {
            continue;
        }
        let replay = parse_transcript(line, start).map_err(|e| format!("line {}: {e}", i + 1))?;
        if replay.end().is_game_over() {
            return Err(format!("line {}: the opening ends the game", i + 1));
        }
        out.push(replay);
    }
    if out.is_empty() {
        return Err("no opening in the list".into());
    }
    Ok(out)
}

/// `count` openings of `plies` random plies each (passes when forced) from `start`,
/// seeded: the same seed gives the same openings. An opening that would end the game
/// stops one ply earlier.
pub fn random_openings(start: &Position, count: usize, plies: u32, seed: u64) -> Vec<Replay> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|_| {
            let mut replay = Replay::new(*start);
            for _ in 0..plies {
                let pos = replay.end();
                let moves: Vec<Square> = Square::iter(pos.moves()).collect();
                let mv = (!moves.is_empty()).then(|| rng.pick(&moves));
                let next = mv.map_or_else(|| pos.passed(), |m| pos.play(m).expect("a legal move"));
                if next.is_game_over() {
                    break;
                }
                // Legal by construction: a legal move, or a pass with no move.
                let _ = replay.push(mv.map_or(Ply::Pass, Ply::Move));
            }
            replay
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use solvo_othello::{BoardSize, Variant};

    #[test]
    fn reads_xot_lines_and_makes_seeded_random_openings() {
        let start = Position::start(BoardSize::Eight, Variant::Normal);
        let list = parse_openings("# comment\nf5d6c4d3c2b3b4b5\n\nf5f6e6f4e3c5c4e7\n", &start).unwrap();
        assert_eq!(list.len(), 2);
        assert_eq!(list[0].plies.len(), 8);
        assert!(parse_openings("f5a1\n", &start).unwrap_err().starts_with("line 1"));
        assert!(parse_openings("\n", &start).is_err());
        let a = random_openings(&start, 5, 8, 7);
        assert_eq!(a, random_openings(&start, 5, 8, 7));
        assert!(a.iter().all(|r| r.plies.len() == 8));
    }
}
