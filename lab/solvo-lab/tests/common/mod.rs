//! Running the `solvo-lab` binary from the lab's command-line tests: one definition for
//! every test file (each uses what it needs).
#![allow(dead_code)]

use std::process::{Command, Output};

/// `solvo-lab args`, waited for.
pub fn lab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_solvo-lab")).args(args).output().expect("run solvo-lab")
}

/// What the command printed on stderr.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}
