//! Every text and file format of the crate under bounded mutation fuzzing (see
//! `solvo_core::fuzz`): board strings, OBF lines and files, transcripts, GGF records,
//! pasted text (`recognize`), WTHOR game and name files. Each replays its committed
//! corpus (`tests/fuzz-corpus/<parser>/`: the damaged files and odd lines met so far),
//! then mutates it for `SOLVO_FUZZ_SECONDS`. Properties: no panic, no hang, and what a
//! parser accepts reads back the same from what its writer writes.

use solvo_core::fuzz::{corpus_dir, patches_of, Fuzz};
use solvo_core::rng::Rng;
use solvo_othello::formats::board_string::{format_position, parse_position};
use solvo_othello::formats::ggf::{format_ggf, parse_ggf};
use solvo_othello::formats::obf::{format_obf, parse_obf, parse_obf_line};
use solvo_othello::formats::recognize::recognize;
use solvo_othello::formats::transcript::{parse_transcript, PassStyle, Ply, Replay};
use solvo_othello::formats::wthor::{
    parse_names, parse_wtb, write_wtb, WthorFile, WthorGame, WthorHeader, HEADER_LEN, PLAYER_RECORD_LEN,
    TOURNAMENT_RECORD_LEN,
};
use solvo_othello::{BoardSize, Position, Square, Variant};
use std::path::PathBuf;

fn corpus(parser: &str) -> PathBuf {
    corpus_dir(env!("CARGO_MANIFEST_DIR"), parser)
}

/// Every size option a parser takes, and both variants.
const SIZES: [Option<BoardSize>; 4] = [None, Some(BoardSize::Eight), Some(BoardSize::Six), Some(BoardSize::Four)];
const VARIANTS: [Variant; 2] = [Variant::Normal, Variant::Reversed];

fn text(input: &[u8]) -> String {
    String::from_utf8_lossy(input).into_owned()
}

/// The signature of a parse: `ok` or the error's message.
fn signature<T, E: std::fmt::Display>(r: &Result<T, E>) -> String {
    match r {
        Ok(_) => "ok".to_string(),
        Err(e) => e.to_string(),
    }
}

const BOARD_TOKENS: [&[u8]; 14] =
    [b"X", b"O", b"-", b"*", b".", b"\n", b"\r\n", b" ", b"\t", b"\xef\xbb\xbf", b"\xc3\xa9", b"w", b"b", b"\0"];

#[test]
fn board_strings_never_panic_and_round_trip() {
    Fuzz::new("board-string").corpus(&corpus("board-string"), |_, b| b).dictionary(&BOARD_TOKENS).max_len(400).run(
        |input| {
            let text = text(input);
            let mut sig = String::new();
            for size in SIZES {
                for variant in VARIANTS {
                    let r = parse_position(&text, size, variant);
                    if let Ok(p) = &r {
                        let back = parse_position(&format_position(p), Some(p.size), variant);
                        assert_eq!(back.as_ref(), Ok(p), "format_position of {p:?}");
                    }
                    sig = signature(&r);
                }
            }
            sig
        },
    );
}

const OBF_TOKENS: [&[u8]; 16] = [
    b";",
    b":",
    b"; ",
    b"A2:+38;",
    b"PS:+0;",
    b"--:-127;",
    b"%",
    b"#",
    b"\r\n",
    b"\n",
    b"+",
    b"-",
    b"99999",
    b"\xef\xbb\xbf",
    b"\xe9",
    b"pa",
];

#[test]
fn obf_lines_and_files_never_panic_and_round_trip() {
    Fuzz::new("obf").corpus(&corpus("obf"), |_, b| b).dictionary(&OBF_TOKENS).max_len(1000).run(|input| {
        let text = text(input);
        let mut sig = String::new();
        for size in SIZES {
            let variant = if input.len() % 2 == 0 { Variant::Normal } else { Variant::Reversed };
            let r = parse_obf_line(&text, size, variant);
            if let Ok(p) = &r {
                let back = parse_obf_line(&format_obf(p), Some(p.position.size), variant);
                assert_eq!(back.as_ref(), Ok(p), "format_obf of {p:?}");
            }
            sig = signature(&r);
            let file = parse_obf(&text, size, variant);
            if let Ok(problems) = &file {
                for (line, p) in problems {
                    assert!(*line >= 1 && *line <= text.split('\n').count(), "line {line}");
                    let back = parse_obf_line(&format_obf(p), Some(p.position.size), variant);
                    assert_eq!(back.as_ref(), Ok(p), "format_obf of {p:?}");
                }
            }
        }
        sig
    });
}

