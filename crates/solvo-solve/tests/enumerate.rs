//! Enumeration counts against a deliberately naive count: plain recursion over every
//! move sequence, one HashSet of canonical boards per disc count.

use solvo_othello::{Board, BoardSize, Square};
use solvo_solve::enumerate::{enumerate, EnumerateError, EnumerateOptions};
use std::collections::HashSet;

fn naive_walk(b: Board, size: BoardSize, max_discs: u32, sets: &mut [HashSet<Board>]) {
    let discs = (b.player | b.opponent).count_ones();
    sets[discs as usize].insert(b.canonical());
    if discs == max_discs {
        return;
    }
    for i in 0..64u32 {
        let Some(next) = b.play(Square::from_index(i), size) else { continue };
        if next.moves(size) != 0 {
            naive_walk(next, size, max_discs, sets);
        } else if next.pass().moves(size) != 0 {
            naive_walk(next.pass(), size, max_discs, sets);
        }
    }
}

fn naive_counts(size: BoardSize, max_discs: u32) -> Vec<u64> {
    let mut sets = vec![HashSet::new(); max_discs as usize + 1];
    naive_walk(Board::start(), size, max_discs, &mut sets);
    sets[4..].iter().map(|s| s.len() as u64).collect()
}

fn counts(opts: &EnumerateOptions) -> Vec<u64> {
    enumerate(opts, |_| {}).unwrap().iter().map(|r| r.count).collect()
}

fn in_memory(size: BoardSize, max_discs: u32) -> EnumerateOptions {
    EnumerateOptions { size, max_discs, data_dir: None, memory_bytes: 256 << 20, progress: false }
}

#[test]
fn counts_equal_the_naive_count_on_6x6_and_8x8_to_12_discs() {
    for size in [BoardSize::Six, BoardSize::Eight] {
        let naive = naive_counts(size, 12);
        assert_eq!(counts(&in_memory(size, 12)), naive, "{size}");
    }
    // Small known values: one start, one position after the first move, three after two.
    assert_eq!(&naive_counts(BoardSize::Eight, 6), &[1, 1, 3]);
}

#[test]
fn whole_4x4_board_matches_the_naive_count() {
    assert_eq!(counts(&in_memory(BoardSize::Four, 16)), naive_counts(BoardSize::Four, 16));
}

#[test]
fn spilling_to_disk_and_resuming_give_the_same_counts() {
    let dir = std::env::temp_dir().join(format!("solvo-enum-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let size = BoardSize::Six;
    let expected = counts(&in_memory(size, 13));
    // The least budget forces sorted runs and k-way merges on the larger levels.
    let opts = EnumerateOptions {
        size,
        max_discs: 13,
        data_dir: Some(dir.clone()),
        memory_bytes: solvo_solve::enumerate::MIN_MEMORY_BYTES,
        progress: false,
    };
    let first = enumerate(&opts, |_| {}).unwrap();
    assert!(first.iter().any(|r| r.runs > 1), "the small budget should spill");
    assert_eq!(first.iter().map(|r| r.count).collect::<Vec<_>>(), expected);
    // A second run reuses every finished level file.
    let again = enumerate(&opts, |_| {}).unwrap();
    assert!(again[1..].iter().all(|r| r.reused));
    assert_eq!(again.iter().map(|r| r.count).collect::<Vec<_>>(), expected);
    // A damaged level file is reported, not trusted.
    let path = solvo_solve::levelfile::level_path(&dir, size, 10);
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(&path, &bytes[..bytes.len() - 3]).unwrap();
    let err = enumerate(&opts, |_| {}).unwrap_err().to_string();
    assert!(err.contains("level-6x6-10.bin"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_disc_counts_and_memory_overflow_are_errors() {
    assert!(enumerate(&in_memory(BoardSize::Four, 17), |_| {}).is_err());
    assert!(enumerate(&in_memory(BoardSize::Four, 3), |_| {}).is_err());
    // A level larger than the budget, without a data directory to spill to.
    let small = EnumerateOptions { memory_bytes: 1 << 20, ..in_memory(BoardSize::Eight, 12) };
    let err = enumerate(&small, |_| {}).unwrap_err().to_string();
    assert!(err.contains("--data-dir"), "{err}");
    // A budget below the least the enumeration keeps is refused, naming that least.
    for data_dir in [None, Some(std::env::temp_dir())] {
        let tiny = EnumerateOptions { memory_bytes: 1 << 10, data_dir, ..in_memory(BoardSize::Eight, 12) };
        let err = enumerate(&tiny, |_| {}).unwrap_err().to_string();
        assert!(err.contains("at least 1 MiB (--memory-mb 1)"), "{err}");
    }
}

/// Issue 16 item 4: a truncated, a bit-flipped and a checksum-less (first format) level
/// file are reported as damaged, naming the file, instead of silently changing the
/// next level's count.
#[test]
fn damaged_level_files_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    let size = BoardSize::Eight;
    let opts = |max_discs| EnumerateOptions {
        size,
        max_discs,
        data_dir: Some(dir.path().to_path_buf()),
        memory_bytes: 64 << 20,
        progress: false,
    };
    let expected = counts(&opts(10));
    let level9 = solvo_solve::levelfile::level_path(dir.path(), size, 9);
    let level10 = solvo_solve::levelfile::level_path(dir.path(), size, 10);
    let good = std::fs::read(&level9).unwrap();
    let damage = |bytes: Vec<u8>, needle: &str| {
        std::fs::write(&level9, bytes).unwrap();
        let _ = std::fs::remove_file(&level10);
        let e = enumerate(&opts(10), |_| {}).expect_err(needle).to_string();
        assert!(e.contains(needle) && e.contains("level-8x8-09.bin"), "{needle}: {e}");
    };
    damage(good[..good.len() - 5].to_vec(), "truncated");
    // A disc moved to an empty square of the first board: still a valid board.
    let mut flipped = good.clone();
    let player = u64::from_le_bytes(flipped[24..32].try_into().unwrap());
    let opponent = u64::from_le_bytes(flipped[32..40].try_into().unwrap());
    let empty = !(player | opponent);
    flipped[24..32].copy_from_slice(&(player ^ (empty & empty.wrapping_neg())).to_le_bytes());
    damage(flipped, "checksum");
    let mut old = good[..good.len() - 8].to_vec();
    old[..8].copy_from_slice(b"SOLVOLV1");
    damage(old, "regenerate");
    std::fs::write(&level9, &good).unwrap();
    assert_eq!(counts(&opts(10)), expected);
}

#[test]
fn a_second_run_on_a_data_directory_in_use_is_refused() {
    let dir = std::env::temp_dir().join(format!("solvo-enum-lock-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let opts = EnumerateOptions {
        size: BoardSize::Four,
        max_discs: 8,
        data_dir: Some(dir.clone()),
        memory_bytes: 1 << 20,
        progress: false,
    };
    // A second run started while the first is between levels.
    let mut second = None;
    enumerate(&opts, |r| {
        if r.discs == 6 {
            second = Some(enumerate(&opts, |_| {}));
        }
    })
    .unwrap();
    let err = second.expect("the second run was started").unwrap_err();
    assert!(matches!(err, EnumerateError::InUse { .. }), "{err}");
    assert!(err.to_string().contains("in use by another enumeration"), "{err}");
    // Once the first run is over the directory is free again.
    assert!(enumerate(&opts, |_| {}).is_ok());
    std::fs::remove_dir_all(&dir).unwrap();
}
