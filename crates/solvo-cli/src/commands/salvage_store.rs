//! `solvo solution salvage`: copies every intact record of a damaged solution store
//! (truncated, or with damaged records) into a new store; the damaged file is only read.

use crate::error::CliError;
use crate::Common;
use serde_json::json;
use solvo_solve::store::salvage::salvage;
use std::path::PathBuf;

/// Arguments of `solvo solution salvage`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The damaged store (read only).
    #[arg(long)]
    pub store: PathBuf,
    /// The new store to write (must not exist).
    #[arg(long)]
    pub out: PathBuf,
}

/// Runs `solvo solution salvage`.
pub fn run(args: Args, common: Common) -> Result<(), CliError> {
    let board = common.size.map(|s| (s, common.variant));
    let r = salvage(&args.store, &args.out, board).map_err(|e| CliError(e.to_string()))?;
    if common.json {
        println!(
            "{}",
            json!({
                "store": args.store, "out": args.out, "records": r.records, "refused": r.refused,
                "damaged_stretches": r.damaged_stretches, "truncated": r.truncated,
                "kinds_removed": r.kinds_removed, "meta_copied": r.meta_copied, "unchecked": r.unchecked,
            })
        );
        return Ok(());
    }
    println!("{} records copied to {}", r.records, args.out.display());
    if r.truncated {
        println!("  the file is truncated: the records of its missing pages are lost");
    }
    if r.damaged_stretches > 0 {
        println!("  {} damaged stretch(es) of keys skipped (pages that could not be read)", r.damaged_stretches);
    }
    if r.refused > 0 {
        println!("  {} damaged record(s) refused (failed their check or were invalid)", r.refused);
    }
    if r.unchecked {
        println!("  first-format store: its records carry no check, so a damaged but valid-looking record cannot be told apart");
    }
    if r.kinds_removed {
        println!(
            "  records were lost, so the semi-strong node kinds (P, A', P') were removed from the copies: values, bounds \
             and moves are kept; rerun semi-strong on {} to restore them (no exact value it knows is solved again)",
            args.out.display()
        );
    } else {
        println!("  no damage found: an exact copy");
    }
    Ok(())
}
