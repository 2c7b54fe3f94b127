//! The JSON API over HTTP: values equal the endgame solver's exact values, games and
//! formats round-trip, malformed requests get 4xx JSON errors naming the problem, and
//! the limits hold (body size, the cap on concurrent searches with 503 past it, the
//! time budget, a search stopped when its client goes away).

mod common;

use common::*;
use serde_json::json;
use solvo_othello::{BoardSize, Variant};
use solvo_web::ServerConfig;
use std::time::{Duration, Instant};

fn values_of(done: &serde_json::Value) -> Vec<(String, i32)> {
    let mut v: Vec<(String, i32)> = done["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            assert_eq!(m["exact"], true, "{m}");
            (m["move"].as_str().unwrap().to_string(), m["score"].as_f64().unwrap() as i32)
        })
        .collect();
    v.sort();
    v
}

#[test]
fn analysis_values_equal_the_exact_solver_on_every_size() {
    let addr = start(config(2, Duration::from_secs(60)));
    for (size, variant, empties) in [
        (BoardSize::Eight, Variant::Normal, 14),
        (BoardSize::Eight, Variant::Reversed, 12),
        (BoardSize::Six, Variant::Reversed, 12),
        (BoardSize::Four, Variant::Normal, 10),
    ] {
        let (moves, pos) = transcript_to(size, variant, empties);
        let body = json!({"game": {"size": size.side(), "variant": variant.name(), "moves": moves}});
        let a = request(addr, "POST", "/api/analyze", &body.to_string());
        assert_eq!(a.status, 200, "{}", a.body);
        assert!(a.content_type.starts_with("text/event-stream"), "{}", a.content_type);
        let done = a.events("done");
        assert_eq!(done.len(), 1, "{}", a.body);
        let mut expected = exact_values(&pos);
        expected.sort();
        assert_eq!(values_of(&done[0]), expected, "{size} {variant:?} {moves}");
        assert_eq!(done[0]["all_exact"], true);
        assert_eq!(done[0]["empties"], pos.empties());
        // Values stream before the end on 8x8: midgame estimates first.
        if size == BoardSize::Eight {
            assert!(a.events("values").iter().any(|t| t["all_exact"] == false), "no midgame estimates streamed");
        }
    }
}

