//! WTHOR game files as the commands that learn from or serve their games read them
//! (damaged records named on stderr, file first), and their player and tournament
//! names (`.JOU`, `.TRN`): from a file named on the command line, else from the usual
//! names beside the game file.

use crate::error::{context, CliError};
use solvo_othello::formats::wthor::{parse_names, parse_wtb, WthorFile, PLAYER_RECORD_LEN, TOURNAMENT_RECORD_LEN};
use std::path::{Path, PathBuf};

fn find_beside(file: &Path, names: &[&str]) -> Option<PathBuf> {
    let dir = file.parent()?;
    names.iter().map(|n| dir.join(n)).find(|p| p.is_file())
}

fn load_names(explicit: Option<&Path>, file: &Path, defaults: &[&str], len: usize) -> Result<Vec<String>, CliError> {
    let path = match explicit {
        Some(p) => p.to_path_buf(),
        None => match find_beside(file, defaults) {
            Some(p) => p,
            None => return Ok(Vec::new()),
        },
    };
    let bytes = crate::input_file::read_bytes(&path)?;
    parse_names(&bytes, len).map_err(context(path.display()))
}

/// The player names for the game file `file`: from `explicit`, else `WTHOR.JOU` or
/// `WTH.JOU` beside it, else none. A names file that is named or found but unreadable
/// is an error naming it.
pub fn player_names(explicit: Option<&Path>, file: &Path) -> Result<Vec<String>, CliError> {
    load_names(explicit, file, &["WTHOR.JOU", "WTH.JOU"], PLAYER_RECORD_LEN)
}

/// The tournament names for `file`: from `explicit`, else `WTHOR.TRN` or `WTH.TRN`
/// beside it, else none.
pub fn tournament_names(explicit: Option<&Path>, file: &Path) -> Result<Vec<String>, CliError> {
    load_names(explicit, file, &["WTHOR.TRN", "WTH.TRN"], TOURNAMENT_RECORD_LEN)
}

/// The game file at `path`, parsed (errors name the file), with a warning on stderr
/// for each damaged record, naming the file and the game: the commands that use its
/// games take [`WthorFile::whole_games`] only, so a damaged game is skipped, never
/// learned from or served, and never silently.
pub fn read_wthor(path: &Path) -> Result<WthorFile, CliError> {
    let bytes = crate::input_file::read_bytes(path)?;
    let file = parse_wtb(&bytes).map_err(context(path.display()))?;
    for (_, damage) in &file.damaged {
        eprintln!("warning: {}: damaged record skipped: {damage}", path.display());
    }
    Ok(file)
}
