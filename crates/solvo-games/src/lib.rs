//! solvo-games: two-player games other than Othello, each behind [`solvo_core::Game`],
//! so that every generic algorithm of `solvo-search` solves them.
//!
//! Every game is won or lost (no draws): a finished position has the value `+1` when
//! the side to move has won and `-1` when it has lost; `max_value()` is 1.
