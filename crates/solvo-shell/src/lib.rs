//! What the `solvo` binary and the lab's `solvo-lab` share, written once: the options
//! every command sees ([`CommonArgs`], [`Common`]), errors and exit codes ([`error`],
//! [`exit_with`], [`moved_to_lab`]), the range of every numeric option
//! ([`option_ranges`]), input recognition ([`input`], [`input_file`]), the panic policy
//! ([`panic_policy`]), output ([`out!`], [`write_stdout`]), the command line's own
//! definition as JSON ([`option_dump`]), engine, solver and ladder options with progress
//! ([`shared`]), the generic game solvers' options and reports ([`games`]) and the match
//! command ([`matches`]).
//!
//! Every command prints text for people by default and one JSON object per result
//! with `--json`. Errors go to stderr with a non-zero exit code: 1 for bad input or
//! failed work, 2 for bad command-line usage (a command that moved to the other binary
//! included), 101 for an internal error.

#![warn(missing_docs)]

/// Prints a line to stdout; a closed pipe (`solvo ... | head`) ends the program quietly
/// instead of panicking.
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => { $crate::write_stdout(format_args!($($arg)*)) };
}

pub mod error;
pub mod games;
pub mod input;
pub mod input_file;
pub mod matches;
pub mod option_dump;
pub mod option_ranges;
mod panic_policy;
pub mod shared;

use error::CliError;
use solvo_othello::{BoardSize, Variant};

/// The options every command of both binaries takes, global to their subcommands.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct CommonArgs {
    /// Print results as JSON (one object per line).
    #[arg(long, global = true)]
    pub json: bool,
    /// Board size: 4, 6 or 8 (default: inferred from a board string, else 8).
    #[arg(long, global = true, value_parser = parse_size)]
    pub size: Option<BoardSize>,
    /// Scoring variant: normal, or reversed (misère: fewer discs wins).
    #[arg(long, global = true, default_value = "normal")]
    pub variant: Variant,
}

fn parse_size(s: &str) -> Result<BoardSize, String> {
    s.parse()
}

/// Options every command sees.
#[derive(Clone, Copy, Debug)]
pub struct Common {
    /// `--json`.
    pub json: bool,
    /// `--size`, if given.
    pub size: Option<BoardSize>,
    /// `--variant`.
    pub variant: Variant,
}

impl From<CommonArgs> for Common {
    fn from(a: CommonArgs) -> Common {
        Common { json: a.json, size: a.size, variant: a.variant }
    }
}

/// The exit code of bad command-line usage (clap's own), also that of a command that
/// moved to the other binary.
pub const USAGE_EXIT: i32 = 2;

/// Writes one line to stdout; exits with status 0 when the reader has gone away.
pub fn write_stdout(args: std::fmt::Arguments) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout.write_fmt(args).and_then(|_| stdout.write_all(b"\n")) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: writing to stdout: {e}");
        std::process::exit(1);
    }
}

/// Prints `message` as an error (a JSON object `{"error": ...}` with `json`) and ends the
/// process with `code`.
pub fn exit_with(message: &str, json: bool, code: i32) -> ! {
    if json {
        let mut v = serde_json::json!({ "error": message });
        if code == USAGE_EXIT {
            v["usage"] = serde_json::Value::Bool(true);
        }
        eprintln!("{v}");
    } else {
        eprintln!("error: {message}");
    }
    std::process::exit(code);
}

/// Ends the process with exit code 2 and a message naming a command's new command line
/// under `solvo-lab`, with its subcommand `sub` when one was given: `` `train` moved to
/// the lab: run `solvo-lab train fit ...` ``.
pub fn moved_to_lab(command: &str, sub: Option<&str>, json: bool) -> ! {
    let new = match sub {
        Some(s) => format!("solvo-lab {command} {s} ..."),
        None => format!("solvo-lab {command} ..."),
    };
    exit_with(&format!("`{command}` moved to the lab: run `{new}`"), json, USAGE_EXIT)
}

/// The whole of a binary's `main`: installs the panic policy, parses the command line
/// (usage errors exit with 2, as JSON when `--json` is among the arguments), runs the
/// command and turns its error into a line on stderr and exit code 1.
pub fn main_with<P: clap::Parser>(run: impl FnOnce(P) -> Result<(), CliError>) {
    // `--json` is looked for before parsing so that command-line errors and internal
    // errors are JSON too when it was asked for.
    let json = std::env::args_os().skip(1).take_while(|a| a != "--").any(|a| a == "--json");
    panic_policy::install(json);
    let cli = match P::try_parse() {
        Ok(cli) => cli,
        Err(e) if json && e.use_stderr() => {
            let text = e.render().to_string();
            let first = text.lines().next().unwrap_or("").trim_start_matches("error: ");
            eprintln!("{}", serde_json::json!({ "error": first, "usage": true }));
            std::process::exit(e.exit_code());
        }
        Err(e) => e.exit(),
    };
    if let Err(e) = run(cli) {
        exit_with(&e.to_string(), json, 1);
    }
}
