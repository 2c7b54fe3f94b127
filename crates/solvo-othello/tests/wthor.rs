//! Every game of the WTHOR database (137,548 games, 1977-2025) replays legally, and the
//! recorded final disc count equals the replayed result (empties to the winner).

use proptest::prelude::*;
use solvo_othello::formats::wthor::{
    parse_names, parse_wtb, write_wtb, WthorGame, PLAYER_RECORD_LEN, TOURNAMENT_RECORD_LEN,
};
use std::path::PathBuf;

fn data_dir() -> PathBuf {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data/wthor"));
    assert!(dir.is_dir(), "WTHOR data not found at {} (shared/ must sit beside the repository)", dir.display());
    dir
}

#[test]
fn all_games_replay_and_final_counts_match() {
    let dir = data_dir();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "wtb"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 49, "one file per year 1977..=2025");
    let (mut total, mut full, mut ended_early, mut unfinished) = (0, 0, 0, 0);
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let db = parse_wtb(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(db.header.depth, 24, "{}", path.display());
        assert_eq!(write_wtb(&db), bytes, "{}: write(parse(x)) == x", path.display());
        for (i, game) in db.games.iter().enumerate() {
            let replay = game.replay().unwrap_or_else(|e| panic!("{} game {}: {e}", path.display(), i + 1));
            total += 1;
            match WthorGame::replayed_black_discs(&replay) {
                Some(discs) => {
                    assert_eq!(discs, game.black_discs, "{} game {}", path.display(), i + 1);
                    if replay.end().empties() == 0 {
                        full += 1;
                    } else {
                        ended_early += 1;
                    }
                }
                None => unfinished += 1,
            }
        }
    }
    assert_eq!(total, 137_548);
    assert_eq!((full, ended_early, unfinished), (130_689, 6_446, 413));
}

#[test]
fn name_files_parse() {
    let dir = data_dir();
    let players = parse_names(&std::fs::read(dir.join("WTH.JOU")).unwrap(), PLAYER_RECORD_LEN).unwrap();
    let tournaments = parse_names(&std::fs::read(dir.join("WTH.TRN")).unwrap(), TOURNAMENT_RECORD_LEN).unwrap();
    assert_eq!(players.len(), 4448);
    assert_eq!(tournaments.len(), 492);
    assert_eq!(players[0], "???");
}

proptest! {
    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        if let Ok(db) = parse_wtb(&bytes) {
            for g in &db.games {
                let _ = g.replay();
            }
        }
        let _ = parse_names(&bytes, PLAYER_RECORD_LEN);
        let _ = parse_names(&bytes, TOURNAMENT_RECORD_LEN);
    }

    #[test]
    fn headers_with_random_games_never_panic(n in 0u32..4, body in proptest::collection::vec(any::<u8>(), 0..300)) {
        let mut bytes = vec![20, 24, 1, 1];
        bytes.extend(n.to_le_bytes());
        bytes.extend([0, 0, 0xE8, 0x07, 8, 0, 24, 0]);
        bytes.extend(body);
        if let Ok(db) = parse_wtb(&bytes) {
            for g in &db.games {
                let _ = g.replay();
            }
        }
    }
}
