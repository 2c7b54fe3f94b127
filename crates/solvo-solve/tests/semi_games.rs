//! The generic semi-strong walk (`solvo_search::reopening`) against the Othello one,
//! and its store on disk ([`GameStore`]) for the catalogue's games: every store built
//! verifies with 0 violations and passes the self-check, and a killed build resumes to
//! the same store.

use solvo_core::Game;
use solvo_games::{dispatch_with, GameOptions, GameVisitor};
use solvo_othello::{Board, BoardSize, Color, Position, Square, Variant};
use solvo_search::reopening::selfcheck::self_check;
use solvo_search::reopening::{
    canonical_key, kind, lookup, semi_strong, verify, MemoryStore, Oracle, SemiConfig, SemiError, SemiRecord,
    SolverOracle,
};
use solvo_search::{Algorithm, Budget, SolverConfig};
use solvo_solve::game_store::GameStore;
use solvo_solve::semistrong::SemiOptions;
use solvo_solve::semistrong_root::semi_strong_from;
use solvo_solve::store::Store;
use std::time::Duration;

/// The generic solver, searching first the moves the Othello walk designated (the
/// Othello store's), so that both walks take the same paths: node kinds depend on the
/// designated moves, which two solvers may choose differently among equal ones.
struct Designated<'a> {
    othello: &'a Store,
    solver: SolverOracle,
}

impl Designated<'_> {
    fn designated(&self, g: &Position) -> Option<(i32, Square)> {
        let r = self.othello.get(&g.board).unwrap()?;
        (r.is_exact() && r.kinds & kind::EXACT != 0).then(|| (i32::from(r.lower), r.best_move.unwrap()))
    }
}

impl Oracle<Position> for Designated<'_> {
    fn exact(&mut self, g: &Position) -> Result<(i32, Square), SemiError> {
        match self.designated(g) {
            Some(d) => Ok(d),
            None => self.solver.exact(g),
        }
    }
    fn test(&mut self, g: &Position, t: i32) -> Result<(i32, i32, Option<Square>), SemiError> {
        self.solver.test(g, t)
    }
    fn p_prime_first(&mut self, g: &Position) -> Option<Square> {
        self.designated(g).map(|d| d.1)
    }
    fn work(&self) -> (u64, u64) {
        <SolverOracle as Oracle<Position>>::work(&self.solver)
    }
}

fn othello_options() -> SemiOptions {
    let mut o = SemiOptions::new(0);
    o.hash_mb = 16;
    o.solve_bounds_min_nodes = 0;
    o.commit_every = Duration::from_secs(3600);
    o
}

/// Runs both walks from `root` and holds them equal: the same P, A' and P' records
/// (kinds, value, designated move), and the bounds of every position both hold agree.
/// Which non-designated children get a C or A record depends on what each walk
/// already knew when it tested them (the Othello walk keeps its solver's exact
/// results and fail-soft bounds, the generic one null-window bounds), so those sets
/// are only compared for agreement.
fn generic_equals_othello(root: Position) -> usize {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("o.redb"), root.size, root.variant).unwrap();
    let v = semi_strong_from(&store, &othello_options(), root.board).unwrap();
    let mut mem = MemoryStore::new();
    let mut oracle = Designated { othello: &store, solver: SolverOracle::new(18, 1, Budget::UNLIMITED) };
    let out = semi_strong(&root, &mut mem, &mut oracle, &SemiConfig::default(), &mut |_| {}).unwrap();
    assert_eq!(out.value, v);
    let position = |b: Board| Position { board: b, side: Color::Black, size: root.size, variant: root.variant };
    let mut exact = 0;
    let mut bounds = 0;
    store
        .for_each(|b, r| {
            let g = lookup(&mut mem, &position(b)).unwrap();
            if r.kinds & kind::EXACT != 0 {
                let g = g.unwrap_or_else(|| panic!("{b:?} {r} missing from the generic store"));
                assert_eq!(g.kinds & kind::EXACT, r.kinds & kind::EXACT, "{b:?}: {r} vs {g}");
                assert_eq!((g.lower, g.upper), (i32::from(r.lower), i32::from(r.upper)), "{b:?}: {r} vs {g}");
                // The same move, or one leading to a symmetric position.
                let child = |m: Square| canonical_key(&Game::play(&position(b), m)).unwrap();
                assert_eq!(child(g.best.unwrap()), child(r.best_move.unwrap()), "{b:?}: {r} vs {g}");
                exact += 1;
            }
            if r.kinds & (kind::C | kind::A) != 0 && g.is_some() {
                bounds += 1;
            }
            if let Some(g) = g {
                assert!(g.lower <= i32::from(r.upper) && i32::from(r.lower) <= g.upper, "{b:?}: {r} vs {g}");
            }
            Ok(())
        })
        .unwrap();
    let generic_exact = mem.iter().filter(|(_, r)| r.kinds & kind::EXACT != 0).count();
    assert_eq!(generic_exact, exact, "as many exact records");
    assert!(bounds > 0);
    exact
}

#[test]
fn generic_walk_equals_the_othello_walk_on_4x4() {
    let exact = generic_equals_othello(Position::start(BoardSize::Four, Variant::Normal));
    assert!(exact > 100, "{exact}");
    generic_equals_othello(Position::start(BoardSize::Four, Variant::Reversed));
}

