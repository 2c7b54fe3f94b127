//! Which weights share one parameter: pattern contents that a symmetry of the pattern
//! maps onto each other (a diagonal read from either end, a 3x3 corner mirrored along
//! its diagonal) must have equal weights for the evaluation to be symmetric.

use crate::features::PATTERN_OFFSETS;
use crate::features6::PATTERN_OFFSETS6;
use crate::pattern::{Pattern, PATTERNS, PATTERNS6};
use crate::weights::layout_of;
use solvo_othello::BoardSize;

/// For every weight of a stage on `size` (8x8 or 6x6; `None` for 4x4), the index of
/// the weight that represents its symmetry class (the smallest index of the class; a
/// representative maps to itself).
pub fn tied_parameters_for(size: BoardSize) -> Option<Vec<u32>> {
    let (_, stage_len) = layout_of(size)?;
    let (patterns, offsets): (&[Pattern], &[usize]) = match size {
        BoardSize::Six => (&PATTERNS6, &PATTERN_OFFSETS6),
        _ => (&PATTERNS, &PATTERN_OFFSETS),
    };
    let mut map: Vec<u32> = (0..stage_len as u32).collect();
    for (p, &off) in patterns.iter().zip(offsets) {
        for (i, r) in p.representatives().into_iter().enumerate() {
            map[off + i] = (off + r as usize) as u32;
        }
    }
    Some(map)
}
