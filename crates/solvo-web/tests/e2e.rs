//! End to end in a real browser: Debian's headless Chromium driven over WebDriver
//! (`chromedriver`, via the `fantoccini` crate) against the server on a free port of
//! 127.0.0.1. Steps: open the page (start values, time to first paint), play moves by
//! clicking, undo, the keyboard, paste a near-end transcript and check every move
//! value shown equals the exact solver's, a midgame position's streamed values, a
//! game's analysis with its graph and mistakes, 6x6 reversed (exact values again),
//! and an error message. Each step leaves a screenshot in
//! `target/e2e-screenshots/` (git-ignored).
//!
//! Needs `/usr/bin/chromium` and `/usr/bin/chromedriver` (Debian packages `chromium`
//! and `chromium-driver`; `.ci/run` installs them). Run alone with
//! `cargo test --release -p solvo-web --test e2e`.

mod common;

use common::browser::{self, js};
use common::*;
use fantoccini::{Client, Locator};
use serde_json::json;
use solvo_othello::{BoardSize, Variant};
use std::path::PathBuf;
use std::time::{Duration, Instant};

fn screenshots() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/e2e-screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

async fn shot(c: &Client, name: &str) {
    let png = c.screenshot().await.unwrap();
    std::fs::write(screenshots().join(format!("{name}.png")), png).unwrap();
}