#[test]
fn generic_walk_equals_the_othello_walk_on_6x6_positions() {
    let start = Position::start(BoardSize::Six, Variant::Normal);
    let mut compared = 0;
    for seed in 1..=4 {
        let g = solvo_core::random_opening(&start, 21, seed);
        if g.status() != solvo_core::Status::ToMove {
            continue;
        }
        assert!(generic_equals_othello(g) > 10);
        compared += 1;
    }
    assert!(compared >= 3);
}

/// Builds a game's semi-strong store on disk, stopping after every `stop_every`
/// commits (each batch one record or so) and reopening the file as a new process
/// would; returns the records and the root value.
fn build_on_disk<G: Game>(root: &G, path: &std::path::Path, stop_every: Option<u64>) -> (i32, usize) {
    let mut runs = 0;
    loop {
        runs += 1;
        let mut store = GameStore::open(path, "test game", root.max_value()).unwrap();
        let config = SemiConfig {
            commit_every: if stop_every.is_some() { Duration::ZERO } else { Duration::from_secs(3) },
            stop_after_commits: stop_every,
            ..SemiConfig::default()
        };
        let mut oracle = SolverOracle::new(16, 1, Budget::UNLIMITED);
        match semi_strong(root, &mut store, &mut oracle, &config, &mut |_| {}) {
            Ok(out) => return (out.value, runs),
            Err(SemiError::Stopped) => continue,
            Err(e) => panic!("{e}"),
        }
    }
}

struct Check {
    dir: std::path::PathBuf,
    /// The start's value checked against plain negamax (else df-pn's verdict).
    by_negamax: bool,
}

impl GameVisitor for Check {
    type Output = ();
    fn visit<G: Game + std::fmt::Display + 'static>(self, root: G) {
        let path = self.dir.join("g.redb");
        let (value, _) = build_on_disk(&root, &path, None);
        if self.by_negamax {
            assert_eq!(value, solvo_search::negamax(&root), "{root}");
        } else {
            let dfpn = solvo_search::solve(&root, &SolverConfig::new(Algorithm::Dfpn));
            assert_eq!(dfpn.verdict.side_to_move_wins(), Some(value > 0), "{root}");
        }
        let mut store = GameStore::open(&path, "test game", root.max_value()).unwrap();
        let mut oracle = SolverOracle::new(16, 1, Budget::UNLIMITED);
        let report = verify(&root, &mut store, Some(&mut oracle), 5, &mut |_, _| {}).unwrap();
        assert_eq!(report.violations(), 0, "{root}: {:?}", report.first);
        assert_eq!(report.value, Some(value));
        let check = self_check(&root, &mut store, 30, 3, 500).unwrap();
        assert!(check.failures.is_empty(), "{root}: {:?}", check.failures);
        assert!(check.games > 0, "{root}: {check:?}");
        drop(store);
        // Killed after every few commits (a fifth of the records: each commit is a
        // record or two here), rerun: the same exact records.
        let resumed = self.dir.join("r.redb");
        let records = GameStore::open(&path, "test game", root.max_value()).unwrap().records().unwrap().len();
        let (v2, runs) = build_on_disk(&root, &resumed, Some((records as u64 / 5).max(1)));
        assert_eq!(v2, value);
        let exact = |p: &std::path::Path| -> Vec<(Vec<u8>, SemiRecord<u16>)> {
            let s = GameStore::open(p, "test game", root.max_value()).unwrap();
            let mut v = s.records().unwrap();
            v.retain(|(_, r)| r.kinds & kind::EXACT != 0);
            v
        };
        assert_eq!(exact(&path), exact(&resumed), "{root}");
        assert!(runs > 2, "{root}: {runs} runs");
    }
}

/// Small boards of every game of the catalogue, under their plain rules (the
/// value-preserving shortcuts that declare positions decided, such as Domineering's
/// move-count bounds or the race games' tactics, would end these games at the start),
/// each a few hundred records at most: the resumed build commits every record durably
/// (misère Breakthrough 4x3 has 1,456, Knightthrough 4x3 only 4). The start's value is
/// plain negamax's, or df-pn's where negamax takes minutes (Knightthrough 5x3).
#[test]
fn catalogue_games_build_verify_self_check_and_resume() {
    for (name, rows, cols, options) in [
        ("domineering", 4, 4, "bounds=off"),
        ("misere-domineering", 3, 4, "bounds=off"),
        ("nogo", 3, 3, ""),
        ("atarigo", 3, 3, "tactics=off"),
        ("breakthrough", 4, 3, "tactics=off"),
        ("misere-breakthrough", 4, 2, ""),
        ("knightthrough", 5, 3, "tactics=off"),
        ("misere-knightthrough", 4, 3, ""),
        ("go", 2, 2, ""),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let mut o = GameOptions::new();
        for pair in options.split_whitespace() {
            o.push_pair(pair).unwrap();
        }
        let by_negamax = name != "knightthrough";
        dispatch_with(name, rows, cols, &o, Check { dir: dir.path().to_path_buf(), by_negamax }).unwrap();
    }
}

/// The Othello store's kind flags are the generic walk's (the rules are shared).
#[test]
fn kind_flags_are_shared() {
    use solvo_solve::store::kind as othello;
    assert_eq!(
        [othello::P, othello::A_PRIME, othello::P_PRIME, othello::A, othello::C],
        [kind::P, kind::A_PRIME, kind::P_PRIME, kind::A, kind::C]
    );
}

#[test]
fn a_store_of_another_game_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.redb");
    drop(GameStore::open(&path, "domineering 4x4 []", 1).unwrap());
    let e = GameStore::open(&path, "nogo 4x4 []", 1).err().unwrap();
    assert!(e.to_string().contains("domineering 4x4"), "{e}");
}