const TRANSCRIPT_TOKENS: [&[u8]; 12] =
    [b"f5", b"d6", b"c3", b"pa", b"PS", b"--", b"\n", b" ", b"a1", b"h8", b"\xc3\xa9", b"\r\n"];

#[test]
fn transcripts_never_panic_and_round_trip() {
    let starts: Vec<Position> =
        SIZES[1..].iter().flat_map(|s| VARIANTS.map(|v| Position::start(s.unwrap(), v))).collect();
    Fuzz::new("transcript")
        .corpus(&corpus("transcript"), |_, b| b)
        .seeds(random_transcripts(40).into_iter().map(String::into_bytes))
        .dictionary(&TRANSCRIPT_TOKENS)
        .max_len(400)
        .run(|input| {
            let text = text(input);
            let mut sig = String::new();
            for start in &starts {
                let r = parse_transcript(&text, start);
                if let Ok(replay) = &r {
                    let back = parse_transcript(&replay.transcript(PassStyle::Explicit), start);
                    assert_eq!(back.as_ref(), Ok(replay), "explicit transcript of {text:?}");
                    // Implicit passes are found again before a move; passes after the
                    // last move are not written, so they are not read back either.
                    let mut moves_only = replay.clone();
                    while moves_only.plies.last() == Some(&Ply::Pass) {
                        moves_only.plies.pop();
                        moves_only.positions.pop();
                    }
                    let back = parse_transcript(&replay.transcript(PassStyle::Implicit), start);
                    assert_eq!(back, Ok(moves_only), "implicit transcript of {text:?}");
                }
                sig = signature(&r);
            }
            sig
        });
}

/// Transcripts of seeded random games on every size, each cut at a random ply.
fn random_transcripts(n: usize) -> Vec<String> {
    let mut rng = Rng::new(5);
    (0..n)
        .map(|i| {
            let size = [BoardSize::Eight, BoardSize::Six, BoardSize::Four][i % 3];
            let replay = random_replay(&mut rng, Position::start(size, Variant::Normal));
            replay.transcript(if i % 2 == 0 { PassStyle::Explicit } else { PassStyle::Implicit })
        })
        .collect()
}

/// A game of random legal moves from `start`, passes included, stopped at a random ply.
fn random_replay(rng: &mut Rng, start: Position) -> Replay {
    let mut replay = Replay::new(start);
    let stop = rng.below(70);
    while replay.plies.len() < stop {
        let pos = replay.end();
        if pos.is_game_over() {
            break;
        }
        let moves: Vec<Square> = Square::iter(pos.moves()).collect();
        if moves.is_empty() {
            replay.push_pass().unwrap();
        } else {
            replay.push_move(rng.pick(&moves)).unwrap();
        }
    }
    replay
}

const GGF_TOKENS: [&[u8]; 18] = [
    b"(;",
    b";)",
    b"GM[Othello]",
    b"TY[8a]",
    b"TY[9]",
    b"TY[6]",
    b"BO[",
    b"]",
    b"\\",
    b"B[pa]",
    b"W[",
    b"RE[+4]",
    b"PB[",
    b"8 ",
    b"6 ",
    b"*",
    b"O",
    b"\xef\xbb\xbf",
];

#[test]
fn ggf_records_never_panic_and_round_trip() {
    Fuzz::new("ggf").corpus(&corpus("ggf"), |_, b| b).dictionary(&GGF_TOKENS).max_len(3000).run(|input| {
        let text = text(input);
        let mut sig = String::new();
        for variant in VARIANTS {
            let r = parse_ggf(&text, variant);
            if let Ok(games) = &r {
                for g in games {
                    let written = format_ggf(g);
                    let back =
                        parse_ggf(&written, variant).unwrap_or_else(|e| panic!("{written:?} does not parse: {e}"));
                    assert_eq!(back.len(), 1, "{written:?}");
                    assert_eq!(back[0].replay, g.replay, "{written:?}");
                    // Tags come back in order, GM added when missing; BO is rewritten
                    // from the start position (same board, canonical spacing).
                    let other = |g: &solvo_othello::formats::ggf::GgfGame| -> Vec<(String, String)> {
                        g.tags.iter().filter(|(n, _)| n != "BO" && n != "GM").cloned().collect()
                    };
                    assert_eq!(other(&back[0]), other(g), "{written:?}");
                    assert_eq!(format_ggf(&back[0]), written, "format_ggf is a fixed point after one round");
                }
            }
            sig = signature(&r);
        }
        sig
    });
}

