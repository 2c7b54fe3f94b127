//! The weight sets built into the binary, so that a fresh build evaluates positions
//! without any file. They are the committed product of `solvo-lab train` (see the
//! README for the commands that reproduce them).

use crate::format::WeightFileError;
use crate::weights::Weights;
use solvo_othello::{BoardSize, Variant};
use std::sync::{Arc, OnceLock};

/// The 8x8 normal-rules weights, as committed.
static NORMAL8: &[u8] = include_bytes!("../weights/normal8.sew");

/// The 8x8 reversed-rules (misère) weights.
static REVERSED8: &[u8] = include_bytes!("../weights/reversed8.sew");

/// The 6x6 normal-rules weights.
static NORMAL6: Option<&[u8]> = Some(include_bytes!("../weights/normal6.sew"));

/// The embedded weights for `variant` on 8x8, parsed once (see [`embedded_for`]).
pub fn embedded(variant: Variant) -> Result<&'static Weights, WeightFileError> {
    embedded_for(BoardSize::Eight, variant)
}

/// [`embedded`], as a shared pointer (for holders that also take weights read from a
/// file).
pub fn embedded_shared(variant: Variant) -> Result<Arc<Weights>, WeightFileError> {
    embedded_shared_for(BoardSize::Eight, variant)
}

/// The embedded weights for positions of `size` under `variant`, parsed once: 8x8
/// normal and reversed, 6x6 normal. An error naming the size and variant when this
/// build carries none for them (give a weight file instead); the weights returned
/// always pass [`Weights::check_for`]`(size, variant)`.
pub fn embedded_for(size: BoardSize, variant: Variant) -> Result<&'static Weights, WeightFileError> {
    cell(size, variant).as_ref().map(|w| &**w).map_err(Clone::clone)
}

/// [`embedded_for`], as a shared pointer.
pub fn embedded_shared_for(size: BoardSize, variant: Variant) -> Result<Arc<Weights>, WeightFileError> {
    cell(size, variant).clone()
}

fn cell(size: BoardSize, variant: Variant) -> &'static Result<Arc<Weights>, WeightFileError> {
    static CELLS: [OnceLock<Result<Arc<Weights>, WeightFileError>>; 4] =
        [OnceLock::new(), OnceLock::new(), OnceLock::new(), OnceLock::new()];
    static NONE: OnceLock<Result<Arc<Weights>, WeightFileError>> = OnceLock::new();
    let (cell, bytes) = match (size, variant) {
        (BoardSize::Eight, Variant::Normal) => (&CELLS[0], Some(NORMAL8)),
        (BoardSize::Eight, Variant::Reversed) => (&CELLS[1], Some(REVERSED8)),
        (BoardSize::Six, Variant::Normal) => (&CELLS[2], NORMAL6),
        (BoardSize::Six, Variant::Reversed) => (&CELLS[3], None),
        (BoardSize::Four, _) => (&NONE, None),
    };
    cell.get_or_init(|| {
        let missing = || WeightFileError {
            message: format!(
                "this build has no embedded weights for {size} {} rules; give a weight file",
                variant.name()
            ),
        };
        let w = Weights::from_bytes(bytes.ok_or_else(missing)?)?;
        // An embedded file of the wrong size or variant is a build mistake: refused
        // like a foreign file, never used for the wrong board.
        w.check_for(size, variant)?;
        Ok(Arc::new(w))
    })
}

/// Reads a weight file from disk. Errors name the file and what is wrong with it.
pub fn read_file(path: &std::path::Path) -> Result<Weights, WeightFileError> {
    let bytes = std::fs::read(path)
        .map_err(|e| WeightFileError { message: format!("cannot read weight file {}: {e}", path.display()) })?;
    Weights::from_bytes(&bytes)
        .map_err(|e| WeightFileError { message: format!("weight file {}: {}", path.display(), e.message) })
}
