//! The Python package `solvo` (its extension module `solvo._solvo`): a thin adapter
//! over the library crates. Positions and formats come from `solvo-othello`, searches
//! from the solver crates through one module (`search.rs`), arguments are checked by
//! the command line's own checks (`solvo-shell`), so a bad value gets the command line's
//! message as a Python exception (`errors.rs`). Searches run without the GIL and stop
//! on Ctrl-C (`watch.rs`).

mod api;
mod engine;
mod errors;
mod features;
mod games;
mod options;
mod position;
mod readers;
mod results;
mod search;
mod store;
mod svg;
mod watch;

use pyo3::prelude::*;

/// The extension module; `python/solvo/__init__.py` re-exports it as `solvo`.
#[pymodule]
fn _solvo(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<position::PyPosition>()?;
    m.add_class::<results::PySolveResult>()?;
    m.add_class::<results::PyMoveValue>()?;
    m.add_class::<results::PyAnalysis>()?;
    m.add_class::<results::PyMoveEval>()?;
    m.add_class::<results::PyMoveTable>()?;
    m.add_class::<readers::PyGameRecord>()?;
    m.add_class::<readers::PyProblem>()?;
    m.add_class::<store::PyWeakSolution>()?;
    m.add_class::<store::PyStoreAnswer>()?;
    m.add_class::<store::PySolutionStore>()?;
    m.add_class::<engine::PyEngine>()?;
    m.add_class::<engine::PyEngineGame>()?;
    m.add_class::<games::PyGameState>()?;
    m.add_class::<games::PyGameSolution>()?;
    m.add_function(wrap_pyfunction!(api::solve, m)?)?;
    m.add_function(wrap_pyfunction!(api::solve_moves, m)?)?;
    m.add_function(wrap_pyfunction!(api::analyze, m)?)?;
    m.add_function(wrap_pyfunction!(api::evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(api::weak_solve, m)?)?;
    m.add_function(wrap_pyfunction!(api::position, m)?)?;
    m.add_function(wrap_pyfunction!(features::features, m)?)?;
    m.add_function(wrap_pyfunction!(features::stages, m)?)?;
    m.add_function(wrap_pyfunction!(features::weights, m)?)?;
    m.add_function(wrap_pyfunction!(features::evaluate_many, m)?)?;
    m.add_function(wrap_pyfunction!(readers::read_obf, m)?)?;
    m.add_function(wrap_pyfunction!(readers::read_ggf, m)?)?;
    m.add_function(wrap_pyfunction!(readers::read_wthor, m)?)?;
    m.add_function(wrap_pyfunction!(games::game_names, m)?)?;
    m.add_function(wrap_pyfunction!(games::game_info, m)?)?;
    m.add_function(wrap_pyfunction!(games::load_game, m)?)?;
    m.add_function(wrap_pyfunction!(games::solve_game, m)?)?;
    Ok(())
}
