//! Issue 16 item 4: a truncated or bit-flipped store is reported as damaged (never a
//! panic, never silently wrong records), and a store held by another process says so.

use solvo_othello::{Board, BoardSize, Square, Variant};
use solvo_solve::store::{kind, Record, Store, StoreError};
use std::path::Path;

/// A 4x4 store with a few hundred records: every position reachable in 5 plies.
fn build(path: &Path) -> Vec<(Board, Record)> {
    let store = Store::open(path, BoardSize::Four, Variant::Normal).unwrap();
    let mut layer = vec![Board::start()];
    let mut items = Vec::new();
    for depth in 0..6 {
        let mut next = Vec::new();
        for b in &layer {
            let moves = b.moves(BoardSize::Four);
            let best = Square::iter(moves).next();
            items.push((*b, Record::exact((depth % 5) as i8 - 2, kind::P, best)));
            for m in Square::iter(moves) {
                next.push(b.play(m, BoardSize::Four).unwrap());
            }
        }
        next.sort();
        next.dedup();
        layer = next;
    }
    store.put_batch(&items).unwrap();
    items
}

/// Opens, checks and reads the store at `path`: `Ok(records)` or the error.
fn open_check_read(path: &Path) -> Result<usize, StoreError> {
    let mut store = Store::open_existing(path)?;
    store.check_integrity()?;
    let mut n = 0;
    store.for_each(|_, _| {
        n += 1;
        Ok(())
    })?;
    Ok(n)
}

fn is_damage(e: &StoreError) -> bool {
    matches!(e, StoreError::Damaged { .. } | StoreError::Corrupt(_)) && e.to_string().contains("damaged")
}

#[test]
fn truncated_stores_are_reported_as_damaged() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.redb");
    build(&good);
    let bytes = std::fs::read(&good).unwrap();
    for len in [0, 100, 512, 4096, 20_000, bytes.len() / 2, bytes.len() - 4096] {
        let cut = dir.path().join(format!("cut-{len}.redb"));
        std::fs::write(&cut, &bytes[..len]).unwrap();
        let e = open_check_read(&cut).expect_err("a truncated store must not open");
        assert!(is_damage(&e) || len == 0, "{len} bytes: {e}");
        assert!(!e.to_string().is_empty());
    }
}

#[test]
fn bit_flips_are_found_by_the_checksums_or_harmless() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.redb");
    build(&good);
    let stored = open_check_read(&good).unwrap();
    let bytes = std::fs::read(&good).unwrap();
    let pages: Vec<usize> =
        (0..bytes.len() / 4096).filter(|p| bytes[p * 4096..(p + 1) * 4096].iter().any(|&b| b != 0)).collect();
    let mut detected = 0;
    for (i, &page) in pages.iter().enumerate().step_by(pages.len().div_ceil(40)) {
        let block = &bytes[page * 4096..(page + 1) * 4096];
        let offset = page * 4096 + block.iter().rposition(|&b| b != 0).unwrap();
        let mut damaged = bytes.clone();
        damaged[offset] ^= 0x04;
        let path = dir.path().join(format!("flip-{i}.redb"));
        std::fs::write(&path, &damaged).unwrap();
        match open_check_read(&path) {
            // A flip in the header's newer commit slot makes redb fall back to the
            // previous durable commit (here: before the records): fewer records, never
            // other ones.
            Ok(n) => assert!(n == stored || n == 0, "page {page}: {n} records of {stored}"),
            Err(e) => {
                assert!(is_damage(&e), "page {page}: {e}");
                detected += 1;
            }
        }
    }
    assert!(detected > 0, "no flip among {} pages was detected", pages.len());
}

#[test]
fn a_store_held_by_another_process_names_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("held.redb");
    build(&path);
    let mut holder = std::process::Command::new("flock")
        .args(["-x", path.to_str().unwrap(), "sleep", "30"])
        .spawn()
        .expect("flock(1) runs");
    let mut message = String::new();
    for _ in 0..200 {
        match Store::open_existing(&path) {
            Err(e @ StoreError::InUse { .. }) => {
                message = e.to_string();
                break;
            }
            _ => std::thread::sleep(std::time::Duration::from_millis(10)),
        }
    }
    holder.kill().unwrap();
    holder.wait().unwrap();
    assert!(message.contains("in use by another process") && message.contains("wait for it"), "{message:?}");
}
