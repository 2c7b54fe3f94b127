//! The match record: every finished game of a match as one GGF line (its number `GN`,
//! the players, the result for black, a forfeit's reason in `CO`, the least time each side
//! had left in `TL`, the time each side spent in its moves in `MT`, each move's time in
//! its `B`/`W` tag as GGS writes it, `f5//1.234`), appended as games end, so that a
//! killed match resumes from it.

use crate::arena::{Thought, LOST_ON_TIME};
use crate::tournament::{first_is_black, MatchGame};
use solvo_othello::formats::ggf::{format_ggf, ggf_from_replay, parse_ggf};
use solvo_othello::Variant;
use std::time::Duration;

/// What the match keeps of a finished game (read back from the record on resuming).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FinishedGame {
    /// The game's number.
    pub index: usize,
    /// The first contestant's final disc difference.
    pub first_score: i32,
    /// Under a clock, the least time either side had left after a move.
    pub least_left: Option<Duration>,
    /// Whether a side lost on time.
    pub lost_on_time: bool,
    /// The time each contestant (first, second) spent in its moves (zero when the
    /// record does not say).
    pub thought: [Thought; 2],
}

/// The GGF tag holding the least time each side had left after one of its moves
/// (`TL[black/white]`, seconds; not a GGS tag: GGF readers skip it).
const LEAST_LEFT_TAG: &str = "TL";

/// The GGF tag holding the time each side spent in its moves and their number
/// (`MT[black seconds/black moves/white seconds/white moves]`; not a GGS tag).
const THOUGHT_TAG: &str = "MT";

/// The `MT` tag's value as (black, white).
fn parse_thought(v: &str) -> Option<[Thought; 2]> {
    let f: Vec<&str> = v.split('/').collect();
    let [bt, bn, wt, wn] = f[..] else { return None };
    let time = |s: &str| s.parse::<f64>().ok().filter(|x| x.is_finite() && *x >= 0.0).map(Duration::from_secs_f64);
    Some([Thought { time: time(bt)?, moves: bn.parse().ok()? }, Thought { time: time(wt)?, moves: wn.parse().ok()? }])
}

impl FinishedGame {
    /// What the match keeps of `g`.
    pub fn of(g: &MatchGame) -> FinishedGame {
        FinishedGame {
            index: g.index,
            first_score: g.first_score(),
            least_left: g.record.least_time_left(),
            lost_on_time: g.record.lost_on_time(),
            thought: g.thought(),
        }
    }
}

/// The games of a match record's text (GGF, one game a line as [`record_line`] writes
/// them). Errors: a record that is not GGF, or a game without its number (`GN`) or
/// result (`RE`), said in words.
pub fn read_match_record(text: &str, variant: Variant) -> Result<Vec<FinishedGame>, String> {
    let games = parse_ggf(text, variant).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    for g in &games {
        let index = g.tag("GN").and_then(|n| n.parse::<usize>().ok());
        let score = g.result.as_deref().and_then(|r| r.split(':').next()?.parse::<f64>().ok());
        let (Some(index), Some(score)) = (index, score) else {
            return Err("a game without its number (GN) or result (RE): not a match record".to_string());
        };
        let score = score as i32;
        let least_left = g.tag(LEAST_LEFT_TAG).and_then(|v| {
            v.split('/').filter_map(|s| s.parse::<f64>().ok()).filter(|s| s.is_finite() && *s >= 0.0).reduce(f64::min)
        });
        let [b, w] = g.tag(THOUGHT_TAG).and_then(parse_thought).unwrap_or_default();
        out.push(FinishedGame {
            index,
            thought: if first_is_black(index) { [b, w] } else { [w, b] },
            first_score: if first_is_black(index) { score } else { -score },
            least_left: least_left.map(Duration::from_secs_f64),
            lost_on_time: g.tag("CO").is_some_and(|c| c.ends_with(LOST_ON_TIME)),
        });
    }
    Ok(out)
}

/// One game as a GGF line: the game number, the players, the result for black, a
/// forfeit's reason.
pub fn record_line(g: &MatchGame) -> String {
    let mut ggf = ggf_from_replay(&g.record.replay, &g.black, &g.white);
    ggf.times.clone_from(&g.record.times);
    ggf.tags.retain(|(n, _)| n != "RE");
    ggf.tags.insert(1, ("GN".into(), g.index.to_string()));
    ggf.tags.push(("RE".into(), format!("{:+}", g.record.black_score)));
    if let Some((side, why)) = &g.record.forfeit {
        ggf.tags.push(("CO".into(), format!("{side} forfeits: {why}")));
    }
    if let [Some(b), Some(w)] = g.record.least_left {
        ggf.tags.push((LEAST_LEFT_TAG.into(), format!("{:.3}/{:.3}", b.as_secs_f64(), w.as_secs_f64())));
    }
    let [b, w] = g.record.thought;
    let value = format!("{:.3}/{}/{:.3}/{}", b.time.as_secs_f64(), b.moves, w.time.as_secs_f64(), w.moves);
    ggf.tags.push((THOUGHT_TAG.into(), value));
    format_ggf(&ggf)
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOARD: &str = "BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]";

    /// Games are read back with their number, the first contestant's score (black in even
    /// games), the least time left and a loss on time; a line without its number is not a
    /// match record.
    #[test]
    fn a_record_reads_back_what_the_match_keeps() {
        let text = format!(
            "(;GM[Othello]GN[0]PB[a]PW[b]RE[+10]TL[1.500/0.250]TY[8]{BOARD}B[f5];)\n\
             (;GM[Othello]GN[1]PB[b]PW[a]RE[+6]MT[1.500/30/0.250/29]CO[white forfeits: {LOST_ON_TIME}]TY[8]{BOARD}B[f5];)\n"
        );
        let games = read_match_record(&text, Variant::Normal).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!((games[0].index, games[0].first_score, games[0].lost_on_time), (0, 10, false));
        assert_eq!(games[0].least_left, Some(Duration::from_millis(250)));
        assert_eq!((games[1].index, games[1].first_score, games[1].lost_on_time), (1, -6, true));
        // Game 1 has the first contestant as white: its time is the record's second.
        let t = games[1].thought;
        assert_eq!((t[0].moves, t[0].time, t[1].moves), (29, Duration::from_millis(250), 30));
        assert_eq!(games[0].thought, [Thought::default(); 2]);
        let no_number = format!("(;GM[Othello]PB[a]PW[b]RE[+10]TY[8]{BOARD}B[f5];)\n");
        assert!(read_match_record(&no_number, Variant::Normal).unwrap_err().contains("not a match record"));
    }
}
