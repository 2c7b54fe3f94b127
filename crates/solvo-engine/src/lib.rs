//! solvo-engine: the playing engine that every front end (the terminal game, NBoard,
//! GTP, the match runner, later the web server) calls, so that none of them holds
//! search or game logic.
//!
//! One file per concept:
//! - [`analysis`]: every move's value for a person looking at the board (refined,
//!   then exact move by move), and a game's review (each move's loss);
//! - [`session`]: a game being played (start, plies with passes, undo and redo);
//! - [`level`]: levels 1-60 (midgame depth, exact-solve threshold, selectivity);
//! - [`clock`]: time controls and the time a move may take;
//! - [`engine`]: the questions (best move, every move's score streamed, exact solve)
//!   and the stop handle;
//! - [`book`]: the opening book (built from game collections, deepened by search);
//! - [`openings`]: match openings (XOT lists, seeded random openings);
//! - [`arena`]: a game between two contestants (clocks, forfeits) and match
//!   statistics (score rate, Elo with its interval);
//! - [`external`]: external programs as contestants, over GTP or NBoard;
//! - [`tournament`]: a match (openings twice with colours swapped, games in
//!   parallel, resuming).

#![warn(missing_docs)]

mod analysis;
pub mod arena;
pub mod book;
mod clock;
mod engine;
pub mod external;
mod level;
pub mod match_record;
pub mod openings;
mod session;
mod small;
pub mod tournament;

pub use analysis::{GameReview, MoveTable, MoveValue, PlyReview};
pub use clock::{allot, Clock, MoveTime, TimeControl};
pub use engine::{
    exact_reach, wld_reach, Engine, EngineError, EngineSettings, ErrorKind, StopHandle, TABLES_PER_ENGINE,
};
pub use level::{Level, MAX_LEVEL};
pub use session::{Session, SquareNames};
pub use solvo_othello_search::{MoveScore, SearchResult};
