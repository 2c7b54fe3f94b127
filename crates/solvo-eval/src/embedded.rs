//! The weight sets built into the binary, so that a fresh build evaluates positions
//! without any file. They are the committed product of `solvo train` (see the
//! README for the commands that reproduce them).

use crate::format::WeightFileError;
use crate::weights::Weights;
use solvo_othello::Variant;
use std::sync::{Arc, OnceLock};

/// The 8x8 normal-rules weights, as committed.
static NORMAL8: &[u8] = include_bytes!("../weights/normal8.sew");

/// The 8x8 reversed-rules (misère) weights, when this build has them.
static REVERSED8: Option<&[u8]> = None;

/// The embedded weights for `variant` on 8x8, parsed once. An error when this build
/// carries none for the variant (give a file instead).
pub fn embedded(variant: Variant) -> Result<&'static Weights, WeightFileError> {
    cell(variant).as_ref().map(|w| &**w).map_err(Clone::clone)
}

/// [`embedded`], as a shared pointer (for holders that also take weights read from a
/// file).
pub fn embedded_shared(variant: Variant) -> Result<Arc<Weights>, WeightFileError> {
    cell(variant).clone()
}

fn cell(variant: Variant) -> &'static Result<Arc<Weights>, WeightFileError> {
    static CELLS: [OnceLock<Result<Arc<Weights>, WeightFileError>>; 2] = [OnceLock::new(), OnceLock::new()];
    let (cell, bytes) = match variant {
        Variant::Normal => (&CELLS[0], Some(NORMAL8)),
        Variant::Reversed => (&CELLS[1], REVERSED8),
    };
    cell.get_or_init(|| match bytes {
        Some(b) => Weights::from_bytes(b).map(Arc::new),
        None => Err(WeightFileError {
            message: format!("this build has no embedded {} weights; give a weight file", variant.name()),
        }),
    })
}

/// Reads a weight file from disk. Errors name the file and what is wrong with it.
pub fn read_file(path: &std::path::Path) -> Result<Weights, WeightFileError> {
    let bytes = std::fs::read(path)
        .map_err(|e| WeightFileError { message: format!("cannot read weight file {}: {e}", path.display()) })?;
    Weights::from_bytes(&bytes)
        .map_err(|e| WeightFileError { message: format!("weight file {}: {}", path.display(), e.message) })
}
