//! The web front end's figures (not run by default: they take a minute or two and
//! their times depend on the machine). Run them with
//! `cargo test --release -p solvo-web --test figures -- --ignored --nocapture --test-threads 1`:
//! - in headless Chromium: the time to first contentful paint of the page on
//!   localhost (Chromium's paint timing, median of 5 loads), and the time from loading a
//!   pasted transcript until every move value is shown, and until every one is exact,
//!   for positions of 12, 16, 20 and 24 empties (level 12: exact from 24 empties), with
//!   1 and with 2 threads a search (`solvo serve --threads`);
//! - over HTTP: the server's memory (resident set, this process: the server plus the
//!   test's small client threads) with 10 concurrent analysis clients, and 100 clients at
//!   once against the default cap of 8 searches (how many are served, how many get
//!   503, and that the server still answers afterwards).

mod common;

use common::browser::{self, js};
use common::*;
use fantoccini::Locator;
use serde_json::json;
use solvo_othello::formats::transcript::{format_transcript, parse_transcript, PassStyle};
use solvo_othello::{BoardSize, Position, Variant};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// This process's resident set in KiB.
fn rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// Samples the resident set every 20 ms until stopped; the peak.
struct Sampler {
    peak: Arc<AtomicU64>,
    stop: Arc<AtomicBool>,
}

impl Sampler {
    fn start() -> Sampler {
        let (peak, stop) = (Arc::new(AtomicU64::new(rss_kib())), Arc::new(AtomicBool::new(false)));
        let (p, s) = (peak.clone(), stop.clone());
        std::thread::spawn(move || {
            while !s.load(Ordering::Relaxed) {
                p.fetch_max(rss_kib(), Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(20));
            }
        });
        Sampler { peak, stop }
    }

    fn peak_mib(self) -> f64 {
        self.stop.store(true, Ordering::Relaxed);
        self.peak.load(Ordering::Relaxed) as f64 / 1024.0
    }
}

/// A transcript of the test game reaching `empties` empties (24: its first 36 moves).
fn game_at(empties: u32) -> (String, Position) {
    if empties == 24 {
        let start = Position::start(BoardSize::Eight, Variant::Normal);
        let replay = parse_transcript(&GAME[..2 * 36], &start).unwrap();
        assert_eq!(replay.end().empties(), 24);
        return (format_transcript(&replay.plies, PassStyle::Implicit), replay.end());
    }
    transcript_to(BoardSize::Eight, Variant::Normal, empties)
}

#[test]
#[ignore = "figures: prints server memory with 10 clients and 100 clients against the cap (about a minute)"]
fn figures_over_http() {
    let (moves, pos) = game_at(20);
    let body = json!({"game": {"moves": moves}, "level": 10}).to_string();
    // 10 clients at once, each with its own engine (cap 10).
    let addr = start(config(10, Duration::from_secs(120)));
    let base = rss_kib() as f64 / 1024.0;
    let sampler = Sampler::start();
    let t = Instant::now();
    let clients: Vec<_> = (0..10).map(|_| send(addr, "POST", "/api/analyze", &body)).collect();
    let answers: Vec<_> = clients.into_iter().map(read_answer).collect();
    let wall = t.elapsed();
    let peak = sampler.peak_mib();
    for a in &answers {
        assert_eq!(a.events("done")[0]["all_exact"], true);
    }
    println!(
        "10 concurrent analyses of a 20-empty position (level 10, exact): all done in {:.1} s; RSS {base:.0} MiB before, peak {peak:.0} MiB ({} empties, {} moves each)",
        wall.as_secs_f64(),
        pos.empties(),
        pos.moves().count_ones()
    );
    // 100 clients at once against the default cap of 8.
    let cfg = config(8, Duration::from_secs(120));
    let addr = start(cfg);
    let before = rss_kib() as f64 / 1024.0;
    let sampler = Sampler::start();
    let t = Instant::now();
    let clients: Vec<_> = (0..100).map(|_| send(addr, "POST", "/api/analyze", &body)).collect();
    let answers: Vec<_> = clients.into_iter().map(read_answer).collect();
    let wall = t.elapsed();
    let peak = sampler.peak_mib();
    let served = answers.iter().filter(|a| a.status == 200 && a.events("done").len() == 1).count();
    let refused = answers.iter().filter(|a| a.status == 503).count();
    let info = request(addr, "GET", "/api/info", "").json();
    println!(
        "100 clients at once, cap 8: {served} served, {refused} refused with 503, others {}; {:.1} s; RSS before {before:.0} MiB, peak {peak:.0} MiB; afterwards /api/info answers, running searches {}",
        100 - served - refused,
        wall.as_secs_f64(),
        info["running_searches"]
    );
    assert_eq!(served + refused, 100);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "figures: prints paint time and time to every move's value in headless Chromium (a minute or two; needs Chromium)"]
