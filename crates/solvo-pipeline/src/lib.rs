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

pub mod config;
pub mod estimate;
pub mod expand;
pub mod goal;
pub mod knowledge;
pub mod node;
pub mod player;
pub mod postgres;
pub mod proof;
pub mod select;
pub mod sqlite;
pub mod stages;
pub mod store;
pub mod table_check;
pub mod verify;
pub mod worker;

pub use config::Config;

pub use store::{PipelineStore, StoreError, StoreResult};

/// Opens the store named by `db`: a `postgres://` or `postgresql://` URL, or a SQLite
/// file path. Migrations are applied.
pub fn open_store(db: &str) -> StoreResult<Box<dyn PipelineStore>> {
    if db.starts_with("postgres://") || db.starts_with("postgresql://") {
        Ok(Box::new(postgres::PgStore::connect(db)?))
    } else {
        Ok(Box::new(sqlite::SqliteStore::open(std::path::Path::new(db))?))
    }
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