#[test]
fn games_moves_parsing_and_exports() {
    let addr = start(config(1, Duration::from_secs(10)));
    let g = request(addr, "POST", "/api/move", r#"{"game":{"moves":"f5d6"},"move":"c3"}"#).json();
    assert_eq!(g["transcript"], "f5d6c3");
    assert_eq!(g["positions"].as_array().unwrap().len(), 4);
    assert_eq!(g["positions"][3]["side"], "white");
    assert!(g["ggf"].as_str().unwrap().contains("B[f5]W[d6]B[c3]"));
    // Pasted text of every kind.
    let p = request(addr, "POST", "/api/parse", r#"{"text":"f5d6c3d3"}"#).json();
    assert_eq!((p["kind"].as_str(), p["plies"].as_array().unwrap().len()), (Some("transcript"), 4));
    let board = "---------------------------OX------XO--------------------------- X";
    let p = request(addr, "POST", "/api/parse", &json!({ "text": board }).to_string()).json();
    assert_eq!((p["kind"].as_str(), p["start"].as_str()), (Some("board"), Some(board)));
    let p = request(addr, "POST", "/api/parse", &json!({ "text": format!("{board};") }).to_string()).json();
    assert_eq!(p["kind"], "obf");
    let ggf = g["ggf"].as_str().unwrap();
    let p = request(addr, "POST", "/api/parse", &json!({ "text": ggf }).to_string()).json();
    assert_eq!((p["kind"].as_str(), p["transcript"].as_str()), (Some("ggf"), Some("f5d6c3")));
    let p = request(addr, "POST", "/api/parse", r#"{"text":"start","size":6,"variant":"reversed"}"#).json();
    assert_eq!((p["size"].as_u64(), p["variant"].as_str()), (Some(6), Some("reversed")));
    assert_eq!(p["positions"][0]["cells"].as_str().unwrap().len(), 36);
    // A game from a set-up start, with a pass written out.
    let g = request(addr, "POST", "/api/game", &json!({"game": {"start": board, "moves": "f5"}}).to_string()).json();
    assert_eq!(g["plies"], json!(["f5"]));
    // The engine's move is legal.
    let m = request(addr, "POST", "/api/engine-move", r#"{"game":{"moves":"f5"},"level":4}"#).json();
    assert!(["d6", "f6", "f4"].contains(&m["move"].as_str().unwrap()), "{m}");
    // The page and its files.
    let page = request(addr, "GET", "/", "");
    assert!(page.status == 200 && page.body.contains("<title>solvo</title>"));
    assert!(request(addr, "GET", "/app.js", "").body.contains("analyze"));
    assert_eq!(request(addr, "GET", "/api/info", "").json()["max_searches"], 1);
}

#[test]
fn malformed_requests_get_json_errors_naming_the_problem() {
    let addr = start(config(1, Duration::from_secs(10)));
    let cases: [(&str, &str, &str, u16, &str); 16] = [
        ("POST", "/api/move", "{", 400, "EOF"),
        ("POST", "/api/move", r#"{"game":{},"mve":"c4"}"#, 400, "unknown field `mve`"),
        ("POST", "/api/move", r#"{"game":{"moves":"f5"}}"#, 400, "missing field `move`"),
        ("POST", "/api/move", r#"{"game":{"moves":"f5"},"move":"a1"}"#, 422, "illegal move a1"),
        ("POST", "/api/move", r#"{"game":{"moves":"f5"},"move":"z9"}"#, 422, "expected a square"),
        ("POST", "/api/game", r#"{"game":{"moves":"f5f5"}}"#, 422, "moves:"),
        ("POST", "/api/game", r#"{"game":{"size":5}}"#, 422, "size 5"),
        ("POST", "/api/game", r#"{"game":{"variant":"misere-ish"}}"#, 422, "variant"),
        ("POST", "/api/game", r#"{"game":{"start":"XO"}}"#, 422, "start:"),
        ("POST", "/api/parse", r#"{"text":"hello"}"#, 422, "board string"),
        ("POST", "/api/analyze", r#"{"game":{},"level":61}"#, 422, "level 61"),
        ("POST", "/api/analyze", r#"{"game":{},"time_ms":0}"#, 422, "time_ms 0"),
        ("POST", "/api/analyze", r#"{"game":{},"nodes":0}"#, 422, "nodes 0"),
        ("POST", "/api/analyze", r#"{"game":{},"nodes":-5}"#, 400, "integer `-5`"),
        ("GET", "/api/nothing", "", 404, "no such resource"),
        ("GET", "/api/move", "", 405, "not allowed"),
    ];
    for (method, path, body, status, needle) in cases {
        let a = request(addr, method, path, body);
        assert_eq!(a.status, status, "{method} {path} {body}: {}", a.body);
        let e = a.json();
        let msg = e["error"].as_str().unwrap_or_else(|| panic!("no error field: {}", a.body));
        assert!(msg.contains(needle), "{method} {path} {body}: {msg:?} lacks {needle:?}");
    }
    // Too large a body: 413, still JSON.
    let big = format!(r#"{{"text":"{}"}}"#, "f5".repeat(20_000));
    let a = request(addr, "POST", "/api/parse", &big);
    assert_eq!(a.status, 413, "{}", a.body);
    assert!(a.json()["error"].as_str().unwrap().contains("request body"));
    // Junk bytes never kill the server.
    let a = request(addr, "POST", "/api/parse", "\u{0}\u{1}garbage");
    assert_eq!(a.status, 400);
    assert_eq!(request(addr, "GET", "/api/info", "").status, 200);
}

#[test]
fn the_cap_answers_503_and_a_search_stops_when_its_client_goes_away() {
    let addr = start(config(2, Duration::from_secs(30)));
    // Two long searches (the start position at level 40) fill both slots.
    let long = r#"{"game":{},"level":40,"time_ms":30000}"#;
    let mut held: Vec<_> = (0..2).map(|_| send(addr, "POST", "/api/analyze", long)).collect();
    for s in &mut held {
        assert_eq!(read_head(s), 200);
    }
    let a = request(addr, "POST", "/api/analyze", long);
    assert_eq!(a.status, 503, "{}", a.body);
    assert!(a.json()["error"].as_str().unwrap().contains("busy"));
    assert_eq!(request(addr, "GET", "/api/info", "").json()["running_searches"], 2);
    // The clients go away: their searches stop and the slots free up within seconds.
    drop(held);
    let t = Instant::now();
    loop {
        let running = request(addr, "GET", "/api/info", "").json()["running_searches"].as_u64().unwrap();
        if running == 0 {
            break;
        }
        assert!(
            t.elapsed() < Duration::from_secs(10),
            "searches still running {:?} after their clients left",
            t.elapsed()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    // The time budget: a short one ends the search with what it has.
    let t = Instant::now();
    let a = request(addr, "POST", "/api/analyze", r#"{"game":{},"level":40,"time_ms":300}"#);
    let done = &a.events("done")[0];
    assert!(done["stopped"] == true && t.elapsed() < Duration::from_secs(5), "{done}");
    assert_eq!(done["moves"].as_array().unwrap().len(), 4);
}

#[test]
fn a_node_budget_ends_every_kind_of_search_and_the_server_caps_it() {
    let max = 300_000u64;
    let addr = start(ServerConfig { max_nodes: Some(max), ..config(2, Duration::from_secs(60)) });
    assert_eq!(request(addr, "GET", "/api/info", "").json()["max_nodes"], max);
    // The start at level 25 (a midgame search of minutes): the server's budget stops
    // it, and a request asking for more gets no more; one asking for less gets less.
    let mut searched = Vec::new();
    for asked in [None, Some(1_000_000_000_000u64), Some(20_000)] {
        let mut body = json!({"game": {}, "level": 25});
        if let Some(n) = asked {
            body["nodes"] = json!(n);
        }
        let t = Instant::now();
        let done = request(addr, "POST", "/api/analyze", &body.to_string()).events("done")[0].clone();
        assert!(done["stopped"] == true && t.elapsed() < Duration::from_secs(10), "{asked:?} {done}");
        assert_eq!(done["moves"].as_array().unwrap().len(), 4, "{done}");
        searched.push(done["nodes"].as_u64().unwrap());
    }
    assert!(searched[0] <= 2 * max && searched[1] <= 2 * max, "{searched:?}");
    assert!(searched[2] < searched[0], "{searched:?}");
    // The exact phase (24 empties at level 12: exact, seconds of work) stops too, with
    // every move still valued (the midgame estimates, or bounds).
    let (moves, _) = transcript_to(BoardSize::Eight, Variant::Normal, 24);
    let body = json!({"game": {"moves": moves}, "level": 12, "nodes": 3_000_000});
    let done = request(addr, "POST", "/api/analyze", &body.to_string()).events("done")[0].clone();
    assert!(done["stopped"] == true && done["all_exact"] == false, "{done}");
    assert_eq!(done["moves"].as_array().unwrap().len() as u64, done["legal"].as_u64().unwrap());
    // The 6x6 start without a store: a Monte Carlo estimate for every move (depth 0,
    // not exact), then the exact solve, stopped by the budget.
    let body = json!({"game": {"size": 6}, "nodes": 2_000_000});
    let t = Instant::now();
    let done = request(addr, "POST", "/api/analyze", &body.to_string()).events("done")[0].clone();
    assert!(done["stopped"] == true && t.elapsed() < Duration::from_secs(20), "{done}");
    assert_eq!(done["moves"].as_array().unwrap().len(), 4, "{done}");
    assert!(done["moves"].as_array().unwrap().iter().all(|m| m["exact"] == false && m["depth"] == 0), "{done}");
    // The engine's move within the budget: legal, marked stopped.
    let r = request(addr, "POST", "/api/engine-move", r#"{"game":{"moves":"f5"},"level":40,"nodes":50000}"#).json();
    assert!(["d6", "f6", "f4"].contains(&r["move"].as_str().unwrap()) && r["stopped"] == true, "{r}");
}

#[test]
fn a_game_review_lists_each_move_and_its_loss() {
    let addr = start(config(1, Duration::from_secs(60)));
    let (moves, _) = transcript_to(BoardSize::Four, Variant::Normal, 0);
    let body = json!({"game": {"size": 4, "moves": moves}, "level": 4});
    let a = request(addr, "POST", "/api/analyze-game", &body.to_string());
    assert_eq!(a.status, 200, "{}", a.body);
    let done = &a.events("done")[0];
    let plies = done["plies"].as_array().unwrap();
    assert_eq!(plies.len(), a.events("ply").len());
    assert!(plies.iter().all(|p| p["loss"].as_f64().unwrap() >= 0.0 && p["exact"] == true));
    assert!(done["final_black_score"].is_i64());
    let empty = request(addr, "POST", "/api/analyze-game", r#"{"game":{}}"#);
    assert_eq!(empty.status, 422);
}

#[test]
fn wthor_games_are_searched_and_opened() {
    let mut cfg = config(1, Duration::from_secs(10));
    let added = add_wthor(&mut cfg);
    assert!(added > 0);
    let addr = start(cfg);
    let all = request(addr, "GET", "/api/wthor?limit=5", "").json();
    assert_eq!(all["total"].as_u64().unwrap() as usize, added);
    assert_eq!(all["games"].as_array().unwrap().len(), 5.min(added));
    // Search by a player of the first game (case-insensitive substring).
    let first = &all["games"][0];
    let name = first["black"].as_str().unwrap().to_uppercase();
    let found =
        request(addr, "GET", &format!("/api/wthor?player={}&year=1977", name.split_whitespace().next().unwrap()), "");
    let found = found.json();
    assert!(found["games"].as_array().unwrap().iter().any(|g| g["id"] == first["id"]), "{found}");
    assert_eq!(request(addr, "GET", "/api/wthor?year=1900", "").json()["total"], 0);
    // Open it: the game replays to its recorded disc count.
    let g = request(addr, "GET", &format!("/api/wthor/{}", first["id"]), "").json();
    let last = g["game"]["positions"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(g["info"]["transcript"], g["game"]["transcript"]);
    if last["over"] == true {
        let black = last["black"].as_u64().unwrap() as i64;
        let white = last["white"].as_u64().unwrap() as i64;
        let empties = 64 - black - white;
        let discs = if black > white { black + empties } else { black };
        assert_eq!(discs, first["black_discs"].as_i64().unwrap());
    }
    // Its GGF record names the players, the tournament (PC) and the year (DT), and
    // keeps them when the game goes on from a position of it (the page sends the
    // names back with the game).
    let ggf = g["game"]["ggf"].as_str().unwrap();
    for (tag, value) in [("PB", &first["black"]), ("PW", &first["white"]), ("PC", &first["tournament"])] {
        assert!(ggf.contains(&format!("{tag}[{}]", value.as_str().unwrap())), "{tag} in {ggf}");
    }
    assert!(ggf.contains("DT[1977]"), "{ggf}");
    let names = &g["game"]["names"];
    assert_eq!(names["black"], first["black"]);
    let plies = g["game"]["plies"].as_array().unwrap();
    let mut spec = names.clone();
    spec["moves"] = json!(plies[..2].iter().map(|p| p.as_str().unwrap()).collect::<String>());
    let next = g["game"]["positions"][2]["moves"][0].clone();
    let on = request(addr, "POST", "/api/move", &json!({"game": spec, "move": next}).to_string()).json();
    assert_eq!(on["names"], *names);
    let on_ggf = on["ggf"].as_str().unwrap();
    assert!(on_ggf.contains(&format!("PB[{}]", first["black"].as_str().unwrap())), "{on_ggf}");
    // Names are checked like every field, and a game without any keeps black/white.
    let bad = request(addr, "POST", "/api/game", r#"{"game":{"black":"a\u0007b"}}"#);
    assert_eq!(bad.status, 422, "{}", bad.body);
    assert!(bad.json()["error"].as_str().unwrap().starts_with("black:"));
    let plain = request(addr, "POST", "/api/game", r#"{"game":{"moves":"f5"}}"#).json();
    assert!(plain["ggf"].as_str().unwrap().contains("PB[black]PW[white]"), "{plain}");
    assert_eq!(request(addr, "GET", "/api/wthor/999999", "").status, 404);
    assert_eq!(request(addr, "GET", "/api/wthor/x", "").status, 400);
    assert_eq!(request(addr, "GET", "/api/wthor?year=abc", "").status, 400);
}

#[test]
fn a_store_is_shared_by_the_engines() {
    let dir = tempfile::tempdir().unwrap();
    let store = solvo_solve::store::Store::open(&dir.path().join("s4.redb"), BoardSize::Four, Variant::Normal).unwrap();
    let mut cfg = config(2, Duration::from_secs(30));
    cfg.stores.push(store);
    let addr = start(cfg);
    let (moves, pos) = transcript_to(BoardSize::Four, Variant::Normal, 8);
    let body = json!({"game": {"size": 4, "moves": moves}}).to_string();
    // Two at once: two engines, each with a handle on the one store.
    let held: Vec<_> = (0..2).map(|_| send(addr, "POST", "/api/analyze", &body)).collect();
    let mut expected = exact_values(&pos);
    expected.sort();
    for s in held {
        let done = read_answer(s).events("done");
        assert_eq!(values_of(&done[0]), expected);
    }
    let info = request(addr, "GET", "/api/info", "").json();
    assert!(info["stores"][0].as_str().unwrap().ends_with("s4.redb"));
}

/// The line of move `m` of an analysis (`pv`, passes as `pa`) replayed from `pos`.
fn line_end(pos: &solvo_othello::Position, m: &serde_json::Value) -> solvo_othello::Position {
    let line: Vec<&str> = m["pv"].as_array().unwrap().iter().map(|p| p.as_str().unwrap()).collect();
    assert_eq!(line.first().copied(), m["move"].as_str(), "a line starts with its move: {m}");
    solvo_othello::formats::transcript::parse_transcript(&line.join(""), pos)
        .unwrap_or_else(|e| panic!("the line of {m} is not legal: {e}"))
        .end()
}

#[test]
fn every_move_carries_its_line_and_estimates_within_their_error_are_ties() {
    let addr = start(config(1, Duration::from_secs(60)));
    // Exact values: each line is perfect play to the end and scores the move's value;
    // the moves marked best are those of the best value.
    let (moves, pos) = transcript_to(BoardSize::Eight, Variant::Normal, 12);
    let a = request(addr, "POST", "/api/analyze", &json!({"game": {"moves": moves}}).to_string());
    let done = &a.events("done")[0];
    assert_eq!(done["all_exact"], true, "{done}");
    for m in done["moves"].as_array().unwrap() {
        let end = line_end(&pos, m);
        assert!(end.is_game_over(), "the line of {m} stops before the end");
        let score = if end.side == pos.side { end.final_score() } else { -end.final_score() };
        assert_eq!(f64::from(score), m["score"].as_f64().unwrap(), "{m}");
        assert_eq!(m["best"].as_bool(), Some(m["score"] == done["value"]), "{m}");
    }
    let best: Vec<&serde_json::Value> =
        done["moves"].as_array().unwrap().iter().filter(|m| m["best"] == true).collect();
    assert_eq!(done["best_moves"].as_array().unwrap().len(), best.len());
    // Midgame estimates: legal lines, several moves long.
    let (moves, pos) = transcript_to(BoardSize::Eight, Variant::Normal, 40);
    let body = json!({"game": {"moves": moves}, "level": 8});
    let done = &request(addr, "POST", "/api/analyze", &body.to_string()).events("done")[0];
    for m in done["moves"].as_array().unwrap() {
        line_end(&pos, m);
    }
    assert!(done["moves"][0]["pv"].as_array().unwrap().len() >= 4, "{done}");
    // The 6x6 start without a store: four symmetric moves, Monte Carlo estimates with
    // their error, differing by chance alone: all four tied for best.
    let body = json!({"game": {"size": 6}, "time_ms": 1});
    let done = &request(addr, "POST", "/api/analyze", &body.to_string()).events("done")[0];
    let moves = done["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 4, "{done}");
    assert!(moves.iter().all(|m| m["exact"] == false && m["error"].as_f64().is_some_and(|e| e > 0.0)), "{done}");
    assert!(moves.iter().all(|m| m["best"] == true), "{done}");
    assert_eq!(done["best_moves"].as_array().unwrap().len(), 4, "{done}");
}

/// The other games: every move value equals brute-force negamax of the child (Domineering
/// 4x4 after one move, Nogo 3x3), a line of moves is replayed, and bad requests get 422
/// naming what is wrong.
#[test]
fn small_game_values_equal_negamax_and_bad_requests_are_named() {
    use solvo_core::Game;
    use solvo_games::{play_text, Domineering, DomineeringOptions, Nogo, NogoOptions};
    use solvo_search::negamax;
    let addr = start(config(2, Duration::from_secs(60)));
    let list = request(addr, "GET", "/api/small-games", "");
    assert_eq!(list.status, 200);
    let list = list.json();
    let names: Vec<&str> = list["games"].as_array().unwrap().iter().map(|g| g["name"].as_str().unwrap()).collect();
    assert!(names.contains(&"domineering") && names.contains(&"nogo") && names.contains(&"go"), "{names:?}");

    fn check<G: Game + std::fmt::Display>(addr: std::net::SocketAddr, game: &str, size: &str, root: &G, moves: &str) {
        let body = json!({"game": game, "size": size, "moves": moves});
        let a = request(addr, "POST", "/api/small-game", &body.to_string());
        assert_eq!(a.status, 200, "{}", a.body);
        let a = a.json();
        let g = play_text(root, moves).unwrap();
        assert_eq!(a["value"], negamax(&g), "{a}");
        let mut legal = Vec::new();
        g.generate_moves(&mut legal);
        let shown = a["moves"].as_array().unwrap();
        assert_eq!(shown.len(), legal.len());
        for (m, s) in legal.iter().zip(shown) {
            assert_eq!(s["name"], format!("{m:?}"));
            assert_eq!(s["value"], -negamax(&g.play(*m)), "{game} {moves} {m:?}");
        }
        assert_eq!(a["board"], g.to_string());
    }
    let dom = Domineering::new(4, 4, DomineeringOptions::default()).unwrap();
    let first = solvo_games::move_names(&dom)[0].clone();
    check(addr, "domineering", "4x4", &dom, "");
    check(addr, "domineering", "4x4", &dom, &first);
    let nogo = Nogo::new(3, 3, NogoOptions::default()).unwrap();
    check(addr, "nogo", "3x3", &nogo, "");

    for (body, says) in [
        (json!({"game": "chess"}), "unknown game 'chess'"),
        (json!({"game": "nogo", "size": "3y3"}), "cannot read board size '3y3'"),
        (json!({"game": "domineering", "size": "4x4", "moves": "zz9"}), "'zz9'"),
        (json!({"game": "domineering", "options": "colour=red"}), "colour=red"),
        (json!({"game": "domineering", "oops": 1}), "unknown field `oops`"),
    ] {
        let a = request(addr, "POST", "/api/small-game", &body.to_string());
        assert!(a.status == 422 || a.status == 400, "{body}: {} {}", a.status, a.body);
        assert!(a.json()["error"].as_str().unwrap().contains(says), "{body}: {}", a.body);
    }
}

/// The other games from a semi-strong store (Domineering 4x4, built here): with a node
/// budget too small to solve anything, the positions the store holds are still answered,
/// marked as from the store, their values and best moves equal to negamax's and the moves
/// the budget cannot settle left without a value; without the store, or for the same game
/// under other rules, the same request is too hard.
#[test]
fn small_game_positions_are_answered_from_a_game_store() {
    use solvo_core::Game;
    use solvo_games::{play_text, semi_strong_identity, Domineering, DomineeringOptions, GameOptions};
    use solvo_search::negamax;
    use solvo_search::reopening::{semi_strong, SemiConfig, SolverOracle};
    use solvo_solve::game_store::GameStore;
    let dir = tempfile::tempdir().unwrap();
    let root = Domineering::new(4, 4, DomineeringOptions { bounds: false, ..DomineeringOptions::default() }).unwrap();
    let options = GameOptions::parse("bounds=off").unwrap();
    let identity = semi_strong_identity("domineering", 4, 4, &options);
    let mut store = GameStore::open(&dir.path().join("d44.redb"), &identity, root.max_value()).unwrap();
    let mut oracle = SolverOracle::new(16, 1, solvo_search::Budget::UNLIMITED);
    semi_strong(&root, &mut store, &mut oracle, &SemiConfig::default(), &mut |_| {}).unwrap();
    let starved = |game_stores| ServerConfig { max_nodes: Some(1), game_stores, ..config(2, Duration::from_secs(60)) };
    let addr = start(starved(vec![store]));
    let info = request(addr, "GET", "/api/info", "").json();
    assert_eq!(info["game_stores"][0]["game"], identity.as_str(), "{info}");

    let ask = |addr, options: &str, moves: &str| {
        let body = json!({"game": "domineering", "size": "4x4", "options": options, "moves": moves});
        request(addr, "POST", "/api/small-game", &body.to_string())
    };
    let mut line = String::new();
    for _ in 0..3 {
        let a = ask(addr, "bounds=off", &line);
        assert_eq!(a.status, 200, "{line}: {}", a.body);
        let a = a.json();
        let g = play_text(&root, &line).unwrap();
        assert_eq!((a["from_store"].as_bool(), a["value"].as_i64()), (Some(true), Some(negamax(&g) as i64)), "{a}");
        let mut legal = Vec::new();
        g.generate_moves(&mut legal);
        let mut stored = 0;
        for (m, shown) in legal.iter().zip(a["moves"].as_array().unwrap()) {
            if shown["value"].is_null() {
                assert_eq!(shown["from_store"], false, "{shown}");
            } else {
                assert_eq!(shown["value"], -negamax(&g.play(*m)), "{line} {m:?}");
                stored += 1;
            }
        }
        assert!(stored > 0, "{a}");
        let best = a["best"].as_str().unwrap();
        assert_eq!(-negamax(&play_text(&g, best).unwrap()), negamax(&g), "{line}: {best}");
        line = format!("{line} {best}");
    }
    // Other rules (the bounds on): another game, never answered from this store.
    let other = ask(addr, "", "");
    assert!(other.status == 422 || other.json()["from_store"] == false, "{}", other.body);
    let without = start(starved(Vec::new()));
    let a = ask(without, "bounds=off", "");
    assert_eq!(a.status, 422, "{}", a.body);
    assert!(a.json()["error"].as_str().unwrap().contains("too hard"), "{}", a.body);
}