async fn figures_in_chromium() {
    let addr = start(config(4, Duration::from_secs(120)));
    let browser = browser::open().await;
    let c = &browser.client;
    let url = format!("http://{addr}/");
    let mut paints = Vec::new();
    for _ in 0..5 {
        c.goto(&url).await.unwrap();
        let mut p = json!(-1.0);
        for _ in 0..100 {
            p = js(c, "(performance.getEntriesByName('first-contentful-paint')[0] || {startTime: -1}).startTime").await;
            if p.as_f64() != Some(-1.0) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let nav = js(c, "performance.getEntriesByType('navigation')[0].responseEnd").await;
        paints.push((p.as_f64().unwrap(), nav.as_f64().unwrap()));
    }
    paints.sort_by(|a, b| a.0.total_cmp(&b.0));
    println!(
        "first contentful paint on localhost: median {:.0} ms (of 5 loads: {paints:?}; (paint, response end) ms)",
        paints[2].0
    );
    for threads in [1, 2] {
        let mut cfg = config(4, Duration::from_secs(120));
        cfg.engine.threads = threads;
        let addr = start(cfg);
        c.goto(&format!("http://{addr}/")).await.unwrap();
        tokio::time::sleep(Duration::from_millis(500)).await;
        values_until_exact(c, threads).await;
    }
}

/// Times, for positions of 12 to 24 empties pasted on the page, until every move value
/// is shown and until every one is exact (level 12), with `threads` threads a search.
async fn values_until_exact(c: &fantoccini::Client, threads: usize) {
    js(c, "document.getElementById('level').value = '12'").await;
    js(c, "document.getElementById('io-panel').open = true").await;
    for empties in [12, 16, 20, 24] {
        let (moves, pos) = game_at(empties);
        // Shown for another position first, so the timed one starts from nothing.
        c.execute("document.getElementById('paste').value = 'f5'; document.getElementById('load').click();", vec![])
            .await
            .unwrap();
        tokio::time::sleep(Duration::from_millis(500)).await;
        let legal = pos.moves().count_ones();
        c.execute("document.getElementById('paste').value = arguments[0];", vec![json!(moves)]).await.unwrap();
        let load = c.find(Locator::Id("load")).await.unwrap();
        let t = Instant::now();
        load.click().await.unwrap();
        let mut first_all = None;
        loop {
            let v = js(
                c,
                "[document.querySelectorAll('#board .val').length, document.querySelectorAll('#board .val.exact').length]",
            )
            .await;
            let (shown, exact) = (v[0].as_u64().unwrap() as u32, v[1].as_u64().unwrap() as u32);
            if shown == legal && first_all.is_none() {
                first_all = Some(t.elapsed());
            }
            if exact == legal {
                break;
            }
            assert!(t.elapsed() < Duration::from_secs(600), "{empties} empties: not exact after 10 minutes");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        let all_exact = t.elapsed();
        println!(
            "{empties} empties ({legal} moves, level 12, {threads} thread(s) a search): every value shown after {:.2} s, every value exact after {:.2} s",
            first_all.unwrap().as_secs_f64(),
            all_exact.as_secs_f64()
        );
    }
}
