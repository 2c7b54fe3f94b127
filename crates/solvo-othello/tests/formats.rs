//! Integration tests of the text formats: the FFO test suite in OBF, round trips
//! between board strings, OBF, transcripts and GGF, error locations for malformed
//! inputs, and "never panics" properties over arbitrary input.

use proptest::prelude::*;
use solvo_core::rng::Rng;
use solvo_othello::formats::board_string::{format_position, parse_position};
use solvo_othello::formats::ggf::{format_ggf, ggf_from_replay, parse_ggf};
use solvo_othello::formats::obf::{format_obf, parse_obf, parse_obf_line, ObfProblem};
use solvo_othello::formats::transcript::{parse_transcript, PassStyle, Ply, Replay};
use solvo_othello::formats::ParseError;
use solvo_othello::{BoardSize, Position, Square, Variant};
use std::path::{Path, PathBuf};

/// `shared/data` beside the repository (`/work/main/../shared/data`).
fn shared_data(sub: &str) -> PathBuf {
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data")).join(sub);
    assert!(
        dir.is_dir(),
        "test data directory {} is missing: the repository expects `shared/data/{sub}` beside its checkout",
        dir.display()
    );
    dir
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

fn sq(name: &str) -> Ply {
    Ply::Move(Square::parse(name).unwrap_or_else(|| panic!("bad square {name}")))
}

// ---------------------------------------------------------------- FFO suite

const FFO_FILES: [(&str, usize); 4] =
    [("fforum-1-19.obf", 19), ("fforum-20-39.obf", 20), ("fforum-40-59.obf", 20), ("fforum-60-79.obf", 20)];

#[test]
fn every_ffo_problem_parses() {
    let dir = shared_data("ffo");
    let mut total = 0;
    for (file, count) in FFO_FILES {
        let text = read(&dir.join(file));
        let problems = parse_obf(&text, None, Variant::Normal).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(problems.len(), count, "{file}");
        for (k, (line, p)) in problems.iter().enumerate() {
            assert_eq!(*line, k + 1, "{file}: problems are on consecutive lines");
            assert_eq!(p.position.size, BoardSize::Eight);
            assert!(!p.move_scores.is_empty(), "{file}:{line} lists moves");
            assert!(p.best_score().is_some_and(|s| s % 2 == 0), "{file}:{line}: scores are even");
            // Each line is also a fixed point of format/parse.
            let again = parse_obf_line(&format_obf(p), None, Variant::Normal).unwrap();
            assert_eq!(&again, p, "{file}:{line}");
        }
        total += problems.len();
    }
    assert_eq!(total, 79);
}

/// FFO #40-#59: best score and best moves (README answer key).
const FFO_40_59: [(i32, &[&str]); 20] = [
    (38, &["a2"]),
    (0, &["h4"]),
    (6, &["g2"]),
    (-12, &["c7", "g3"]),
    (-14, &["d2", "b8"]),
    (6, &["b2"]),
    (-8, &["b3"]),
    (4, &["g2"]),
    (28, &["f6"]),
    (16, &["e1"]),
    (10, &["d8"]),
    (6, &["e2", "a3"]),
    (0, &["a3"]),
    (-2, &["d8"]),
    (-2, &["c7"]),
    (0, &["g6", "b7", "e2", "g4"]),
    (2, &["h5"]),
    (-10, &["a6"]),
    (4, &["g1"]),
    (64, &["h4", "g8", "e8"]),
];

#[test]
fn ffo_40_to_59_match_the_answer_key() {
    let text = read(&shared_data("ffo").join("fforum-40-59.obf"));
    let problems = parse_obf(&text, None, Variant::Normal).unwrap();
    assert_eq!(problems.len(), FFO_40_59.len());
    for (k, ((_, p), (score, moves))) in problems.iter().zip(FFO_40_59).enumerate() {
        let number = 40 + k;
        assert_eq!(p.best_score(), Some(score), "#{number}");
        let mut got = p.best_moves();
        let mut want: Vec<Ply> = moves.iter().map(|m| sq(m)).collect();
        got.sort_by_key(|p| p.to_string());
        want.sort_by_key(|p| p.to_string());
        assert_eq!(got, want, "#{number}");
    }
    let first = &problems[0].1;
    assert_eq!(first.best_moves(), vec![sq("a2")]);
    assert_eq!(first.position.empties(), 20);
}

// ---------------------------------------------------------------- round trips

/// A random complete game from `start`, passes included.
fn random_game(start: Position, rng: &mut Rng) -> Replay {
    let mut replay = Replay::new(start);
    loop {
        let pos = replay.end();
        if pos.is_game_over() {
            return replay;
        }
        let moves: Vec<Square> = Square::iter(pos.moves()).collect();
        if moves.is_empty() {
            replay.push_pass().unwrap();
        } else {
            replay.push_move(moves[rng.below(moves.len())]).unwrap();
        }
    }
}

/// Checks every conversion on one game: transcript (both pass styles), GGF, and for
/// each position board string and OBF.
fn check_round_trips(replay: &Replay, rng: &mut Rng) {
    let start = replay.start;
    for style in [PassStyle::Implicit, PassStyle::Explicit] {
        let text = replay.transcript(style);
        assert_eq!(&parse_transcript(&text, &start).unwrap(), replay, "{text}");
    }
    let ggf = ggf_from_replay(replay, "black player", "white]player");
    let text = format_ggf(&ggf);
    let games = parse_ggf(&text, start.variant).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(games.len(), 1);
    let back = &games[0];
    assert_eq!(back.replay.plies, replay.plies, "{text}");
    assert_eq!(back.replay.positions, replay.positions, "{text}");
    assert_eq!(back, &ggf);
    assert_eq!(format_ggf(back), text);
    assert_eq!(back.white.as_deref(), Some("white]player"));
    assert_eq!(back.result, Some(format!("{:+}", replay.end().black_score())));
    for pos in std::iter::once(&start).chain(&replay.positions) {
        check_position(pos, rng);
    }
}

fn check_position(pos: &Position, rng: &mut Rng) {
    let board = format_position(pos);
    assert_eq!(&parse_position(&board, None, pos.variant).unwrap(), pos, "{board}");
    let max = pos.size.squares() as usize;
    let mut move_scores: Vec<(Ply, i32)> =
        Square::iter(pos.moves()).map(|s| (Ply::Move(s), rng.below(2 * max + 1) as i32 - max as i32)).collect();
    if pos.moves() == 0 && !pos.is_game_over() {
        move_scores.push((Ply::Pass, 0));
    }
    let score = (rng.below(2) == 0).then(|| rng.below(max + 1) as i32);
    let problem = ObfProblem { position: *pos, move_scores, position_score: score };
    let line = format_obf(&problem);
    assert_eq!(parse_obf_line(&line, Some(pos.size), pos.variant).unwrap(), problem, "{line}");
    let bare = ObfProblem { move_scores: Vec::new(), position_score: None, ..problem };
    assert_eq!(parse_obf_line(&format_obf(&bare), Some(pos.size), pos.variant).unwrap(), bare);
}

/// The value of `column` (0-based) of the known_values.csv row whose board is `board`.
fn known_value(board: &str, column: usize) -> String {
    let text = read(&shared_data("takizawa").join("known_values.csv"));
    let row = text.lines().find(|l| l.starts_with(&format!("{board},standard"))).expect("row in known_values.csv");
    row.split(',').nth(column).expect("column").to_string()
}

#[test]
fn perfect_8x8_line_round_trips_and_ends_32_32() {
    let pv = known_value("8x8", 4);
    let start = Position::start(BoardSize::Eight, Variant::Normal);
    let replay = parse_transcript(&pv, &start).unwrap();
    let end = replay.end();
    assert!(end.is_game_over());
    assert_eq!((end.black().count_ones(), end.white().count_ones()), (32, 32));
    assert_eq!(replay.plies.len(), 60);
    let ggf = format_ggf(&ggf_from_replay(&replay, "b", "w"));
    assert!(ggf.contains("RE[+0]"), "{ggf}");
    check_round_trips(&replay, &mut Rng::new(1));
}

#[test]
fn perfect_6x6_line_with_a_pass_round_trips() {
    let pv = known_value("6x6", 4).replace("(pass)", "pa");
    let start = Position::start(BoardSize::Six, Variant::Normal);
    let replay = parse_transcript(&pv, &start).unwrap();
    let end = replay.end();
    assert!(end.is_game_over());
    assert_eq!((end.black().count_ones(), end.white().count_ones()), (16, 20));
    assert!(replay.plies.contains(&Ply::Pass));
    check_round_trips(&replay, &mut Rng::new(2));
}

#[test]
fn random_games_round_trip_in_every_size_and_variant() {
    let mut rng = Rng::new(0x5eed);
    for size in BoardSize::ALL {
        for variant in [Variant::Normal, Variant::Reversed] {
            for _ in 0..8 {
                let replay = random_game(Position::start(size, variant), &mut rng);
                check_round_trips(&replay, &mut rng);
            }
        }
    }
}

#[test]
fn ggf_files_hold_many_games_and_keep_unknown_tags() {
    let mut rng = Rng::new(7);
    let games: Vec<Replay> =
        (0..5).map(|_| random_game(Position::start(BoardSize::Eight, Variant::Normal), &mut rng)).collect();
    let mut text = String::new();
    for (i, g) in games.iter().enumerate() {
        let mut record = ggf_from_replay(g, "p", "q");
        record.tags.push(("XX".to_string(), format!("note {i}")));
        text.push_str(&format_ggf(&record));
        text.push_str(if i % 2 == 0 { "\n" } else { " \r\n\n  " });
    }
    let back = parse_ggf(&text, Variant::Normal).unwrap();
    assert_eq!(back.len(), games.len());
    for (i, (b, g)) in back.iter().zip(&games).enumerate() {
        assert_eq!(&b.replay, g);
        assert_eq!(b.tag("XX"), Some(format!("note {i}").as_str()));
    }
    // A record broken over lines, with moves carrying evaluations and times and an
    // explicit GGS-style pass in a 4x4 anti game.
    // (4x4 squares are named on the 4x4 board: a2 is c4 of the 8x8 grid.)
    let anti = "(;GM[Othello]\nTY[4a]BO[4 ---- -O*- -*O- ---- *]\n  B[a2/1.00/2.5]W[A3//1];)";
    let g = &parse_ggf(anti, Variant::Normal).unwrap()[0];
    assert_eq!(g.replay.start.variant, Variant::Reversed);
    assert_eq!(g.replay.plies, vec![sq("c4"), sq("c5")]);
}

/// Issue 16 item 9: GGF names the squares of a 6x6 board a1..f6 from its own top-left
/// (as GGS does for every size); solvo writes those names and reads them back.
#[test]
fn ggf_6x6_uses_the_boards_own_square_names() {
    let text = "(;GM[Othello]TY[6]BO[6 ------ ------ --O*-- --*O-- ------ ------ *]B[e4]W[e5]B[d5];)";
    let g = &parse_ggf(text, Variant::Normal).unwrap()[0];
    assert_eq!(g.replay.start.size, BoardSize::Six);
    assert_eq!(g.replay.plies, vec![sq("f5"), sq("f6"), sq("e6")]);
    let written = format_ggf(g);
    assert!(written.contains("B[e4]W[e5]B[d5]"), "{written}");
    assert_eq!(&parse_ggf(&written, Variant::Normal).unwrap()[0], g);
    let e = parse_ggf(&text.replace("B[d5]", "B[g7]"), Variant::Normal).unwrap_err();
    assert!(e.message.contains("a1..f6"), "{e}");
    let e = parse_ggf(&text.replace("B[d5]", "B[a1]"), Variant::Normal).unwrap_err();
    assert!(e.message.contains("illegal move a1") && e.message.contains("d5"), "named on the 6x6 board: {e}");
}

// ---------------------------------------------------------------- malformed input

const FFO40: &str = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38; C7:+36;";

#[derive(Clone, Copy, Debug)]
enum Parser {
    Obf,
    Ggf,
    Transcript,
    Board,
}

fn parse_with(parser: Parser, text: &str) -> Result<(), ParseError> {
    let start = Position::start(BoardSize::Eight, Variant::Normal);
    match parser {
        Parser::Obf => parse_obf(text, None, Variant::Normal).map(drop),
        Parser::Ggf => parse_ggf(text, Variant::Normal).map(drop),
        Parser::Transcript => parse_transcript(text, &start).map(drop),
        Parser::Board => parse_position(text, None, Variant::Normal).map(drop),
    }
}

#[test]
fn malformed_inputs_are_errors_at_the_right_place() {
    let ffo = |from: &str, to: &str| format!("% c\n{FFO40}\n{}", FFO40.replace(from, to));
    let bo8 = "8 -------- -------- -------- ---O*--- ---*O--- -------- -------- --------";
    let cases: Vec<(Parser, String, (usize, usize), &str)> = vec![
        // OBF
        (Parser::Obf, ffo("A2:+38", "A1:+38"), (3, 69), "illegal move a1"),
        (Parser::Obf, ffo("A2:+38", "A2:+99"), (3, 72), "out of range"),
        (Parser::Obf, ffo("A2:+38", "A2:+3.5"), (3, 72), "not a score"),
        (Parser::Obf, ffo("A2:+38", "A2:"), (3, 72), "not a score"),
        (Parser::Obf, ffo("A2:+38", "I9:+38"), (3, 69), "not a move"),
        (Parser::Obf, ffo("A2:+38", "PA:+38"), (3, 69), "legal moves"),
        (Parser::Obf, ffo("C7:+36", "A2:+36"), (3, 77), "twice"),
        (Parser::Obf, ffo("C7:+36", "+36; -4"), (3, 82), "second position score"),
        (Parser::Obf, ffo(" X;", " Y;"), (3, 66), "expected a disc"),
        (Parser::Obf, ffo(" X;", ";"), (3, 65), "side to move"),
        (Parser::Obf, ffo("O--OO", "O--"), (3, 65), "found 63"),
        (Parser::Obf, format!("{}\n", FFO40.replacen("O", "Q", 1)), (1, 1), "expected a disc"),
        // GGF
        (Parser::Ggf, "(;GM[Othello];)\n  junk".to_string(), (2, 3), "between games"),
        (Parser::Ggf, "(;GM[Othello]\nPB[x".to_string(), (2, 5), "opened at line 2, column 3"),
        (Parser::Ggf, "(;GM[Othello]PB[x]".to_string(), (1, 19), "opened at line 1, column 1"),
        (Parser::Ggf, "(;GM[Othello]PB[x];".to_string(), (1, 20), "expected `)`"),
        (Parser::Ggf, "(;GM[Othello](;GM[Othello];)".to_string(), (1, 14), "in a game"),
        (Parser::Ggf, "(;PB x];)".to_string(), (1, 5), "expected `[`"),
        (Parser::Ggf, "(;GM[Go];)".to_string(), (1, 6), "expected GM[Othello]"),
        (Parser::Ggf, "(;BO[];)".to_string(), (1, 6), "board size"),
        (Parser::Ggf, "(;BO[ 12 *];)".to_string(), (1, 7), "unsupported board size 12"),
        (Parser::Ggf, format!("(;BO[{bo8}];)"), (1, 79), "side to move"),
        (Parser::Ggf, format!("(;BO[{bo8} *]\nB[f5]W[d6]B[c3]\nW[z9];)"), (3, 3), "move 4 (W[z9]): not a move"),
        (Parser::Ggf, format!("(;BO[{bo8} *]B[f5]W[d6]\nB[ h8 ];)"), (2, 4), "move 3 (B[h8]): illegal move h8"),
        (Parser::Ggf, format!("(;BO[{bo8} *]B[f5]B[d6];)"), (1, 89), "move 2 (B[d6]): white to move"),
        (Parser::Ggf, format!("(;BO[{bo8} *]B[PA];)"), (1, 84), "move 1 (B[PA]): pass while black has legal moves"),
        // Transcripts
        (Parser::Transcript, "f5d6\n  c3 a1".to_string(), (2, 6), "illegal move a1"),
        (Parser::Transcript, "f5 d".to_string(), (1, 4), "incomplete move"),
        (Parser::Transcript, "f5x6".to_string(), (1, 3), "not a move"),
        // Board strings
        (Parser::Board, "--------\n----?---".to_string(), (2, 5), "unexpected character"),
        (Parser::Board, "-----OX--XO----- Z".to_string(), (1, 18), "expected a disc"),
        (Parser::Board, "-----OX--XO----- -".to_string(), (1, 18), "side to move"),
    ];
    for (parser, text, (line, column), what) in cases {
        let Err(e) = parse_with(parser, &text) else { panic!("{parser:?} accepted {text:?}") };
        assert_eq!((e.line, e.column), (line, column), "{parser:?} {text:?}: {e}");
        assert!(e.message.contains(what), "{parser:?} {text:?}: {e} (expected {what:?})");
    }
}

#[test]
fn obf_size_mismatches_name_the_line() {
    let text = format!("\n\n{FFO40}");
    let e = parse_obf(&text, Some(BoardSize::Six), Variant::Normal).unwrap_err();
    assert_eq!((e.line, e.column), (3, 1), "{e}");
    assert!(e.message.contains("outside the 6x6"), "{e}");
    let small = "-----OX--XO----- X; C4:+2;";
    let e = parse_obf(&format!("%\n{small}"), Some(BoardSize::Eight), Variant::Normal).unwrap_err();
    assert_eq!((e.line, e.column), (2, 1), "{e}");
    let ok = parse_obf_line(small, None, Variant::Normal).unwrap();
    assert_eq!(ok.best_moves(), vec![sq("c4")]);
}

/// Issue 16 item 8: Edax's own problem files (terminator `--:-127;`), and the variants
/// Edax writes and reads: `%` and `#` comments (own line or trailing), CRLF line ends.
#[test]
fn edax_obf_variants_parse() {
    for (file, count) in [("hard-20.obf", 276), ("hard-25.obf", 311)] {
        let problems = parse_obf(&read(&shared_data("edax-hard").join(file)), None, Variant::Normal)
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(problems.len(), count, "{file}");
        for (line, p) in &problems {
            let moves = p.position.moves().count_ones() as usize;
            assert_eq!(p.move_scores.len(), moves, "{file} line {line}: every legal move scored, -- left out");
        }
    }
    let first = "-OOO------OOOO--XXXOOXXX-XOOOXX-XXXXOOOOOXXOOOO---OXOO---OOOO--- X; E1:+0; F8:-2; --:-127;";
    let text = format!("% a comment\r\n# another\r\n{first} % trailing comment\r\n\r\n{}\r\n", FFO40);
    let problems = parse_obf(&text, None, Variant::Normal).unwrap();
    assert_eq!(problems.iter().map(|(l, _)| *l).collect::<Vec<_>>(), [3, 5]);
    assert_eq!(problems[0].1.best_moves(), vec![sq("e1")]);
    assert_eq!(problems[0].1.best_score(), Some(0));
    assert_eq!(parse_obf_line(first, None, Variant::Normal).unwrap(), problems[0].1);
    let e = parse_obf_line(&first.replace("--:-127", "--:x"), None, Variant::Normal).unwrap_err();
    assert!(e.message.contains("terminator"), "{e}");
}

// ---------------------------------------------------------------- never panic

fn feed_all(text: &str) {
    let start = Position::start(BoardSize::Eight, Variant::Normal);
    for size in [None, Some(BoardSize::Four), Some(BoardSize::Six), Some(BoardSize::Eight)] {
        let _ = parse_obf(text, size, Variant::Normal);
        let _ = parse_position(text, size, Variant::Reversed);
    }
    let _ = parse_ggf(text, Variant::Normal);
    let _ = parse_transcript(text, &start);
    let _ = parse_transcript(text, &Position::start(BoardSize::Four, Variant::Normal));
}

/// Strings built from the characters the formats care about, so the parsers get past
/// their first checks more often than with uniformly random text.
fn format_alphabet() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "(", ")", ";", "[", "]", "\\", ":", "%", "/", "\n", " ", "\r", "X", "O", "*", "-", ".", "+", "-2", "38", "a1",
        "F5", "d6", "PS", "pa", "GM", "B", "W", "BO", "TY", "8a", "4", "6", "8", "é", "\u{feff}",
    ]);
    prop::collection::vec(pieces, 0..200).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn parsers_never_panic_on_strings(text in ".{0,300}") {
        feed_all(&text);
    }

    #[test]
    fn parsers_never_panic_on_bytes(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        feed_all(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn parsers_never_panic_on_format_like_text(text in format_alphabet()) {
        feed_all(&text);
    }

    #[test]
    fn parsers_never_panic_on_damaged_valid_input(seed in any::<u64>(), cut in 0usize..400, junk in ".{0,3}") {
        let mut rng = Rng::new(seed);
        let replay = random_game(Position::start(BoardSize::Eight, Variant::Normal), &mut rng);
        let problem = ObfProblem {
            position: replay.positions.get(cut % 60).copied().unwrap_or(replay.start),
            move_scores: Vec::new(),
            position_score: Some(0),
        };
        for valid in [format_ggf(&ggf_from_replay(&replay, "a", "b")), format_obf(&problem), replay.transcript(PassStyle::Explicit)] {
            let mut chars: Vec<char> = valid.chars().collect();
            let at = cut % (chars.len() + 1);
            chars.splice(at..(at + 2).min(chars.len()), junk.chars());
            feed_all(&chars.into_iter().collect::<String>());
        }
    }
}
