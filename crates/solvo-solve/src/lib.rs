//! solvo-solve: solving whole Othello boards (4x4, 6x6, the 8x8 pipeline) on top of the
//! exact endgame solver: position enumeration, weak, strong and semi-strong solutions,
//! the crash-safe solution store and the perfect player; and the proof store that lets
//! long solves of the generic game solvers resume ([`proof_store`]).

pub mod children;
pub mod count;
pub mod enumerate;
pub mod exact;
mod extsort;
mod file_holders;
pub mod game_store;
pub mod levelfile;
pub mod lookup;
mod open_file_limit;
pub mod player;
pub mod proof_store;
pub mod record_checksum;
mod records;
mod reopening;
pub mod selfcheck;
pub mod semistrong;
pub mod semistrong_root;
pub mod solve_knowledge;
pub mod store;
pub mod strong;
pub mod verify;
pub mod weak;

pub use store::{kind, Record, Store, StoreError};
