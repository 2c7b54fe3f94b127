//! Weight files under bounded mutation fuzzing (see `solvo_core::fuzz`): the committed
//! corpus (`tests/fuzz-corpus/weights/`: truncated and damaged files, as patches of a
//! small version-2 file) and mutations of it, each read both as it is and with its
//! checksum rewritten (so damage inside a well-sealed file reaches every field check).
//! Properties: no panic, no hang; what is read writes back to a file that reads the
//! same, and evaluates positions without panicking.

mod common;

use common::resealed;
use solvo_core::fuzz::{corpus_dir, patches_of, Fuzz};
use solvo_core::rng::Rng;
use solvo_eval::features::STAGE_LEN;
#[cfg(feature = "residual")]
use solvo_eval::residual::{FloatNet, ResidualNet, NET_DISC_ROWS, NET_HIDDEN, NET_HIDDEN2};
use solvo_eval::{MpcStat, Weights};
use solvo_othello::{BoardSize, Position, Variant};

/// A small 8x8 file: a sparse table, two Multi-ProbCut entries and, where the build
/// reads networks (the lab's `residual` feature), a network whose embedding rows are
/// mostly zero (format version 2).
fn base_file() -> Vec<u8> {
    let mut rng = Rng::new(3);
    let mut w = Weights::zeros(Variant::Normal);
    for s in 0..w.stages() {
        for _ in 0..8 {
            let i = rng.below(STAGE_LEN);
            w.stage_mut(s)[i] = (rng.next_u64() as i16) >> 4;
        }
    }
    w.description = "fuzz base".into();
    w.mpc = vec![
        MpcStat { empties: 30, shallow: 2, deep: 6, mean: 0.5, sigma: 3.25 },
        MpcStat { empties: 40, shallow: 4, deep: 8, mean: -0.25, sigma: 2.0 },
    ];
    #[cfg(feature = "residual")]
    add_net(&mut w, &mut rng);
    w.to_bytes()
}

/// Gives `w` a small network with mostly zero embedding rows.
#[cfg(feature = "residual")]
fn add_net(w: &mut Weights, rng: &mut Rng) {
    let mut u = |scale: f32| (rng.next_f64() as f32 * 2.0 - 1.0) * scale;
    let mut rows = vec![0.0f32; STAGE_LEN * NET_HIDDEN];
    for x in rows.iter_mut().take(64) {
        *x = u(0.3);
    }
    let net = FloatNet {
        rows,
        disc_rows: (0..NET_DISC_ROWS * NET_HIDDEN).map(|_| u(1.0)).collect(),
        w2: (0..NET_HIDDEN2 * NET_HIDDEN).map(|_| u(0.5)).collect(),
        b2: (0..NET_HIDDEN2).map(|_| u(0.5)).collect(),
        w3: (0..NET_HIDDEN2).map(|_| u(0.5)).collect(),
        b3: u(1.0),
    };
    w.set_residual(Some(ResidualNet::quantize(&net).expect("a small network quantizes"))).unwrap();
}

/// Reads `bytes`; when accepted, checks the round trip and evaluates a few positions.
fn read(bytes: &[u8]) -> String {
    match Weights::from_bytes(bytes) {
        Ok(w) => {
            let again = Weights::from_bytes(&w.to_bytes());
            assert_eq!(again.as_ref(), Ok(&w), "from_bytes(to_bytes(w)) == w");
            let start = Position::start(w.size(), w.variant).board;
            let full = w.size().mask();
            for (p, o) in
                [(start.player, start.opponent), (full, 0), (0, full), (0, 0), (full & 0x5555_5555_5555_5555, 0)]
            {
                let _ = w.evaluate(p, o);
            }
            "ok".into()
        }
        Err(e) => e.message,
    }
}

#[test]
fn weight_files_never_panic_and_round_trip() {
    let base = base_file();
    let small = [
        Weights::zeros(Variant::Reversed).to_bytes(),
        Weights::zeros_for(BoardSize::Six, Variant::Normal).unwrap().to_bytes(),
    ];
    Fuzz::new("weights")
        .corpus(&corpus_dir(env!("CARGO_MANIFEST_DIR"), "weights"), patches_of(base.clone()))
        .seeds([base.clone()])
        .seeds(small)
        .dictionary(&[b"SOLVOEVL", &[1, 0], &[2, 0], &[8], &[6], &[0xff; 8], &[0; 8]])
        .max_len(base.len() + 64)
        .run(|input| {
            let raw = read(input);
            if input.len() >= 18 {
                let sealed = read(&resealed(input.to_vec()));
                if raw != "ok" {
                    return sealed;
                }
            }
            raw
        });
}
