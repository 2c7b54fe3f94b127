//! Whole boards: the weak solution of a small board's start (`solvo.weak_solve`) and
//! solution stores (`solvo.SolutionStore`): a position's exact value and best move from
//! a store, solved on demand when the store cannot answer.

use crate::errors::{Failure, Kind};
use crate::options;
use crate::position::{position_arg, pv_names};
use crate::search;
use crate::watch::quietly;
use pyo3::prelude::*;
use solvo_othello::formats::board_string::format_position;
use solvo_othello_search::SolveOptions;
use solvo_solve::lookup::LookupSource;
use solvo_solve::Store;
use std::path::PathBuf;
use std::sync::atomic::Ordering;

/// The weak solution of a board's start: black's value under perfect play and a
/// proven line.
#[pyclass(module = "solvo", name = "WeakSolution", frozen, get_all)]
#[derive(Clone, Debug)]
pub struct PyWeakSolution {
    /// The board's side.
    pub size: u8,
    /// The rules.
    pub variant: &'static str,
    /// Black's final disc difference under perfect play (empties to the winner).
    pub value: i32,
    /// A principal variation from the start to the end (passes as `"pass"`), replayed
    /// and checked to end with `value`.
    pub pv: Vec<String>,
    /// Final discs (black, white) at the end of the line.
    pub final_discs: (u32, u32),
    /// Nodes of every search of the proof.
    pub nodes: u64,
    /// Wall time in seconds.
    pub time: f64,
}

impl PyWeakSolution {
    /// The solution `w`.
    pub fn new(w: &solvo_solve::weak::WeakSolution) -> PyWeakSolution {
        PyWeakSolution {
            size: w.start.size.side(),
            variant: w.start.variant.name(),
            value: w.value,
            pv: pv_names(&w.pv),
            final_discs: w.final_discs,
            nodes: w.nodes(),
            time: w.time().as_secs_f64(),
        }
    }
}

#[pymethods]
impl PyWeakSolution {
    fn __repr__(&self) -> String {
        format!(
            "WeakSolution({0}x{0} {1}: {2:+} for black, final discs {3}-{4}, {5} nodes)",
            self.size, self.variant, self.value, self.final_discs.0, self.final_discs.1, self.nodes
        )
    }
}

/// A position's exact value looked up in a store (or solved in its stead).
#[pyclass(module = "solvo", name = "StoreAnswer", frozen, get_all)]
#[derive(Clone, Debug)]
pub struct PyStoreAnswer {
    /// The board string of the position asked about.
    pub board: String,
    /// Its exact value for the side to move.
    pub value: i32,
    /// A best move; when the side to move must pass, the opponent's best move after the
    /// pass; `None` when the game is over.
    pub best_move: Option<String>,
    /// True when the side to move must pass.
    pub passed: bool,
    /// Where the value came from: `"store"`, `"solved"` or `"game over"`.
    pub source: &'static str,
    /// The command line's words for the source: `store (kinds P C)`, `solved on demand
    /// (below the store's threshold)`, ...
    pub detail: String,
}

#[pymethods]
impl PyStoreAnswer {
    fn __repr__(&self) -> String {
        format!(
            "StoreAnswer(value {:+}, best {}, from {})",
            self.value,
            self.best_move.as_deref().unwrap_or("-"),
            self.detail
        )
    }
}

/// A solution store (a `.redb` file made by `solvo solution semi-strong` or `strong`),
/// opened for reading: `SolutionStore("data/semistrong-6x6.redb").query(pos)`.
#[pyclass(module = "solvo", name = "SolutionStore", frozen)]
pub struct PySolutionStore {
    store: Store,
    path: PathBuf,
}

#[pymethods]
impl PySolutionStore {
    /// Opens the store at `path` (it must exist).
    #[new]
    fn py_new(path: PathBuf) -> PyResult<PySolutionStore> {
        let store = Store::open_existing(&path).map_err(|e| Failure::new(Kind::Store, e.to_string()))?;
        Ok(PySolutionStore { store, path })
    }

    /// The board side of the store's positions.
    #[getter]
    fn size(&self) -> u8 {
        self.store.size().side()
    }

    /// The rules of the store's positions.
    #[getter]
    fn variant(&self) -> &'static str {
        self.store.variant().name()
    }

    /// Records in the store.
    fn __len__(&self) -> PyResult<usize> {
        Ok(self.store.len().map_err(Failure::from)? as usize)
    }

    /// The exact value and a best move of `pos` (a `Position`, or text read with the
    /// store's size and variant): from the store when it holds the position, else
    /// solved (with a table of `hash_mb` MiB, default by the empties).
    #[pyo3(signature = (pos, hash_mb = None))]
    fn query(&self, py: Python<'_>, pos: &Bound<'_, PyAny>, hash_mb: Option<i64>) -> PyResult<PyStoreAnswer> {
        let (size, variant) = (self.store.size(), self.store.variant());
        let pos = match pos.extract::<String>() {
            Ok(text) => crate::position::PyPosition::parse(&text, Some(size), variant)?.pos,
            Err(_) => position_arg(pos)?.pos,
        };
        if pos.size != size || pos.variant != variant {
            return Err(Failure::input(format!(
                "store {} holds {size} {variant} positions, the position is {} {}",
                self.path.display(),
                pos.size,
                pos.variant
            ))
            .into());
        }
        let hash_mb = match hash_mb {
            Some(m) => options::hash_mb("hash_mb", m)?,
            None => solvo_shell::shared::table_mib_for(pos.empties()),
        };
        let mut opts = SolveOptions::try_new(hash_mb).map_err(Failure::from)?;
        let stop = opts.stop.clone();
        let store = &self.store;
        let found = quietly(py, &|| stop.store(true, Ordering::Relaxed), || search::lookup(store, &pos, &mut opts))??;
        let (source, detail) = match found.source {
            LookupSource::GameOver => ("game over", "game over".to_string()),
            LookupSource::Store { kinds } => ("store", format!("store (kinds {kinds})")),
            LookupSource::Solved { why, .. } => ("solved", format!("solved on demand ({why})")),
        };
        Ok(PyStoreAnswer {
            board: format_position(&pos),
            value: found.value,
            best_move: found.best_move.map(|m| m.to_string()),
            passed: found.passed,
            source,
            detail,
        })
    }

    fn __repr__(&self) -> String {
        format!("SolutionStore({:?}, {} {})", self.path.display().to_string(), self.store.size(), self.store.variant())
    }
}
