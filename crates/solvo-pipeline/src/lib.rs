//! solvo-pipeline: weak solving at scale, as the 8x8 "Othello is a draw" computation was
//! organised, over a work queue that many machines share.
//!
//! Stages ([`stages`]): enumerate the positions at the task depth, estimate them
//! ([`estimate`], E), select the tasks whose hypothesised values prove the root
//! ([`select`], G50), expand each task into a to-do list of leaves with windows over the
//! knowledge store ([`expand`], G36; [`proof`] for the bounds from knowledge alone), solve
//! the leaves exactly with those windows (Q) until every task is decided, then verify
//! ([`verify`]) from the knowledge alone, and check the table against results computed
//! another way ([`table_check`]). The queue and the knowledge live behind
//! [`store::PipelineStore`] with two backends, [`sqlite`] and [`postgres`]; workers
//! ([`worker`]) claim jobs under leases renewed by a heartbeat.

mod config;
pub mod estimate;
pub mod expand;
pub mod goal;
mod knowledge;
pub mod node;
pub mod player;
mod postgres;
pub mod proof;
pub mod select;
mod sqlite;
pub mod stages;
pub mod store;
pub mod table_check;
pub mod verify;
pub mod worker;

pub use config::Config;

pub use store::{PipelineStore, PipelineStoreError, PipelineStoreResult};

/// Opens the existing store named by `db`: a `postgres://` or `postgresql://` URL, or a
/// SQLite file path. Migrations are applied. Never creates a file: a path that does not
/// exist, a directory or an empty file is an error saying so (stores are made by
/// [`create_store`], i.e. `solvo pipeline init`), so a mistyped name creates nothing.
pub fn open_store(db: &str) -> PipelineStoreResult<Box<dyn PipelineStore>> {
    if is_postgres(db) {
        Ok(Box::new(postgres::PgStore::connect(db)?))
    } else {
        Ok(Box::new(sqlite::SqliteStore::open_existing(std::path::Path::new(db))?))
    }
}

/// Opens the store named by `db` as [`open_store`] does, creating the SQLite file (and
/// its directory) when it does not exist yet: for the command that makes a store.
pub fn create_store(db: &str) -> PipelineStoreResult<Box<dyn PipelineStore>> {
    if is_postgres(db) {
        Ok(Box::new(postgres::PgStore::connect(db)?))
    } else {
        Ok(Box::new(sqlite::SqliteStore::open(std::path::Path::new(db))?))
    }
}

/// Whether `db` names a PostgreSQL database (a `postgres://` or `postgresql://` URL)
/// rather than a SQLite file.
pub fn is_postgres(db: &str) -> bool {
    db.starts_with("postgres://") || db.starts_with("postgresql://")
}

/// Positions the unit tests share.
#[cfg(test)]
pub(crate) mod test_positions {
    use solvo_othello::{BoardSize, Position, Square, Variant};

    /// The first 12 plies of the published optimal 6x6 line (20 empties left, value -4).
    pub const OPTIMAL_12: [&str; 12] = ["f5", "d6", "c5", "f4", "d3", "e3", "g4", "g5", "g6", "c4", "b4", "d2"];

    /// The 6x6 position after `moves` from the start (implicit passes).
    pub fn six_by_six_after(moves: &[&str]) -> Position {
        let mut pos = Position::start(BoardSize::Six, Variant::Normal);
        for m in moves {
            pos = pos.play_with_implicit_pass(Square::parse(m).unwrap()).unwrap();
        }
        pos
    }
}

#[cfg(test)]
mod open_tests {
    #[test]
    fn opening_a_store_creates_nothing_and_names_what_is_there_instead() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("sub").join("typo.sqlite");
        let empty = dir.path().join("empty.sqlite");
        std::fs::write(&empty, b"").unwrap();
        for (path, what) in
            [(&missing, "no such file"), (&dir.path().to_path_buf(), "is a directory"), (&empty, "empty file")]
        {
            let Err(e) = super::open_store(path.to_str().unwrap()) else { panic!("{} opened", path.display()) };
            assert!(e.to_string().contains(what), "{e}");
        }
        assert!(!missing.exists() && !missing.parent().unwrap().exists(), "a file or directory was created");
        assert_eq!(std::fs::metadata(&empty).unwrap().len(), 0);
        // The store made by `create_store` is opened again.
        let made = dir.path().join("made.sqlite");
        drop(super::create_store(made.to_str().unwrap()).unwrap());
        assert!(super::open_store(made.to_str().unwrap()).is_ok());
    }

    #[test]
    fn a_damaged_wthor_game_is_not_counted_but_listed() {
        use solvo_othello::formats::wthor::{parse_wtb, write_wtb, GAME_LEN, HEADER_LEN};
        let shared = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/wthor/WTH_1980.wtb");
        let mut db = parse_wtb(&std::fs::read(shared).unwrap()).unwrap();
        db.games.truncate(3);
        let mut bytes = write_wtb(&db);
        bytes[HEADER_LEN + GAME_LEN + 8 + 29] = 99;
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("WTH_1980.wtb"), bytes).unwrap();
        let f = crate::select::wthor_frequency(dir.path(), 50).unwrap();
        assert_eq!(f.games, 2);
        assert!(f.problems.iter().any(|p| p.contains("game 2") && p.contains("damaged record")), "{:?}", f.problems);
    }
}
