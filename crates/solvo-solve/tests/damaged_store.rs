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

/// A 6x6 store of `n` random positions (many pages), and its records by canonical board.
fn build_large(path: &Path, n: usize) -> std::collections::HashMap<Board, Record> {
    let store = Store::open(path, BoardSize::Six, Variant::Normal).unwrap();
    let squares: Vec<Square> = BoardSize::Six.squares_in_order().collect();
    let mut rng = solvo_core::rng::Rng::new(7);
    let mut items = Vec::new();
    for i in 0..n {
        let mut b = Board::default();
        for sq in &squares {
            match rng.below(3) {
                1 => b.player |= sq.bit(),
                2 => b.opponent |= sq.bit(),
                _ => {}
            }
        }
        let v = (i % 37) as i8 - 18;
        let kinds = [kind::P, kind::A_PRIME, kind::C, 0][i % 4];
        let rec = if kinds == kind::C {
            Record { lower: v, upper: 36, kinds, best_move: None }
        } else {
            Record::exact(v, kinds, None)
        };
        items.push((b, rec));
    }
    for chunk in items.chunks(5000) {
        store.put_batch(chunk).unwrap();
    }
    store.put_meta("semistrong.min_empties", b"14").unwrap();
    let mut all = std::collections::HashMap::new();
    store
        .for_each(|b, r| {
            all.insert(b, r);
            Ok(())
        })
        .unwrap();
    all
}

/// Salvages `damaged` into a new file: every record copied must be one of `all` (its
/// semi-strong kinds removed when records were lost). Returns the report.
fn salvage_and_check(
    damaged: &Path,
    out: &Path,
    all: &std::collections::HashMap<Board, Record>,
) -> Result<solvo_solve::store::salvage::SalvageReport, StoreError> {
    let report = solvo_solve::store::salvage::salvage(damaged, out, Some((BoardSize::Six, Variant::Normal)))?;
    let copy = Store::open_existing(out).unwrap();
    let mut n = 0;
    copy.for_each(|b, r| {
        let original = all.get(&b).unwrap_or_else(|| panic!("{b:?} was never stored"));
        let mut want = *original;
        if report.kinds_removed {
            want.kinds &= !(kind::P | kind::A_PRIME | kind::P_PRIME);
        }
        assert_eq!(r, want, "{b:?}");
        n += 1;
        Ok(())
    })
    .unwrap();
    assert_eq!(n, report.records);
    Ok(report)
}

#[test]
fn salvage_copies_every_readable_record_of_a_truncated_or_flipped_store() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.redb");
    let all = build_large(&good, 60_000);
    let bytes = std::fs::read(&good).unwrap();
    // Intact: an exact copy, kinds and parameters kept.
    let r = salvage_and_check(&good, &dir.path().join("copy.redb"), &all).unwrap();
    assert_eq!(r.records as usize, all.len());
    assert!(!r.kinds_removed && r.damaged_stretches == 0 && r.meta_copied == 1, "{r:?}");
    // The output must be new.
    let again = solvo_solve::store::salvage::salvage(&good, &dir.path().join("copy.redb"), None);
    assert!(again.unwrap_err().to_string().contains("already exists"));
    // Truncated at several lengths: what is read is right, most of it is read.
    let mut salvaged_any = false;
    for (i, fraction) in [0.95, 0.8, 0.6].into_iter().enumerate() {
        let len = (bytes.len() as f64 * fraction) as usize;
        let cut = dir.path().join(format!("cut-{i}.redb"));
        std::fs::write(&cut, &bytes[..len]).unwrap();
        assert!(open_check_read(&cut).is_err(), "a truncated store must not open as it is");
        match salvage_and_check(&cut, &dir.path().join(format!("cut-{i}-salvaged.redb")), &all) {
            Ok(r) => {
                eprintln!("truncated to {len} of {} bytes: {r:?} of {} records", bytes.len(), all.len());
                assert!(r.kinds_removed);
                salvaged_any |= r.records > 0;
            }
            Err(e) => {
                eprintln!("truncated to {len}: {e}");
                assert!(e.to_string().contains("damaged"), "{e}");
            }
        }
        // The damaged file is never written.
        assert_eq!(std::fs::read(&cut).unwrap(), &bytes[..len]);
    }
    assert!(salvaged_any, "no record could be salvaged from any truncated copy");
    // Bit flips in record pages: every other record is kept.
    let pages: Vec<usize> = (1..bytes.len() / 4096).collect();
    let mut partial = 0;
    for (i, &page) in pages.iter().enumerate().step_by(pages.len().div_ceil(12)) {
        let mut damaged = bytes.clone();
        damaged[page * 4096 + 2000] ^= 0x10;
        let path = dir.path().join(format!("flip-{i}.redb"));
        std::fs::write(&path, &damaged).unwrap();
        if let Ok(r) = salvage_and_check(&path, &dir.path().join(format!("flip-{i}-salvaged.redb")), &all) {
            if r.refused > 0 || r.damaged_stretches > 0 {
                partial += 1;
                assert!(r.kinds_removed);
                assert!(r.records as usize > all.len() / 2, "page {page}: only {r:?}");
            }
        }
        // Read in place, the damaged record is reported as damage, the others read.
        if let Ok(store) = Store::open_existing(&path) {
            let mut bad = 0;
            for b in all.keys() {
                match store.get(b) {
                    Ok(Some(_)) => {}
                    Ok(None) => panic!("page {page}: a record vanished without an error"),
                    Err(e) => {
                        assert!(e.to_string().contains("fails its check") || is_damage(&e), "{e}");
                        bad += 1;
                    }
                }
            }
            assert!(bad < all.len() / 2, "page {page}: {bad} records unreadable");
        }
    }
    assert!(partial > 0, "no flip hit a record page");
}

#[test]
fn a_directory_or_an_empty_file_given_as_a_store_is_named_so() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.redb");
    std::fs::write(&empty, b"").unwrap();
    for (path, what) in [(dir.path().to_path_buf(), "is a directory"), (empty.clone(), "empty file")] {
        let Err(e) = Store::open_existing(&path) else { panic!("{} opened as a store", path.display()) };
        assert!(e.to_string().contains(what), "{e}");
    }
    assert_eq!(std::fs::metadata(&empty).unwrap().len(), 0, "the empty file was written to");
    // Nor is a directory made a store by the commands that create one.
    let Err(e) = Store::open(dir.path(), BoardSize::Four, Variant::Normal) else { panic!("a directory opened") };
    assert!(e.to_string().contains("is a directory"), "{e}");
}
