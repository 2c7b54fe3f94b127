//! The one way the command line opens a file a user names: the errors say what is wrong
//! with the file itself (no such file, a directory, empty, not text) before anything
//! tries to parse it, and an argument that looks like a path is never read as a board.

use crate::error::CliError;
use std::path::Path;

/// Whether `arg` reads as a file name rather than a board, OBF line or transcript: it
/// names something that exists, holds a path separator, or ends with a file extension
/// (board strings use `.` only for empty squares, never before letters).
pub fn looks_like_path(arg: &str) -> bool {
    let arg = arg.trim();
    let board_chars = |c: char| "-.XOxo*_ \t".contains(c);
    if arg.is_empty() || arg.contains(';') || arg.chars().all(board_chars) {
        return false;
    }
    if Path::new(arg).exists() || arg.contains('/') || arg.contains('\\') {
        return true;
    }
    match arg.rsplit_once('.') {
        Some((stem, ext)) => {
            !stem.is_empty()
                && !stem.ends_with('.')
                && (1..=4).contains(&ext.len())
                && ext.chars().all(|c| c.is_ascii_alphanumeric())
                && ext.chars().any(|c| c.is_ascii_alphabetic())
        }
        None => false,
    }
}

/// The bytes of the file at `path`, or an error naming the file and the problem: no
/// such file, a directory, an empty file, or the system's reason.
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, CliError> {
    let name = path.display();
    let meta = std::fs::metadata(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => CliError(format!("{name}: no such file")),
        _ => CliError(format!("{name}: {e}")),
    })?;
    if meta.is_dir() {
        return Err(CliError(format!("{name}: is a directory, not a file")));
    }
    let bytes = std::fs::read(path).map_err(|e| CliError(format!("{name}: {e}")))?;
    if bytes.is_empty() {
        return Err(CliError(format!("{name}: empty file")));
    }
    Ok(bytes)
}

/// The text of the file at `path`: as [`read_bytes`], and an error when the file is not
/// text (a NUL byte, or not UTF-8). A UTF-8 byte-order mark (as some editors write) is
/// not part of the text: it is left out, whatever the format.
pub fn read_text(path: &Path) -> Result<String, CliError> {
    let bytes = read_bytes(path)?;
    let name = path.display();
    if bytes.contains(&0) {
        return Err(CliError(format!("{name}: not a text file (binary data)")));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        CliError(format!("{name}: not a text file (invalid UTF-8 at byte {})", e.utf8_error().valid_up_to()))
    })?;
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    })
}

/// For commands that take text or a file: the file's text when `arg` looks like a path
/// (errors as [`read_text`]), `None` when it is text to parse.
pub fn file_text_if_path(arg: &str) -> Result<Option<String>, CliError> {
    if looks_like_path(arg) {
        read_text(Path::new(arg.trim())).map(Some)
    } else {
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_not_paths_and_files_are() {
        for text in
            ["f5d6c3", "start", "", "---XO--- X", "....XO.. O", "....O.X", "-XO- X; a1:+2;", "data/x.obf", "x.obf"]
        {
            let expected = text.contains("obf");
            assert_eq!(looks_like_path(text), expected, "{text:?}");
        }
    }

    #[test]
    fn file_problems_are_named() {
        let dir = std::env::temp_dir().join(format!("solvo-input-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let empty = dir.join("empty.obf");
        std::fs::write(&empty, b"").unwrap();
        let binary = dir.join("random.obf");
        std::fs::write(&binary, [0u8, 159, 146, 150]).unwrap();
        let cases = [
            (dir.join("missing.obf"), "no such file"),
            (dir.clone(), "is a directory"),
            (empty, "empty file"),
            (binary, "not a text file"),
        ];
        for (path, needle) in cases {
            let e = read_text(&path).unwrap_err().0;
            assert!(e.contains(needle), "{e}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
