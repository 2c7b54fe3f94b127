//! The published 8x8 run's first count: 2,958,551 positions with 50 empties (14 discs)
//! that have a legal move, symmetric positions identified ("Othello is solved", section
//! 4). The pipeline's `enumerate` stage counts them the same way.

use solvo_othello::{Board, BoardSize};
use solvo_pipeline::stages::enumerate_positions;

#[test]
fn the_8x8_positions_at_50_empties_are_the_published_2958551() {
    let boards = enumerate_positions(BoardSize::Eight, &Board::start(), 50);
    assert_eq!(boards.len(), 2_958_551);
    assert!(boards.iter().all(|b| b.empties(BoardSize::Eight) == 50 && b.moves(BoardSize::Eight) != 0));
}
