//! One module per `solvo` subcommand.

pub mod bench;
pub mod convert;
pub mod perft;
pub mod query;
pub mod semistrong;
pub mod show;
pub mod solve;
pub mod verify_store;
pub mod wthor;
