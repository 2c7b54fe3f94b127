//! `internal-options` (hidden, in both binaries): the command line's own definition as JSON, one
//! object per leaf subcommand with its numeric and file arguments, for the test that
//! walks every option with bad values (`solvo-cli/tests/option_walk.rs`). Read from the clap
//! definition, so a new option is walked without anyone listing it.

use clap::CommandFactory;
use serde_json::json;
use std::any::TypeId;
use std::path::PathBuf;

/// What kind of value an argument takes, for the walk: `number` or `path`; `None` for
/// the others (flags, enums, texts).
fn kind(arg: &clap::Arg) -> Option<&'static str> {
    let t = arg.get_value_parser().type_id();
    let numbers = [
        TypeId::of::<u8>(),
        TypeId::of::<u16>(),
        TypeId::of::<u32>(),
        TypeId::of::<u64>(),
        TypeId::of::<usize>(),
        TypeId::of::<i32>(),
        TypeId::of::<i64>(),
        TypeId::of::<f64>(),
    ];
    if numbers.iter().any(|n| t == *n) {
        return Some("number");
    }
    // Positional texts that may name a file (solve, convert, show, query read them).
    let reads_files = arg.is_positional() && ["input", "position"].contains(&arg.get_id().as_str());
    (t == TypeId::of::<PathBuf>() || reads_files).then_some("path")
}

/// Every leaf subcommand with its path of names.
fn leaves(cmd: &clap::Command, path: Vec<String>, out: &mut Vec<(Vec<String>, clap::Command)>) {
    let subs: Vec<_> = cmd.get_subcommands().filter(|s| !s.is_hide_set()).collect();
    if subs.is_empty() {
        out.push((path.clone(), cmd.clone()));
    }
    for s in subs {
        let mut p = path.clone();
        p.push(s.get_name().to_string());
        leaves(s, p, out);
    }
}

/// Prints one JSON line per leaf subcommand: `{"command": [...], "arguments": [{"long":
/// "threads" | null, "index": 1 | null, "kind": "number" | "path"}]}`.
pub fn run<P: CommandFactory>() {
    let mut commands = Vec::new();
    let mut root = P::command();
    root.build(); // assigns the positionals' indices
    leaves(&root, Vec::new(), &mut commands);
    for (path, cmd) in commands {
        let arguments: Vec<_> = cmd
            .get_arguments()
            .filter(|a| !a.is_global_set())
            .filter_map(|a| Some(json!({"long": a.get_long(), "index": a.get_index(), "kind": kind(a)?})))
            .collect();
        out!("{}", json!({"command": path, "arguments": arguments}));
    }
}
