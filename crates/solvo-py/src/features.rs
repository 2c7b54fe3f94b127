//! The evaluation's pattern features for people who train their own models:
//! `features(positions)` (every active feature's index into a stage's weights),
//! `stages(positions)`, `weights()` (the embedded tables) and `evaluate_many`. The
//! results are NumPy arrays built from Rust vectors without a copy; an input array of
//! (player, opponent) bitboards is read in place.
//!
//! For a position `p` (side to move `player`, not finished): the evaluation in discs is
//! `weights()[stages(p)[0]][features(p)[0]].sum() / 128`, clamped to +-64 (`evaluate`).

use crate::errors::{Failure, Fallible};
use crate::position::{board_size, variant, PyPosition};
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;
use solvo_eval::features::{feature_indices, ACTIVE_FEATURES};
use solvo_eval::features6::{feature_indices6, ACTIVE_FEATURES6};
use solvo_eval::Weights;
use solvo_othello::{BoardSize, Variant};

/// The embedded weights of `size` and `variant`, or the error naming what exists.
pub fn weights_for(size: BoardSize, variant: Variant) -> Fallible<&'static Weights> {
    solvo_eval::embedded_for(size, variant).map_err(|e| Failure::input(e.message))
}

/// Active features per position on a board of `size`.
fn feature_count(size: BoardSize) -> Fallible<usize> {
    match size {
        BoardSize::Eight => Ok(ACTIVE_FEATURES),
        BoardSize::Six => Ok(ACTIVE_FEATURES6),
        BoardSize::Four => Err(Failure::input("the evaluation has no features for 4x4 boards (8x8 and 6x6 only)")),
    }
}

/// Boards read from the `positions` argument: (player, opponent) pairs and the size.
struct Boards {
    pairs: Vec<(u64, u64)>,
    size: BoardSize,
    /// The rules of the `Position` objects read (`None` for an array, or no position).
    variant: Option<Variant>,
}

/// Reads `positions`: a sequence of `Position` (one size), or an array of shape (n, 2)
/// of unsigned 64-bit (player, opponent) bitboards of boards of `size` (default 8).
fn boards(positions: &Bound<'_, PyAny>, size: Option<&Bound<'_, PyAny>>) -> Fallible<Boards> {
    let given = board_size(size)?;
    if let Ok(array) = positions.extract::<PyReadonlyArray2<'_, u64>>() {
        let shape = array.shape();
        if shape[1] != 2 {
            return Err(Failure::input(format!(
                "positions: an array of shape (n, 2) of (player, opponent) bitboards, not {shape:?}"
            )));
        }
        let view = array.as_array();
        let size = given.unwrap_or(BoardSize::Eight);
        let mut pairs = Vec::with_capacity(shape[0]);
        for (i, row) in view.rows().into_iter().enumerate() {
            let (p, o) = (row[0], row[1]);
            if p & o != 0 || (p | o) & !size.mask() != 0 {
                return Err(Failure::input(format!(
                    "positions[{i}]: player {p:#x} and opponent {o:#x} overlap or lie off the {size} board"
                )));
            }
            pairs.push((p, o));
        }
        return Ok(Boards { pairs, size, variant: None });
    }
    let iter = positions.try_iter().map_err(|_| {
        Failure::input("positions: expected Position objects or an array of shape (n, 2) of uint64 bitboards")
    })?;
    let mut pairs = Vec::new();
    let mut seen: Option<BoardSize> = given;
    let mut variant: Option<Variant> = None;
    for (i, item) in iter.enumerate() {
        let item = item.map_err(|e| Failure::input(e.to_string()))?;
        let p = item
            .cast::<PyPosition>()
            .map_err(|_| Failure::input(format!("positions[{i}]: not a solvo.Position")))?
            .get()
            .pos;
        if variant.is_some_and(|v| v != p.variant) {
            let other = if p.variant == Variant::Normal { Variant::Reversed } else { Variant::Normal };
            return Err(Failure::input(format!("positions[{i}]: a {} position among {other} ones", p.variant)));
        }
        variant = Some(p.variant);
        match seen {
            Some(s) if s != p.size => {
                return Err(Failure::input(format!("positions[{i}]: a {} position among {s} ones", p.size)))
            }
            _ => seen = Some(p.size),
        }
        pairs.push((p.board.player, p.board.opponent));
    }
    Ok(Boards { pairs, size: seen.unwrap_or(BoardSize::Eight), variant })
}

