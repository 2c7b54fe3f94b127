//! Errors as Python exceptions. Rust code returns a [`Failure`] (a kind and the message
//! the command line would print); it becomes an instance of one of the classes of
//! `solvo._errors` (python/solvo/_errors.py): `solvo.InputError` (also a `ValueError`)
//! for bad input, `solvo.SearchError`, `solvo.StoreError`, `solvo.EngineError` and
//! `solvo.OutOfMemoryError` (also a `MemoryError`), all under `solvo.Error`.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;
use solvo_shell::error::CliError;

/// Which exception class a failure becomes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Bad input: a position, move, option value or file the caller gave
    /// (`solvo.InputError`, a `ValueError`).
    Input,
    /// A search that could not run or finish as asked (`solvo.SearchError`).
    Search,
    /// A solution store that cannot be opened or read (`solvo.StoreError`).
    Store,
    /// A question the engine cannot answer (`solvo.EngineError`).
    Engine,
    /// The memory of a search table was refused (`solvo.OutOfMemoryError`).
    Memory,
}

impl Kind {
    fn class_name(self) -> &'static str {
        match self {
            Kind::Input => "InputError",
            Kind::Search => "SearchError",
            Kind::Store => "StoreError",
            Kind::Engine => "EngineError",
            Kind::Memory => "OutOfMemoryError",
        }
    }
}

/// A failure with the message the command line prints for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The exception class.
    pub kind: Kind,
    /// What is wrong, and where.
    pub message: String,
}

impl Failure {
    /// Bad input, with this message.
    pub fn input(message: impl Into<String>) -> Failure {
        Failure { kind: Kind::Input, message: message.into() }
    }

    /// A failure of `kind` with this message.
    pub fn new(kind: Kind, message: impl Into<String>) -> Failure {
        Failure { kind, message: message.into() }
    }
}

/// The command line's errors are about what the caller gave: bad input.
impl From<CliError> for Failure {
    fn from(e: CliError) -> Failure {
        Failure::input(e.0)
    }
}

impl From<solvo_othello::formats::ParseError> for Failure {
    fn from(e: solvo_othello::formats::ParseError) -> Failure {
        Failure::input(e.to_string())
    }
}

impl From<solvo_core::hugemem::AllocError> for Failure {
    fn from(e: solvo_core::hugemem::AllocError) -> Failure {
        Failure::new(Kind::Memory, e.to_string())
    }
}

impl From<solvo_engine::EngineError> for Failure {
    fn from(e: solvo_engine::EngineError) -> Failure {
        let kind = if e.is_out_of_memory() { Kind::Memory } else { Kind::Engine };
        Failure::new(kind, e.0)
    }
}

impl From<solvo_othello_search::SearchError> for Failure {
    fn from(e: solvo_othello_search::SearchError) -> Failure {
        match e {
            solvo_othello_search::SearchError::OutOfMemory(e) => e.into(),
            solvo_othello_search::SearchError::Invalid(message) => Failure::input(message),
        }
    }
}

impl From<solvo_solve::store::StoreError> for Failure {
    fn from(e: solvo_solve::store::StoreError) -> Failure {
        Failure::new(Kind::Store, e.to_string())
    }
}

static CLASSES: [PyOnceLock<Py<PyType>>; 5] =
    [PyOnceLock::new(), PyOnceLock::new(), PyOnceLock::new(), PyOnceLock::new(), PyOnceLock::new()];

fn class(py: Python<'_>, kind: Kind) -> PyResult<&Bound<'_, PyType>> {
    CLASSES[kind as usize].import(py, "solvo._errors", kind.class_name())
}

impl From<Failure> for PyErr {
    fn from(f: Failure) -> PyErr {
        Python::attach(|py| match class(py, f.kind) {
            Ok(ty) => PyErr::from_type(ty.clone(), f.message),
            Err(e) => e,
        })
    }
}

/// Shorthand for results whose error is a [`Failure`].
pub type Fallible<T> = Result<T, Failure>;
