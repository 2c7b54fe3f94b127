//! Evaluation weights from `--eval-file` or the embedded set of the board size and
//! variant.

use crate::error::CliError;
use crate::Common;
use solvo_eval::Weights;
use solvo_othello::BoardSize;

/// The weights chosen by `--eval-file` (or the embedded set of `--size`, 8x8 when it
/// is not given, and `--variant`); an error when they are for another variant, or
/// another board size than a given `--size` (a 6x6 set never evaluates 8x8 positions,
/// nor the reverse; without `--size` a file's own size is taken, and commands that
/// evaluate positions compare it with theirs).
pub fn load_weights(file: Option<&std::path::Path>, common: Common) -> Result<Weights, CliError> {
    let w = match file {
        Some(path) => solvo_eval::read_file(path).map_err(|e| CliError(e.message))?,
        None => solvo_eval::embedded_for(common.size.unwrap_or(BoardSize::Eight), common.variant)
            .map_err(|e| CliError(e.message))?
            .clone(),
    };
    let size = common.size.unwrap_or(w.size());
    w.check_for(size, common.variant).map_err(|e| {
        let what = file.map_or_else(|| "embedded weights".to_string(), |p| p.display().to_string());
        CliError(format!("{what}: {} (--size {} --variant {})", e.message, size.side(), common.variant.name()))
    })?;
    Ok(w)
}
