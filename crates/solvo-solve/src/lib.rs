//! solvo-solve: solving whole Othello boards (4x4, 6x6, the 8x8 pipeline) on top of the
//! exact endgame solver: position enumeration, weak, strong and semi-strong solutions,
//! the crash-safe solution store and the perfect player.

pub mod store;

pub use store::{kind, Record, Store, StoreError};
pub mod count;
pub mod exact;
pub mod reopening;
pub mod semistrong;
pub mod verify;
