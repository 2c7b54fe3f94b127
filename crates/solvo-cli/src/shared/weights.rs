//! Evaluation weights from `--eval-file` or the embedded set of the variant.

use crate::error::CliError;
use crate::Common;
use solvo_eval::Weights;

/// The weights chosen by `--eval-file` (or the embedded set of the variant).
pub fn load_weights(file: Option<&std::path::Path>, common: Common) -> Result<Weights, CliError> {
    let w = match file {
        Some(path) => solvo_eval::read_file(path).map_err(|e| CliError(e.message))?,
        None => solvo_eval::embedded(common.variant).map_err(|e| CliError(e.message))?.clone(),
    };
    if w.variant != common.variant {
        return Err(CliError(format!(
            "the weights are for the {} variant but --variant is {}",
            w.variant.name(),
            common.variant.name()
        )));
    }
    Ok(w)
}
