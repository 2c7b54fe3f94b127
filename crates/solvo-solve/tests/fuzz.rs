//! The headers of the files this crate reads back under bounded mutation fuzzing (see
//! `solvo_core::fuzz`): the solution store's first page (the database header: magic,
//! page size, commit slots) and enumeration level files (header, boards, checksum).
//! Each replays its committed corpus (`tests/fuzz-corpus/store-header/`,
//! `tests/fuzz-corpus/level-file/`: patches of a small file built here), then mutates
//! it. Properties: no panic escapes, no hang; a store that opens answers every read
//! with records or an error; a level file that opens reads its boards or says it is
//! damaged.

use solvo_core::fuzz::{corpus_dir, patches_of, Fuzz};
use solvo_othello::{Board, BoardSize, Square, Variant};
use solvo_solve::levelfile::{existing_level, read_level, LevelWriter};
use solvo_solve::proof_store::ProofStore;
use solvo_solve::store::{kind, Record, Store};
use std::path::Path;

/// Bytes of the store file fuzzed: its first page, which holds the database header.
const HEAD: usize = 4096;

fn corpus(parser: &str) -> std::path::PathBuf {
    corpus_dir(env!("CARGO_MANIFEST_DIR"), parser)
}

/// A directory for the fuzzed files: in memory (`/dev/shm`) where there is one, since
/// every input is written as a file (on a disk, writes bound the rate at a few hundred
/// inputs a second), else the system's temporary directory.
fn scratch_dir() -> tempfile::TempDir {
    let shm = Path::new("/dev/shm");
    shm.is_dir().then(|| tempfile::tempdir_in(shm).ok()).flatten().unwrap_or_else(|| tempfile::tempdir().unwrap())
}

/// A 4x4 store of every position reachable in 4 plies, as file bytes.
fn store_bytes(dir: &Path) -> Vec<u8> {
    let path = dir.join("base.redb");
    let store = Store::open(&path, BoardSize::Four, Variant::Normal).unwrap();
    let mut layer = vec![Board::start()];
    let mut items = Vec::new();
    for depth in 0..5 {
        let mut next = Vec::new();
        for b in &layer {
            let moves = b.moves(BoardSize::Four);
            items.push((*b, Record::exact((depth % 5) as i8 - 2, kind::P, Square::iter(moves).next())));
            next.extend(Square::iter(moves).filter_map(|m| b.play(m, BoardSize::Four)));
        }
        next.sort();
        next.dedup();
        layer = next;
    }
    store.put_batch(&items).unwrap();
    drop(store);
    std::fs::read(&path).unwrap()
}

#[test]
fn store_headers_never_panic_or_hang() {
    let dir = scratch_dir();
    let bytes = store_bytes(dir.path());
    assert!(bytes.len() > HEAD, "a store of {} bytes", bytes.len());
    let (head, rest) = bytes.split_at(HEAD);
    let path = dir.path().join("fuzzed.redb");
    Fuzz::new("store-header")
        .corpus(&corpus("store-header"), patches_of(head.to_vec()))
        .seeds([head.to_vec()])
        .dictionary(&[b"redb", &[0; 16], &[0xff; 16], &[0, 0x10, 0, 0]])
        .max_len(HEAD)
        .budget_scaled(0.5)
        .run(|input| {
            let mut file = input.to_vec();
            file.extend_from_slice(rest);
            std::fs::write(&path, &file).unwrap();
            let sig = match Store::open_existing(&path) {
                Ok(mut store) => {
                    let mut n = 0u64;
                    let read = store
                        .check_integrity()
                        .and_then(|_| {
                            store.for_each(|_, _| {
                                n += 1;
                                Ok(())
                            })
                        })
                        .and_then(|_| store.get(&Board::start()))
                        .and_then(|_| store.len());
                    match read {
                        Ok(_) => "ok".to_string(),
                        Err(e) => format!("read: {e}"),
                    }
                }
                Err(e) => format!("open: {e}"),
            };
            // The proof store's open and close on the same damaged file (a solution
            // store is not a proof store: it is refused, and closed).
            let _ = ProofStore::open(&path, "fuzz");
            // Paths and numbers differ from input to input; the kind of answer is
            // what counts.
            sig.replace(&path.display().to_string(), "")
        });
}

#[test]
fn level_files_never_panic_or_hang() {
    let dir = scratch_dir();
    let base_path = dir.path().join("base.bin");
    let mut boards: Vec<Board> = Square::iter(Board::start().moves(BoardSize::Six))
        .filter_map(|m| Board::start().play(m, BoardSize::Six))
        .collect();
    boards.sort();
    let mut w = LevelWriter::create(&base_path, BoardSize::Six, 5, 1 << 16).unwrap();
    for b in &boards {
        w.push(b).unwrap();
    }
    w.commit().unwrap();
    let base = std::fs::read(&base_path).unwrap();
    let path = dir.path().join("fuzzed.bin");
    Fuzz::new("level-file")
        .corpus(&corpus("level-file"), patches_of(base.clone()))
        .seeds([base.clone()])
        .dictionary(&[b"SOLVOLV2", b"SOLVOLV1", &[0xff; 8], &[0; 8]])
        .max_len(base.len() + 64)
        .run(|input| {
            std::fs::write(&path, input).unwrap();
            let sig = match existing_level(&path, BoardSize::Six, 5) {
                Ok(Some(count)) => {
                    let read = read_level(&path, count, 1 << 16).and_then(|mut r| {
                        while r.remaining() > 0 {
                            r.next_chunk(3)?;
                        }
                        r.finish()
                    });
                    match read {
                        Ok(()) => "ok".to_string(),
                        Err(e) => format!("read: {e}"),
                    }
                }
                Ok(None) => "missing".to_string(),
                Err(e) => format!("open: {e}"),
            };
            sig.replace(&path.display().to_string(), "")
        });
}
