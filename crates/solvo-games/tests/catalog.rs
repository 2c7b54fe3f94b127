//! The catalogue: names, default sizes, dispatch, size parsing, errors.

use solvo_core::Game;
use solvo_games::{dispatch, dispatch_with, find, list, parse_size, GameError, GameOptions, GameVisitor};

struct Describe;

impl GameVisitor for Describe {
    type Output = (usize, u8, String);
    fn visit<G: Game + std::fmt::Display + 'static>(self, game: G) -> Self::Output {
        let mut moves = Vec::new();
        game.generate_moves(&mut moves);
        (moves.len(), game.player_to_move(), game.to_string())
    }
}

#[test]
fn every_listed_game_dispatches_at_its_default_size() {
    let names: Vec<&str> = list().iter().map(|s| s.name).collect();
    assert_eq!(
        names,
        [
            "domineering",
            "misere-domineering",
            "breakthrough",
            "misere-breakthrough",
            "knightthrough",
            "misere-knightthrough",
            "atarigo",
            "nogo",
            "go"
        ]
    );
    for spec in list() {
        let (moves, player, text) = dispatch(spec.name, spec.default_rows, spec.default_cols, Describe).unwrap();
        assert!(moves > 0, "{}", spec.name);
        assert_eq!(player, 0);
        assert!(!text.is_empty());
        assert!(!spec.description.is_empty());
    }
}

#[test]
fn names_are_forgiving() {
    assert_eq!(find("Misère_Domineering").unwrap().name, "misere-domineering");
    assert_eq!(find(" NOGO ").unwrap().name, "nogo");
    assert!(find("chess").is_none());
}

#[test]
fn start_move_counts() {
    assert_eq!(dispatch("domineering", 7, 7, Describe).unwrap().0, 42);
    assert_eq!(dispatch("breakthrough", 5, 5, Describe).unwrap().0, 13);
    assert_eq!(dispatch("nogo", 3, 3, Describe).unwrap().0, 9);
    assert_eq!(dispatch("go", 3, 3, Describe).unwrap().0, 10);
}

#[test]
fn errors_name_the_problem() {
    match dispatch("chess", 8, 8, Describe) {
        Err(GameError::UnknownGame { name, known }) => {
            assert_eq!(name, "chess");
            assert_eq!(known.len(), 9);
        }
        other => panic!("{other:?}"),
    }
    let e = dispatch("domineering", 9, 9, Describe).unwrap_err();
    assert!(matches!(e, GameError::UnsupportedSize { .. }));
    assert!(e.to_string().contains("81 cells"), "{e}");
    let e = dispatch("breakthrough", 3, 5, Describe).unwrap_err();
    assert!(e.to_string().contains("at least 4 rows"), "{e}");
    assert!(dispatch("go", 0, 3, Describe).is_err());
    let bad = GameOptions::parse("komi=8.5").unwrap();
    let e = dispatch_with("nogo", 3, 3, &bad, Describe).unwrap_err();
    assert!(matches!(e, GameError::BadOption { .. }), "{e}");
    assert!(e.to_string().contains("komi"));
    let e = dispatch_with("breakthrough", 5, 5, &GameOptions::parse("no-move=win").unwrap(), Describe).unwrap_err();
    assert!(e.to_string().contains("misère"), "{e}");
    assert!(GameOptions::parse("komi").is_err());
}

#[test]
fn options_reach_the_game() {
    let o = GameOptions::parse("first=horizontal").unwrap();
    let (_, _, text) = dispatch_with("domineering", 3, 3, &o, Describe).unwrap();
    assert!(text.contains("horizontal"), "{text}");
    let o = GameOptions::parse("komi=9.5, move-limit=30").unwrap();
    let (_, _, text) = dispatch_with("go", 3, 3, &o, Describe).unwrap();
    assert!(text.contains("komi 9.5"), "{text}");
    let o = GameOptions::parse("no-move=win").unwrap();
    assert!(dispatch_with("misere-knightthrough", 5, 5, &o, Describe).is_ok());
    let o = GameOptions::parse("capture=loses").unwrap();
    assert!(dispatch_with("nogo", 4, 4, &o, Describe).is_ok());
}

#[test]
fn sizes_parse() {
    assert_eq!(parse_size("7x7").unwrap(), (7, 7));
    assert_eq!(parse_size(" 4X5 ").unwrap(), (4, 5));
    assert_eq!(parse_size("3×4").unwrap(), (3, 4));
    for bad in ["7", "x7", "7x", "0x3", "axb", "7x7x7", ""] {
        assert!(matches!(parse_size(bad), Err(GameError::BadSizeText(_))), "{bad}");
    }
}
