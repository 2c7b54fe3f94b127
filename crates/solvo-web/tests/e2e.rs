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
use solvo_othello::{BoardSize, Square, Variant};
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
            // Either page: the Othello board's status line, the other games' board state.
            let status = js(
                c,
                "(document.getElementById('status-text') || {}).textContent || (document.getElementById('sg-board') || {dataset: {}}).dataset.state",
            )
            .await;
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

/// The moves of a line as the page shows it (`Best line +2: f5 d6 c3`), after the colon.
fn line_moves(text: &str) -> Vec<String> {
    let (_, moves) = text.rsplit_once(": ").unwrap_or_else(|| panic!("no line in {text:?}"));
    moves.split_whitespace().map(str::to_string).collect()
}

/// Checks `line` is legal from `pos` and starts with `first`.
fn assert_legal_line(pos: &solvo_othello::Position, line: &[String], first: &str) {
    assert_eq!(line.first().map(String::as_str), Some(first), "{line:?}");
    solvo_othello::formats::transcript::parse_transcript(&line.join(""), pos)
        .unwrap_or_else(|e| panic!("the line {line:?} is not legal: {e}"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lines_links_coordinates_graph_and_ties_as_an_othello_player_would_have_them() {
    let addr = start(config(4, Duration::from_secs(60)));
    let browser = browser::open().await;
    let c = &browser.client;
    let base = format!("http://{addr}/");
    let start8 = solvo_othello::Position::start(BoardSize::Eight, Variant::Normal);
    let cur = "(document.querySelector('#movelist li.cur') || {dataset: {}}).dataset.ply";

    // 1. A game from a link, shown at the ply the link names.
    c.goto(&format!("{base}?game=f5d6c3d3c4&ply=3")).await.unwrap();
    wait_for(
        c,
        &format!("document.querySelectorAll('#movelist li').length === 6 && {cur} === '3' && {ANALYSIS_DONE}"),
        30,
    )
    .await;
    let at3 = solvo_othello::formats::transcript::parse_transcript("f5d6c3", &start8).unwrap().end();
    let cells = js(c, "Array.from(document.querySelectorAll('#board .sq')).map(d => d.querySelector('.disc.X') ? 'X' : d.querySelector('.disc.O') ? 'O' : '-').join('')").await;
    assert_eq!(cells.as_str().unwrap(), solvo_othello::formats::board_string::board_chars(&at3));

    // 2. The best move's line under the board; a hovered move's own line, numbered on
    // the board's empty squares.
    let best = js(c, "document.querySelector('#board .sq.best').dataset.sq").await;
    let text = js(c, "document.getElementById('pv').textContent").await;
    let line = line_moves(text.as_str().unwrap());
    assert_legal_line(&at3, &line, best.as_str().unwrap());
    assert!(line.len() >= 3, "a level-10 search sees several moves ahead: {text}");
    let other = js(c, "(document.querySelector('#board .sq.valued:not(.best)') || document.querySelector('#board .sq.valued')).dataset.sq").await;
    let other = other.as_str().unwrap().to_string();
    c.execute(
        "document.querySelector(`#board [data-sq='${arguments[0]}']`).dispatchEvent(new MouseEvent('mouseover', {bubbles: true}))",
        vec![json!(other)],
    )
    .await
    .unwrap();
    wait_for(c, &format!("document.getElementById('pv').dataset.move === '{other}'"), 5).await;
    let text = js(c, "document.getElementById('pv').textContent").await;
    let line = line_moves(text.as_str().unwrap());
    assert_legal_line(&at3, &line, &other);
    assert!(text.as_str().unwrap().starts_with(&format!("Line of {other}")), "{text}");
    let steps = js(
        c,
        "Array.from(document.querySelectorAll('#board .pvstep')).map(s => [s.parentElement.dataset.sq, s.textContent])",
    )
    .await;
    for step in steps.as_array().unwrap() {
        let (sq, n) = (step[0].as_str().unwrap(), step[1].as_str().unwrap().parse::<usize>().unwrap());
        assert_eq!(line.get(n - 1).map(String::as_str), Some(sq), "step {n} on {sq}, line {line:?}");
    }
    assert!(line.len() < 2 || !steps.as_array().unwrap().is_empty(), "no step drawn for {line:?}");
    shot(c, "10-line-hovered").await;
    c.execute("document.getElementById('board').dispatchEvent(new MouseEvent('mouseleave'))", vec![]).await.unwrap();

    // 3. Coordinates outside the board, each beside its column or row; none on a square.
    let coords = js(
        c,
        "(() => { const b = document.getElementById('board').getBoundingClientRect();
           const sq = (n) => document.querySelector(`#board [data-sq='${n}']`).getBoundingClientRect();
           const files = Array.from(document.querySelectorAll('#coords-files .coord'));
           const ranks = Array.from(document.querySelectorAll('#coords-ranks .coord'));
           const mid = (r) => [(r.left + r.right) / 2, (r.top + r.bottom) / 2];
           return {
             inside: document.querySelectorAll('#board .coord').length,
             files: files.map(f => f.textContent).join(''), ranks: ranks.map(r => r.textContent).join(''),
             fileOff: Math.max(...files.map(f => Math.abs(mid(f.getBoundingClientRect())[0] - mid(sq(f.textContent + '1'))[0]))),
             rankOff: Math.max(...ranks.map(r => Math.abs(mid(r.getBoundingClientRect())[1] - mid(sq('a' + r.textContent))[1]))),
             above: files.every(f => f.getBoundingClientRect().bottom <= b.top + 0.5),
             beside: ranks.every(r => r.getBoundingClientRect().right <= b.left + 0.5),
           }; })()",
    )
    .await;
    assert_eq!(coords["inside"], 0, "{coords}");
    assert_eq!((coords["files"].as_str(), coords["ranks"].as_str()), (Some("abcdefgh"), Some("12345678")), "{coords}");
    assert!(coords["above"] == true && coords["beside"] == true, "{coords}");
    assert!(coords["fileOff"].as_f64().unwrap() < 3.0 && coords["rankOff"].as_f64().unwrap() < 3.0, "{coords}");

    // 4. The address follows the position; the copied link opens the same game there.
    c.execute("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowLeft'}))", vec![]).await.unwrap();
    wait_for(c, &format!("{cur} === '2' && location.search.includes('ply=2')"), 10).await;
    c.find(Locator::Id("copy-link")).await.unwrap().click().await.unwrap();
    let link = js(c, "document.getElementById('link').value").await;
    let link = link.as_str().unwrap().to_string();
    assert!(link.starts_with(&base) && link.contains("game=f5d6c3d3c4") && link.contains("ply=2"), "{link}");
    c.goto(&link).await.unwrap();
    wait_for(c, &format!("document.querySelectorAll('#movelist li').length === 6 && {cur} === '2'"), 10).await;

    // 5. A 6x6 position from a link: its board string and size.
    let six = solvo_othello::Position::start(BoardSize::Six, Variant::Normal);
    let six = six.play(Square::iter(six.moves()).next().unwrap()).unwrap();
    let board = solvo_othello::formats::board_string::format_position(&six);
    c.goto(&format!("{base}?board={}&size=6", board.replace(' ', "%20"))).await.unwrap();
    wait_for(c, "document.querySelectorAll('#board .sq').length === 36 && document.getElementById('turn').textContent.includes('White')", 10).await;
    let cells = js(c, "Array.from(document.querySelectorAll('#board .sq')).map(d => d.querySelector('.disc.X') ? 'X' : d.querySelector('.disc.O') ? 'O' : '-').join('')").await;
    assert_eq!(cells.as_str().unwrap(), solvo_othello::formats::board_string::board_chars(&six));
    let files =
        js(c, "Array.from(document.querySelectorAll('#coords-files .coord')).map(f => f.textContent).join('')").await;
    assert_eq!(files, "bcdefg");

    // 6. A link with an illegal move says what is wrong with it.
    c.goto(&format!("{base}?game=f5f5")).await.unwrap();
    wait_for(c, "!document.getElementById('error').hidden", 10).await;
    let msg = js(c, "document.getElementById('error-text').textContent").await;
    assert!(msg.as_str().unwrap().starts_with("link: moves") && msg.as_str().unwrap().contains("f5"), "{msg}");
    shot(c, "11-bad-link").await;

    // 7. The evaluation graph scaled to the game's values; a click on it jumps to the
    // move under the pointer.
    let (game, _) = transcript_to(BoardSize::Eight, Variant::Normal, 14);
    c.goto(&format!("{base}?game={game}&ply=0")).await.unwrap();
    wait_for(c, &format!("{cur} === '0'"), 10).await;
    c.execute("document.getElementById('review-level').value = '4'", vec![]).await.unwrap();
    c.find(Locator::Id("analyze-game")).await.unwrap().click().await.unwrap();
    wait_for(c, "document.getElementById('graph-panel').dataset.review === 'done'", 90).await;
    let most = js(c, "Math.max(...Object.values(S.evals).map(Math.abs))").await.as_f64().unwrap();
    let scale = js(c, "parseFloat(document.getElementById('graph').dataset.scale)").await.as_f64().unwrap();
    assert!(scale >= most && (scale == 4.0 || scale / 2.0 < most), "scale {scale} for values up to {most}");
    c.execute(
        "const g = document.getElementById('graph'), r = g.getBoundingClientRect();
         const x = r.left + graphX(10, S.game.plies.length) / G.W * r.width;
         g.dispatchEvent(new MouseEvent('click', {bubbles: true, clientX: x, clientY: r.top + r.height / 2}));",
        vec![],
    )
    .await
    .unwrap();
    wait_for(c, &format!("{cur} === '10'"), 10).await;
    c.execute("document.getElementById('graph-panel').scrollIntoView()", vec![]).await.unwrap();
    shot(c, "12-graph-scaled").await;

    // 8. The 6x6 start without a store: four symmetric moves whose Monte Carlo estimates
    // differ by chance alone are all marked best, and the status says they are tied.
    c.goto(&format!("{base}?size=6")).await.unwrap();
    wait_for(c, "document.querySelectorAll('#board .val.est').length === 4 && document.querySelectorAll('#board .sq.best').length === 4", 10).await;
    let status = js(c, "document.getElementById('status-text').textContent").await;
    assert!(status.as_str().unwrap().starts_with("Tied: "), "{status}");
    shot(c, "13-6x6-ties").await;
}

/// The other games' page: Domineering 4x4 from the start with every move valued as
/// negamax values it, a click and the perfect player's answer, undo, another game
/// (Nogo 3x3), and a bad size named in the error line.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_other_games_page_plays_against_the_perfect_player() {
    use solvo_core::Game;
    use solvo_games::{Domineering, DomineeringOptions};
    let addr = start(config(2, Duration::from_secs(60)));
    let browser = browser::open().await;
    let c = &browser.client;
    c.goto(&format!("http://{addr}/games")).await.unwrap();
    let ready = |plies: usize| {
        format!("document.getElementById('sg-board').dataset.state === 'ready' && document.getElementById('sg-board').dataset.plies === '{plies}'")
    };
    wait_for(c, &ready(0), 30).await;
    shot(c, "20-games-start").await;

    // Every move shown with negamax's value of the child.
    let dom = Domineering::new(4, 4, DomineeringOptions::default()).unwrap();
    let mut legal = Vec::new();
    dom.generate_moves(&mut legal);
    let shown = js(
        c,
        "[...document.querySelectorAll('#sg-moves button')].map(b => [b.dataset.move, parseInt(b.dataset.value, 10)])",
    )
    .await;
    let expected: Vec<serde_json::Value> =
        legal.iter().map(|&m| json!([format!("{m:?}"), -solvo_search::negamax(&dom.play(m))])).collect();
    assert_eq!(shown.as_array().unwrap(), &expected);

    // A click on a best move: the perfect player answers at once.
    let before = js(c, "document.getElementById('sg-board').textContent").await;
    c.find(Locator::Css("#sg-moves button.best")).await.unwrap().click().await.unwrap();
    wait_for(c, &ready(2), 30).await;
    let after = js(c, "document.getElementById('sg-board').textContent").await;
    assert_ne!(before, after);
    assert_eq!(js(c, "document.getElementById('sg-history').textContent.split(' ').length").await, 2);
    shot(c, "21-games-answered").await;

    // Undo goes back to the human's turn before the last move.
    c.find(Locator::Id("sg-undo")).await.unwrap().click().await.unwrap();
    wait_for(c, &ready(0), 30).await;

    // Another game, then a bad size.
    select(c, "sg-game", "nogo").await;
    c.execute("document.getElementById('sg-size').value = '3x3'; document.getElementById('sg-new').click();", vec![])
        .await
        .unwrap();
    wait_for(c, &format!("{} && document.getElementById('sg-moves').children.length === 9", ready(0)), 30).await;
    c.execute("document.getElementById('sg-size').value = '3y3'; document.getElementById('sg-new').click();", vec![])
        .await
        .unwrap();
    wait_for(c, "document.getElementById('sg-board').dataset.state === 'error'", 30).await;
    let error = js(c, "document.getElementById('error-text').textContent").await;
    assert!(error.as_str().unwrap().contains("'3y3'"), "{error}");
    shot(c, "22-games-error").await;
}
