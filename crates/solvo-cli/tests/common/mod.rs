//! Running the `solvo` binary from the command-line tests: one definition for every
//! test file (each uses what it needs).
#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// `solvo args`, waited for.
pub fn solvo(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_solvo")).args(args).output().expect("run solvo")
}

/// `solvo args` with `input` on stdin.
pub fn solvo_with_stdin(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_solvo"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run solvo");
    // The command may refuse to start before it reads: a closed pipe is fine.
    let _ = child.stdin.take().expect("stdin").write_all(input.as_bytes());
    child.wait_with_output().expect("wait for solvo")
}

/// What the command printed on stdout.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// What the command printed on stderr.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}