#[test]
fn pasted_text_never_panics() {
    Fuzz::new("recognize")
        .corpus(&corpus("board-string"), |_, b| b)
        .corpus(&corpus("obf"), |_, b| b)
        .corpus(&corpus("transcript"), |_, b| b)
        .corpus(&corpus("ggf"), |_, b| b)
        .dictionary(&GGF_TOKENS)
        .dictionary(&OBF_TOKENS)
        .max_len(2000)
        .run(|input| {
            let text = text(input);
            let mut sig = String::new();
            for size in SIZES {
                let r = recognize(&text, size, Variant::Normal);
                if let Ok(rec) = &r {
                    if let Some(size) = size {
                        assert_eq!(rec.position.size, size, "{text:?}");
                    }
                    if let Some(replay) = &rec.replay {
                        assert_eq!(replay.end(), rec.position);
                    }
                }
                sig = match r {
                    Ok(rec) => format!("ok {:?}", rec.kind),
                    Err(e) => e,
                };
            }
            if sig.starts_with("ok") {
                "ok".into()
            } else {
                sig
            }
        });
}

/// A small WTHOR game file: seeded random games (some cut short), header of 2025.
fn wthor_base() -> Vec<u8> {
    let mut rng = Rng::new(11);
    let games = (0..4)
        .map(|i| {
            let replay = random_replay(&mut rng, Position::start(BoardSize::Eight, Variant::Normal));
            WthorGame {
                tournament: i,
                black_player: 2 * i,
                white_player: 2 * i + 1,
                black_discs: WthorGame::replayed_black_discs(&replay).unwrap_or(32),
                theoretical_black_discs: 33,
                moves: replay
                    .plies
                    .iter()
                    .filter_map(|p| match p {
                        Ply::Move(sq) => Some(*sq),
                        Ply::Pass => None,
                    })
                    .collect(),
            }
        })
        .collect::<Vec<_>>();
    let header =
        WthorHeader { created: (2025, 6, 1), games: 4, records: 0, year: 2025, board_size: 8, kind: 0, depth: 22 };
    write_wtb(&WthorFile { header, games, damaged: Vec::new() })
}

#[test]
fn wthor_game_files_never_panic_and_round_trip() {
    let base = wthor_base();
    Fuzz::new("wthor")
        .corpus(&corpus("wthor"), patches_of(base.clone()))
        .seeds([base])
        .max_len(HEADER_LEN + 68 * 8)
        .run(|input| {
            let r = parse_wtb(input);
            if let Ok(file) = &r {
                assert_eq!(file.games.len() as u64, u64::from(file.header.games));
                for g in &file.games {
                    assert!(g.moves.len() <= 60);
                    // Replaying checks legality; it may refuse, never panic.
                    if let Ok(replay) = g.replay() {
                        let _ = WthorGame::replayed_black_discs(&replay);
                        let _ = g.position_at_empties(u32::from(file.header.depth));
                    }
                }
                if file.damaged.is_empty() {
                    let again = parse_wtb(&write_wtb(file));
                    assert_eq!(again.as_ref(), Ok(file), "parse(write(x)) == x");
                }
            }
            match &r {
                Ok(file) => file.damaged.first().map_or("ok".into(), |(_, why)| format!("damaged: {why}")),
                Err(e) => e.to_string(),
            }
        });
}

#[test]
fn wthor_name_files_never_panic() {
    let mut base = wthor_base()[..HEADER_LEN].to_vec();
    base[8] = 3; // three records
    for name in ["???", "Joueur Fran\u{e7}ais", "a"] {
        let mut rec = [0u8; TOURNAMENT_RECORD_LEN];
        for (slot, c) in rec.iter_mut().zip(name.chars()) {
            *slot = c as u32 as u8;
        }
        base.extend(rec);
    }
    Fuzz::new("wthor-names").corpus(&corpus("wthor-names"), patches_of(base.clone())).seeds([base]).max_len(400).run(
        |input| {
            let mut sig = String::new();
            for len in [PLAYER_RECORD_LEN, TOURNAMENT_RECORD_LEN, 0, 1] {
                let r = parse_names(input, len);
                if let Ok(names) = &r {
                    assert!(names.iter().all(|n| n.chars().count() <= len));
                }
                sig = signature(&r);
            }
            sig
        },
    );
}
