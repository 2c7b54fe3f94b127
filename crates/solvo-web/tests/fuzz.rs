//! The JSON API under bounded mutation fuzzing (see `solvo_core::fuzz`): requests
//! (method, path and query, body) are sent to the router in process, first the
//! committed corpus (`tests/fuzz-corpus/web-api/`: malformed bodies, odd paths, bodies
//! of every route), then mutations of it. An input is `METHOD PATH` on its first line
//! and the body after it. Properties: every answer arrives (no hang), its status is
//! never a server error (5xx; the server is asked one request at a time, so it is
//! never busy), an error is JSON `{"error": ...}`, a JSON answer parses, and a stream
//! never ends in an internal error.

use axum::body::Body;
use axum::http::Request;
use solvo_core::fuzz::{corpus_dir, Fuzz};
use solvo_engine::{EngineSettings, Level};
use solvo_othello::formats::wthor::{WthorFile, WthorGame, WthorHeader};
use solvo_othello::Square;
use solvo_web::wthor::WthorLibrary;
use solvo_web::ServerConfig;
use std::time::Duration;
use tower::ServiceExt;

/// A library of one game, so that the WTHOR routes have something to find.
fn library() -> WthorLibrary {
    let moves = ["f5", "d6", "c3", "d3", "c4"].iter().map(|s| Square::parse(s).unwrap()).collect();
    let game = WthorGame {
        tournament: 0,
        black_player: 0,
        white_player: 1,
        black_discs: 33,
        theoretical_black_discs: 33,
        moves,
    };
    let header =
        WthorHeader { created: (2025, 1, 1), games: 1, records: 0, year: 2025, board_size: 8, kind: 0, depth: 22 };
    let mut lib = WthorLibrary::default();
    lib.add(
        "fuzz.wtb",
        &WthorFile { header, games: vec![game], damaged: Vec::new() },
        &["Ann".into()],
        &["Cup".into()],
    );
    lib
}

fn config() -> ServerConfig {
    ServerConfig {
        engine: EngineSettings { level: Level::new(2).unwrap(), hash_mb: 8, ..EngineSettings::default() },
        stores: Vec::new(),
        game_stores: Vec::new(),
        wthor: library(),
        max_searches: 1,
        max_time: Duration::from_millis(250),
        max_nodes: Some(200_000),
        body_limit: 16 * 1024,
    }
}

/// The method, path and body of an input.
fn request_of(input: &[u8]) -> Option<Request<Body>> {
    let split = input.iter().position(|&b| b == b'\n').unwrap_or(input.len());
    let head = String::from_utf8_lossy(&input[..split]);
    let body = input.get(split + 1..).unwrap_or(&[]).to_vec();
    let (method, path) = head.trim().split_once(' ').unwrap_or(("POST", head.trim()));
    Request::builder()
        .method(method)
        .uri(path.trim())
        .header("content-type", "application/json")
        .body(Body::from(body))
        .ok()
}

#[test]
fn api_requests_never_get_a_server_error() {
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let router = solvo_web::router(config());
    let tokens: [&[u8]; 22] = [
        b"{",
        b"}",
        b"\"",
        b":",
        b",",
        b"null",
        b"true",
        b"-1",
        b"1e999",
        b"18446744073709551616",
        b"\"game\":",
        b"\"moves\":\"f5d6\"",
        b"\"start\":",
        b"\"size\":6",
        b"\"variant\":\"reversed\"",
        b"\"level\":60",
        b"\"time_ms\":1",
        b"\"nodes\":1",
        b"\"move\":\"pa\"",
        b"\\u0000",
        b"\xff",
        b"?player=a&year=",
    ];
    Fuzz::new("web-api")
        .corpus(&corpus_dir(env!("CARGO_MANIFEST_DIR"), "web-api"), |_, b| b)
        .dictionary(&tokens)
        .max_len(20_000)
        .budget_scaled(0.5)
        .run(|input| {
            let Some(req) = request_of(input) else { return "not a request".into() };
            let (status, content_type, body) = rt.block_on(async {
                let answer = router.clone().oneshot(req).await.expect("the router answers");
                let status = answer.status();
                let content_type =
                    answer.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or_default().to_string();
                let body = axum::body::to_bytes(answer.into_body(), usize::MAX).await.expect("the body is read");
                (status, content_type, body)
            });
            let text = String::from_utf8_lossy(&body);
            let shown: String = text.chars().take(500).collect();
            assert!(!status.is_server_error(), "status {status}: {shown}");
            if content_type.starts_with("application/json") {
                let v: serde_json::Value =
                    serde_json::from_slice(&body).unwrap_or_else(|e| panic!("not JSON ({e}): {shown}"));
                if !status.is_success() {
                    assert!(v["error"].is_string(), "an error without its message: {shown}");
                    return format!("{status} {}", v["error"].as_str().unwrap_or(""));
                }
            } else if content_type.starts_with("text/event-stream") {
                assert!(!text.contains("internal error"), "{shown}");
                assert!(
                    text.contains("event: done") || text.contains("event: error"),
                    "a stream without its end: {shown}"
                );
            } else {
                assert!(status.is_success(), "status {status} without a JSON error: {content_type} {shown}");
            }
            if status.is_success() {
                "ok".into()
            } else {
                status.to_string()
            }
        });
}
