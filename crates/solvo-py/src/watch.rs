//! Running a search without the GIL while the calling thread watches it: the search
//! runs on a worker thread; the caller's thread sleeps with the GIL released, wakes when
//! the worker ends or every [`TICK`], checks for signals (Ctrl-C raises
//! `KeyboardInterrupt` there) and calls the progress callback. A signal or an exception
//! of the callback raises the search's stop flag (the engine's stop handle): the search
//! returns soon with what it has, and the exception is raised once it has.

use pyo3::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How often the watcher looks at signals and progress.
pub const TICK: Duration = Duration::from_millis(25);

/// Runs `work` on a worker thread and returns its result; meanwhile, with `py`'s GIL
/// released, watches for signals and hands each value `poll` returns to `progress`
/// (converted by `to_py`). On a signal (`KeyboardInterrupt`) or an exception of the
/// callback, calls `stop` once and, after `work` returns, raises that exception.
///
/// Guarantees: `work` has returned before this does (nothing of it runs on afterwards);
/// a panic of `work` is raised again here (PyO3 turns it into a `PanicException`).
pub fn interruptible<T: Send, S>(
    py: Python<'_>,
    stop: &(dyn Fn() + Sync),
    progress: Option<&Bound<'_, PyAny>>,
    poll: &dyn Fn() -> Option<S>,
    to_py: &dyn Fn(Python<'_>, S) -> PyResult<Py<PyAny>>,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    let caller = std::thread::current();
    // Set before the caller is woken: the worker thread is not finished yet at that
    // moment (it still returns its result), and waiting for that would cost a tick.
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let done = &done;
        let worker = scope.spawn(move || {
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work));
            done.store(true, Ordering::Release);
            caller.unpark();
            result
        });
        let mut failure: Option<PyErr> = None;
        while !done.load(Ordering::Acquire) {
            py.detach(|| std::thread::park_timeout(TICK));
            if failure.is_some() {
                continue;
            }
            if let Err(e) = py.check_signals() {
                stop();
                failure = Some(e);
                continue;
            }
            if let (Some(callback), Some(value)) = (progress, poll()) {
                if let Err(e) = to_py(py, value).and_then(|v| callback.call1((v,)).map(drop)) {
                    stop();
                    failure = Some(e);
                }
            }
        }
        let result = match worker.join() {
            Ok(Ok(result)) => result,
            Ok(Err(panic)) | Err(panic) => std::panic::resume_unwind(panic),
        };
        match failure {
            Some(e) => Err(e),
            None => Ok(result),
        }
    })
}

/// [`interruptible`] without a progress callback.
pub fn quietly<T: Send>(py: Python<'_>, stop: &(dyn Fn() + Sync), work: impl FnOnce() -> T + Send) -> PyResult<T> {
    interruptible::<T, ()>(py, stop, None, &|| None, &|py, ()| Ok(py.None()), work)
}
