//! Evaluation weights from `--eval-file` or the embedded set of the board size and
//! variant: the one place every command loads weights, so every command refuses a set
//! made for another board.

use crate::error::CliError;
use crate::Common;
use solvo_eval::Weights;
use solvo_othello::BoardSize;

/// The weights chosen by `--eval-file` (or the embedded set of `--size`, 8x8 when it
/// is not given, and `--variant`); an error when they are for another variant or
/// another board size than the command's board: `--size`, else 8x8 (a 6x6 set never
/// evaluates 8x8 positions, nor the reverse, so a 6x6 file needs `--size 6`).
pub fn load_weights(file: Option<&std::path::Path>, common: Common) -> Result<Weights, CliError> {
    let size = common.size.unwrap_or(BoardSize::Eight);
    let w = match file {
        Some(path) => solvo_eval::read_file(path).map_err(|e| CliError(e.message))?,
        None => solvo_eval::embedded_for(size, common.variant).map_err(|e| CliError(e.message))?.clone(),
    };
    w.check_for(size, common.variant).map_err(|e| {
        let what = file.map_or_else(|| "embedded weights".to_string(), |p| p.display().to_string());
        let hint = match common.size {
            None if w.size() != size => format!("; for {} positions give --size {}", w.size(), w.size().side()),
            _ => String::new(),
        };
        CliError(format!("{what}: {} (--size {} --variant {}){hint}", e.message, size.side(), common.variant.name()))
    })?;
    Ok(w)
}