/// Waits until `expr` is truthy in the page (at most `secs` seconds).
async fn wait_for(c: &Client, expr: &str, secs: u64) {
    let t = Instant::now();
    loop {
        let v = js(c, expr).await;
        if v.as_bool() == Some(true) {
            return;
        }
        if t.elapsed() > Duration::from_secs(secs) {
            let status = js(c, "document.getElementById('status-text').textContent").await;
            let error = js(
                c,
                "document.getElementById('error').hidden ? '' : document.getElementById('error-text').textContent",
            )
            .await;
            panic!("waited {secs} s for {expr}; status {status}, error {error}");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

const ANALYSIS_DONE: &str = "document.getElementById('board').dataset.analysis === 'done'";

/// The move values shown on the board: (square, value, exact).
async fn shown_values(c: &Client) -> Vec<(String, f64, bool)> {
    let v = js(
        c,
        "Array.from(document.querySelectorAll('#board .val')).map(v => [v.parentElement.dataset.sq, parseFloat(v.dataset.score), v.dataset.exact === '1'])",
    )
    .await;
    let mut out: Vec<(String, f64, bool)> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|x| (x[0].as_str().unwrap().to_string(), x[1].as_f64().unwrap(), x[2].as_bool().unwrap()))
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// Pastes `text` into the paste box and loads it.
async fn paste(c: &Client, text: &str) {
    c.execute(
        "document.getElementById('io-panel').open = true; document.getElementById('paste').value = arguments[0];",
        vec![json!(text)],
    )
    .await
    .unwrap();
    c.find(Locator::Id("load")).await.unwrap().click().await.unwrap();
}

async fn select(c: &Client, id: &str, value: &str) {
    c.execute(
        "const s = document.getElementById(arguments[0]); s.value = arguments[1]; s.dispatchEvent(new Event('change'));",
        vec![json!(id), json!(value)],
    )
    .await
    .unwrap();
}

/// Checks that the values shown are the exact values of every legal move.
async fn assert_exact_values(c: &Client, pos: &solvo_othello::Position) {
    let mut expected = exact_values(pos);
    expected.sort();
    let shown = shown_values(c).await;
    let shown: Vec<(String, i32)> = shown
        .iter()
        .map(|(sq, v, exact)| {
            assert!(exact, "{sq} is not marked exact");
            (sq.clone(), *v as i32)
        })
        .collect();
    assert_eq!(shown, expected);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_in_headless_chromium() {
    let mut cfg = config(4, Duration::from_secs(60));
    add_wthor(&mut cfg);
    let addr = start(cfg);
    let browser = browser::open().await;
    let c = &browser.client;
    let base = format!("http://{addr}/");

    // 1. The page: the start, its four moves valued.
    c.goto(&base).await.unwrap();
    wait_for(c, &format!("{ANALYSIS_DONE} && document.querySelectorAll('#board .val').length === 4"), 30).await;
    let paint = js(c, "(performance.getEntriesByName('first-contentful-paint')[0] || {startTime: -1}).startTime").await;
    eprintln!("first contentful paint: {paint} ms");
    shot(c, "01-start-values").await;

    // 2. A short game by clicking: f5, then the best move twice.
    c.find(Locator::Css("#board [data-sq='f5']")).await.unwrap().click().await.unwrap();
    wait_for(c, &format!("document.querySelectorAll('#movelist li').length === 2 && {ANALYSIS_DONE}"), 30).await;
    for n in 3..=4 {
        c.find(Locator::Css("#board .sq.best")).await.unwrap().click().await.unwrap();
        wait_for(c, &format!("document.querySelectorAll('#movelist li').length === {n} && {ANALYSIS_DONE}"), 30).await;
    }
    shot(c, "02-played").await;

    // 3. Undo, then redo with the keyboard (→), and back (←).
    c.find(Locator::Id("undo")).await.unwrap().click().await.unwrap();
    wait_for(c, "document.querySelector('#movelist li.cur').dataset.ply === '2'", 10).await;
    wait_for(c, ANALYSIS_DONE, 30).await;
    shot(c, "03-undo").await;
    c.execute("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight'}))", vec![]).await.unwrap();
    wait_for(c, "document.querySelector('#movelist li.cur').dataset.ply === '3'", 10).await;
    c.execute("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowLeft'}))", vec![]).await.unwrap();
    wait_for(c, "document.querySelector('#movelist li.cur').dataset.ply === '2'", 10).await;

    // 3b. Against the engine (level 2, white): a click, and the engine answers.
    select(c, "level", "2").await;
    select(c, "mode", "engine").await;
    let before = js(c, "parseInt(document.querySelector('#movelist li.cur').dataset.ply, 10)").await.as_u64().unwrap();
    c.find(Locator::Css("#board .sq.legal")).await.unwrap().click().await.unwrap();
    let after = format!(
        "document.querySelector('#movelist li.cur').dataset.ply === '{}' && document.querySelectorAll('#movelist li').length === {}",
        before + 2,
        before + 3
    );
    wait_for(c, &format!("{after} && {ANALYSIS_DONE}"), 30).await;
    let side = js(c, "document.getElementById('turn').textContent").await;
    assert!(side.as_str().unwrap().contains("Black"), "{side}");
    shot(c, "03b-engine-replied").await;
    select(c, "mode", "analyze").await;
    select(c, "level", "10").await;

    // 3c. Set up a position: a disc added on a1, white to move.
    c.execute("document.getElementById('io-panel').open = true", vec![]).await.unwrap();
    c.find(Locator::Id("setup")).await.unwrap().click().await.unwrap();
    c.find(Locator::Css("#board [data-sq='a1']")).await.unwrap().click().await.unwrap();
    select(c, "setup-side", "O").await;
    c.find(Locator::Id("setup-done")).await.unwrap().click().await.unwrap();
    wait_for(c, "document.querySelector(\"#board [data-sq='a1'] .disc.X\") !== null && document.getElementById('turn').textContent.includes('White')", 10).await;
    wait_for(c, ANALYSIS_DONE, 30).await;

    // 3d. The WTHOR browser: a search, a game opened.
    c.execute("document.getElementById('wthor-panel').open = true", vec![]).await.unwrap();
    c.find(Locator::Id("wthor-search")).await.unwrap().click().await.unwrap();
    wait_for(c, "document.querySelectorAll('#wthor-results tr.game').length > 0", 10).await;
    c.find(Locator::Css("#wthor-results tr.game")).await.unwrap().click().await.unwrap();
    wait_for(c, "document.querySelectorAll('#movelist li').length > 40", 10).await;
    // Its GGF export names the players, the tournament and the year.
    let ggf = js(c, "document.getElementById('out-ggf').value").await;
    let info = js(c, "document.getElementById('game-info').textContent").await;
    let black = info.as_str().unwrap().split(" (black)").next().unwrap().to_string();
    assert!(ggf.as_str().unwrap().contains(&format!("PB[{black}]")), "{ggf} / {info}");
    assert!(ggf.as_str().unwrap().contains("PC[") && ggf.as_str().unwrap().contains("DT[19"), "{ggf}");
    c.execute("document.getElementById('wthor-panel').scrollIntoView()", vec![]).await.unwrap();
    shot(c, "03d-wthor").await;
    c.execute("document.getElementById('wthor-panel').open = false; window.scrollTo(0, 0)", vec![]).await.unwrap();

    // 4. A pasted transcript near the end: every value shown is the exact value.
    let (moves, pos) = transcript_to(BoardSize::Eight, Variant::Normal, 14);
    paste(c, &moves).await;
    wait_for(c, &format!("{ANALYSIS_DONE} && document.querySelector('#board .val.exact') !== null"), 60).await;
    assert_exact_values(c, &pos).await;
    let status = js(c, "document.getElementById('status-text').textContent").await;
    assert!(status.as_str().unwrap().contains("exact"), "{status}");
    shot(c, "04-exact-values").await;

    // 5. A midgame position: estimates with their depth, streamed.
    paste(c, &GAME[..40]).await;
    wait_for(c, &format!("{ANALYSIS_DONE} && document.querySelector('#board .val.est') !== null"), 60).await;
    let status = js(c, "document.getElementById('status-text').textContent").await;
    assert!(status.as_str().unwrap().contains("depth"), "{status}");
    shot(c, "05-midgame-values").await;

    // 6. A whole game analysed: losses, mistakes, the graph.
    let (game, _) = transcript_to(BoardSize::Eight, Variant::Normal, 0);
    paste(c, &game).await;
    wait_for(c, ANALYSIS_DONE, 60).await;
    c.execute("document.getElementById('review-level').value = '4'", vec![]).await.unwrap();
    c.find(Locator::Id("analyze-game")).await.unwrap().click().await.unwrap();
    wait_for(c, "document.getElementById('graph-panel').dataset.review === 'done'", 90).await;
    let points = js(c, "parseInt(document.getElementById('graph').dataset.points, 10)").await;
    assert!(points.as_i64().unwrap() > 40, "graph points {points}");
    let mistakes = js(c, "document.querySelectorAll('#mistakes li').length").await;
    assert!(mistakes.as_i64().unwrap() > 0, "a game of first legal moves has mistakes");
    c.execute("document.getElementById('graph-panel').scrollIntoView()", vec![]).await.unwrap();
    shot(c, "06-game-analysis").await;

    // 7. 6x6 under reversed rules: values exact again.
    c.execute("window.scrollTo(0, 0)", vec![]).await.unwrap();
    c.execute("document.getElementById('show-values').checked = false", vec![]).await.unwrap();
    select(c, "size", "6").await;
    wait_for(c, "document.querySelectorAll('#board .sq').length === 36", 10).await;
    select(c, "variant", "reversed").await;
    let (moves6, pos6) = transcript_to(BoardSize::Six, Variant::Reversed, 14);
    paste(c, &moves6).await;
    wait_for(c, &format!("document.getElementById('movelist').children.length === {}", pos6_plies(&moves6)), 10).await;
    c.execute(
        "const v = document.getElementById('show-values'); v.checked = true; v.dispatchEvent(new Event('change'));",
        vec![],
    )
    .await
    .unwrap();
    wait_for(c, &format!("{ANALYSIS_DONE} && document.querySelector('#board .val') !== null"), 60).await;
    assert_exact_values(c, &pos6).await;
    shot(c, "07-6x6-reversed").await;

    // 7b. The 6x6 start without a store (minutes to solve): every move gets a Monte
    // Carlo estimate within a second, shown as not exact, while the exact solve goes on.
    c.find(Locator::Id("new")).await.unwrap().click().await.unwrap();
    wait_for(c, "document.querySelectorAll('#board .val.est').length === 4", 10).await;
    let status = js(c, "document.getElementById('status-text').textContent").await;
    assert!(status.as_str().unwrap().contains("not exact yet"), "{status}");
    shot(c, "07b-6x6-start").await;

    // 8. An error message.
    paste(c, "hello world").await;
    wait_for(c, "!document.getElementById('error').hidden", 10).await;
    let msg = js(c, "document.getElementById('error-text').textContent").await;
    assert!(msg.as_str().unwrap().contains("board string"), "{msg}");
    shot(c, "08-error").await;

    // 9. A phone-sized screen.
    c.set_window_size(390, 844).await.unwrap();
    c.find(Locator::Id("error-close")).await.unwrap().click().await.unwrap();
    shot(c, "09-phone").await;
}

/// Entries of the move list for a transcript (the start, then one per ply; a pass
/// written out or implied counts).
fn pos6_plies(moves: &str) -> usize {
    let start = solvo_othello::Position::start(BoardSize::Six, Variant::Reversed);
    1 + solvo_othello::formats::transcript::parse_transcript(moves, &start).unwrap().plies.len()
}
