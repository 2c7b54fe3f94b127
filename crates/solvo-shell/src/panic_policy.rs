//! The process's one panic policy: any panic, on any thread, ends `solvo` at once with
//! one line on stderr (`error: internal error: ...`) and exit code
//! [`INTERNAL_ERROR_EXIT`], so that no other thread (a progress line, a worker) keeps
//! the process alive after a bug. Panics that library code catches on purpose
//! ([`solvo_core::contained_panic::catch`]) are left to unwind to their catcher.

/// Exit code of an internal error (a bug): Rust's own code for a panic, distinct from
/// 1 (bad input or failed work) and 2 (bad command line).
pub const INTERNAL_ERROR_EXIT: i32 = 101;

/// Installs the hook; call once, first thing in `main`. With `json` (the command line
/// asked for `--json`) the line is a JSON object `{"error": ..., "internal": true}`.
pub fn install(json: bool) {
    std::panic::set_hook(Box::new(move |info| {
        if solvo_core::contained_panic::is_caught_here() {
            return;
        }
        let message = solvo_core::contained_panic::message(info.payload());
        let place = info.location().map_or(String::new(), |l| format!(" (at {}:{})", l.file(), l.line()));
        let text = format!("internal error: {message}{place}; this is a bug in solvo, please report it");
        if json {
            eprintln!("\n{}", serde_json::json!({ "error": text, "internal": true }));
        } else {
            eprintln!("\nerror: {text}");
        }
        std::process::exit(INTERNAL_ERROR_EXIT);
    }));
}

#[cfg(test)]
mod tests {
    use std::process::Command;
    use std::time::{Duration, Instant};

    const CHILD: &str = "SOLVO_PANIC_POLICY_CHILD";

    /// Issue 16 item 2: a panic on a worker thread, while another thread would print
    /// progress forever, ends the whole process at once with one line and exit code 101.
    /// (The test runs itself again as a child process, which installs the hook.)
    #[test]
    fn a_panic_on_any_thread_ends_the_process() {
        if std::env::var_os(CHILD).is_some() {
            super::install(false);
            std::thread::spawn(|| loop {
                std::thread::sleep(Duration::from_millis(10));
            });
            let worker = std::thread::spawn(|| {
                let n: usize = std::hint::black_box(usize::MAX);
                Vec::<u64>::with_capacity(n).len() // capacity overflow, as --threads u64::MAX did
            });
            let _ = worker.join();
            loop {
                std::thread::sleep(Duration::from_millis(10));
            }
        }
        let exe = std::env::current_exe().expect("test binary");
        let mut child = Command::new(exe)
            .args(["--exact", "panic_policy::tests::a_panic_on_any_thread_ends_the_process", "--nocapture"])
            .env(CHILD, "1")
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("spawn the test binary");
        let start = Instant::now();
        let status = loop {
            if let Some(s) = child.try_wait().expect("wait") {
                break s;
            }
            if start.elapsed() > Duration::from_secs(60) {
                let _ = child.kill();
                panic!("the process kept running after a panic");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let mut err = String::new();
        std::io::Read::read_to_string(&mut child.stderr.take().expect("stderr"), &mut err).expect("read stderr");
        assert_eq!(status.code(), Some(super::INTERNAL_ERROR_EXIT), "{err}");
        assert!(err.contains("error: internal error: capacity overflow"), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}
