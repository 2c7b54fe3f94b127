//! The pipeline's settings, fixed at `init` and stored in the store's `meta` table so
//! that every worker, on any machine, runs the same pipeline.

use crate::store::{PipelineStore, PipelineStoreError, PipelineStoreResult};
use solvo_othello::{Board, BoardSize};

/// What a pipeline proves and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// Board size.
    pub size: BoardSize,
    /// The position whose value is proven (side to move can move, or the game is over).
    pub root: Board,
    /// Tasks are the positions with this many empties (8x8 published run: 50).
    pub task_empties: u32,
    /// Leaves solved exactly are the positions with this many empties (published: 36).
    pub leaf_empties: u32,
    /// Search depth of the estimates of task positions (E).
    pub estimate_depth: u32,
    /// Search depth of the estimates that order moves while expanding (G36-second).
    pub expand_depth: u32,
    /// Leaf windows are the goal widened by this many discs on each side (0: the goal).
    pub margin: i32,
    /// Task positions per estimate job.
    pub estimate_chunk: i64,
    /// Transposition table of each leaf solver, MiB.
    pub hash_mb: usize,
    /// Leaves an expansion job may solve itself before it hands back (a batch: expand,
    /// solve the to-do list in the job, expand again, until the task is decided or this
    /// many leaves are solved; then the next expansion of the task is queued at once, with
    /// no round barrier). 0: every leaf is its own solve job (the published run's way,
    /// for leaves that take hours). Defaults: 8x8 0, 6x6 and 4x4 20,000.
    pub batch_leaves: u64,
    /// The root value the first selection sets out to prove (the published 8x8 run
    /// hypothesised a draw); `None`: the estimates' prediction. Only a starting point: a
    /// refuted hypothesis is replaced by re-selection, and `verify` never reads it.
    pub hypothesis: Option<i32>,
    /// Children with at most this many empties are chosen for a `>=` goal by exact
    /// null-window solves (the first, in the estimates' order, that meets the goal) rather
    /// than by estimate alone; 0: never. Ordering only: proofs still come from the leaves.
    /// Defaults: 8x8 0 (its leaves are far beyond an exact solve), 6x6 and 4x4 60 (every
    /// choice: below the task depth an exact solve is cheap next to the leaves a wrong
    /// choice lists).
    pub choice_empties: u32,
    /// The selection (G50) chooses the child carrying a `>=` goal, at positions with at
    /// most this many empties, by an exact null-window solve of the position itself (the
    /// move that solve proves reaches the goal) rather than by the predictions; 0: never.
    /// Ordering only: a task is still proven by its leaves. Default 0 on every size (from
    /// the 6x6 start it would solve the start itself); for pipelines from positions a
    /// direct solve can answer (8x8 from 34 empties), where a prediction's wrong choice
    /// makes a task that is costly to decide.
    pub select_choice_empties: u32,
}

impl Config {
    /// The defaults of `size` from `root` (8x8: tasks at 50 empties, leaves at 36).
    pub fn new(size: BoardSize, root: Board) -> Config {
        let (task_empties, leaf_empties) = match size {
            BoardSize::Eight => (50, 36),
            BoardSize::Six => (26, 16),
            BoardSize::Four => (10, 6),
        };
        Config {
            size,
            root,
            task_empties,
            leaf_empties,
            estimate_depth: 4,
            expand_depth: 2,
            margin: 0,
            estimate_chunk: 64,
            hash_mb: 64,
            hypothesis: None,
            batch_leaves: if size == BoardSize::Eight { 0 } else { 20_000 },
            choice_empties: Config::default_choice_empties(size),
            select_choice_empties: 0,
        }
    }

    /// The published value of the start of `size` (8x8: 0, the draw the published run
    /// hypothesised and proved; 6x6: -4, Feinstein 1993); `None` for 4x4. The first
    /// hypothesis of a pipeline from the start.
    pub fn published_start_value(size: BoardSize) -> Option<i32> {
        match size {
            BoardSize::Eight => Some(0),
            BoardSize::Six => Some(-4),
            BoardSize::Four => None,
        }
    }

    /// The default of [`Config::choice_empties`] on `size` (also for stores written before
    /// the setting existed).
    pub fn default_choice_empties(size: BoardSize) -> u32 {
        match size {
            BoardSize::Eight => 0,
            BoardSize::Six | BoardSize::Four => 60,
        }
    }