/// The active features of every position: an array of shape (n, 53) on 8x8, (n, 41)
/// on 6x6, of `uint32` indices into one stage's weights (`weights()[stage]`), in a fixed
/// order: the pattern instances, then the mobility of each side and the parity.
#[pyfunction]
#[pyo3(signature = (positions, size = None))]
pub fn features<'py>(
    py: Python<'py>,
    positions: &Bound<'py, PyAny>,
    size: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArray2<u32>>> {
    let b = boards(positions, size)?;
    let k = feature_count(b.size)?;
    let flat = py.detach(|| {
        let mut flat = Vec::with_capacity(b.pairs.len() * k);
        for &(p, o) in &b.pairs {
            match b.size {
                BoardSize::Six => flat.extend_from_slice(&feature_indices6(p, o)),
                _ => flat.extend_from_slice(&feature_indices(p, o)),
            }
        }
        flat
    });
    let array = Array2::from_shape_vec((b.pairs.len(), k), flat).expect("n rows of k features");
    Ok(array.into_pyarray(py))
}

/// The weights' stage of every position (by its disc count): the row of `weights()`
/// its features index.
#[pyfunction]
#[pyo3(signature = (positions, size = None))]
pub fn stages<'py>(
    py: Python<'py>,
    positions: &Bound<'py, PyAny>,
    size: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArray1<u32>>> {
    let b = boards(positions, size)?;
    feature_count(b.size)?;
    let s: Vec<u32> =
        b.pairs.iter().map(|&(p, o)| solvo_eval::stage_of_size(b.size, (p | o).count_ones()) as u32).collect();
    Ok(s.into_pyarray(py))
}

/// The embedded weights of a board size and variant: an `int16` array of shape
/// (stages, weights per stage), in units of 1/128 disc.
#[pyfunction]
#[pyo3(signature = (size = None, variant = "normal"))]
pub fn weights<'py>(
    py: Python<'py>,
    size: Option<&Bound<'py, PyAny>>,
    variant: &str,
) -> PyResult<Bound<'py, PyArray2<i16>>> {
    let size = board_size(size)?.unwrap_or(BoardSize::Eight);
    let w = weights_for(size, self::variant(variant)?)?;
    let array = Array2::from_shape_vec((w.stages(), w.stage_len()), w.table().to_vec()).expect("stage-major table");
    Ok(array.into_pyarray(py))
}

/// The static evaluation (discs, side to move) of every position: a `float64` array,
/// with the weights of the positions' rules (of `variant` for an array of bitboards,
/// default normal). Unlike `evaluate`, a finished game is evaluated too (not counted).
#[pyfunction]
#[pyo3(signature = (positions, size = None, variant = None))]
pub fn evaluate_many<'py>(
    py: Python<'py>,
    positions: &Bound<'py, PyAny>,
    size: Option<&Bound<'py, PyAny>>,
    variant: Option<&str>,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let b = boards(positions, size)?;
    let variant = match variant {
        Some(v) => self::variant(v)?,
        None => b.variant.unwrap_or(Variant::Normal),
    };
    let w = weights_for(b.size, variant)?;
    let scale = f64::from(solvo_eval::SCALE);
    let values: Vec<f64> = py.detach(|| b.pairs.iter().map(|&(p, o)| f64::from(w.evaluate(p, o)) / scale).collect());
    Ok(values.into_pyarray(py))
}