    /// Checks the depths against each other and the root; the error names the setting.
    pub fn validate(&self) -> Result<(), String> {
        let root_empties = self.root.empties(self.size);
        if self.root.player & self.root.opponent != 0
            || (self.root.player | self.root.opponent) & !self.size.mask() != 0
        {
            return Err("root: discs overlap or lie off the board".into());
        }
        if self.task_empties > root_empties {
            return Err(format!("task empties {} exceed the root's {} empties", self.task_empties, root_empties));
        }
        if self.leaf_empties > self.task_empties {
            return Err(format!(
                "leaf empties {} exceed task empties {} (leaves lie below tasks)",
                self.leaf_empties, self.task_empties
            ));
        }
        let m = self.size.squares() as i32;
        if let Some(h) = self.hypothesis {
            if h % 2 != 0 || !(-m..=m).contains(&h) {
                return Err(format!("hypothesis {h} is not an even value in -{m}..={m}"));
            }
        }
        if self.choice_empties > 60 {
            return Err(format!("choice empties {} outside 0..=60", self.choice_empties));
        }
        if self.select_choice_empties > 60 {
            return Err(format!("select choice empties {} outside 0..=60", self.select_choice_empties));
        }
        if !(0..=8).contains(&self.margin) {
            return Err(format!("margin {} outside 0..=8", self.margin));
        }
        Ok(())
    }

    /// Writes the settings into `store` (refused if it already holds other settings).
    pub fn save(&self, store: &dyn PipelineStore) -> PipelineStoreResult<()> {
        if let Some(old) = Config::load(store)? {
            if old != *self {
                return Err(PipelineStoreError::Schema(
                    "the store already holds a pipeline with other settings (use a new --db)".into(),
                ));
            }
            return Ok(());
        }
        for (k, v) in self.pairs() {
            store.set_meta(k, &v)?;
        }
        Ok(())
    }

    fn pairs(&self) -> Vec<(&'static str, String)> {
        vec![
            ("size", self.size.side().to_string()),
            ("root", format!("{:016x}/{:016x}", self.root.player, self.root.opponent)),
            ("task_empties", self.task_empties.to_string()),
            ("leaf_empties", self.leaf_empties.to_string()),
            ("estimate_depth", self.estimate_depth.to_string()),
            ("expand_depth", self.expand_depth.to_string()),
            ("margin", self.margin.to_string()),
            ("estimate_chunk", self.estimate_chunk.to_string()),
            ("hash_mb", self.hash_mb.to_string()),
            ("batch_leaves", self.batch_leaves.to_string()),
            ("first_hypothesis", self.hypothesis.map_or(String::new(), |h| h.to_string())),
            ("choice_empties", self.choice_empties.to_string()),
            ("select_choice_empties", self.select_choice_empties.to_string()),
        ]
    }

    /// The settings stored in `store`, `None` before `init`.
    pub fn load(store: &dyn PipelineStore) -> PipelineStoreResult<Option<Config>> {
        let Some(size) = store.meta("size")? else { return Ok(None) };
        let bad = |k: &str, v: &str| PipelineStoreError::Corrupt(format!("meta {k} = {v:?}"));
        let get = |k: &str| -> PipelineStoreResult<String> {
            store.meta(k)?.ok_or_else(|| PipelineStoreError::Corrupt(format!("meta {k} missing")))
        };
        let num = |k: &str| -> PipelineStoreResult<i64> {
            let v = get(k)?;
            v.parse().map_err(|_| bad(k, &v))
        };
        let size = match size.as_str() {
            "4" => BoardSize::Four,
            "6" => BoardSize::Six,
            "8" => BoardSize::Eight,
            _ => return Err(bad("size", &size)),
        };
        let root_text = get("root")?;
        let (p, o) = root_text.split_once('/').ok_or_else(|| bad("root", &root_text))?;
        let parse = |s: &str| u64::from_str_radix(s, 16).map_err(|_| bad("root", &root_text));
        let root = Board { player: parse(p)?, opponent: parse(o)? };
        let cfg = Config {
            size,
            root,
            task_empties: num("task_empties")? as u32,
            leaf_empties: num("leaf_empties")? as u32,
            estimate_depth: num("estimate_depth")? as u32,
            expand_depth: num("expand_depth")? as u32,
            margin: num("margin")? as i32,
            estimate_chunk: num("estimate_chunk")?.max(1),
            hash_mb: num("hash_mb")?.clamp(1, 1 << 20) as usize,
            batch_leaves: match store.meta("batch_leaves")? {
                None => 0,
                Some(v) => v.parse().map_err(|_| bad("batch_leaves", &v))?,
            },
            choice_empties: match store.meta("choice_empties")? {
                None => Config::default_choice_empties(size),
                Some(v) => v.parse().map_err(|_| bad("choice_empties", &v))?,
            },
            select_choice_empties: match store.meta("select_choice_empties")? {
                None => 0,
                Some(v) => v.parse().map_err(|_| bad("select_choice_empties", &v))?,
            },
            hypothesis: match store.meta("first_hypothesis")?.as_deref() {
                None | Some("") => None,
                Some(h) => Some(h.parse().map_err(|_| bad("first_hypothesis", h))?),
            },
        };
        cfg.validate().map_err(|e| PipelineStoreError::Corrupt(format!("stored settings: {e}")))?;
        Ok(Some(cfg))
    }
}
