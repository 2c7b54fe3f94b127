//! What the API and browser tests share: a server on a free port of 127.0.0.1 (in a
//! thread of its own), a small blocking HTTP client, positions and their exact values
//! from the endgame solver (independent of the engine the server calls).

#![allow(dead_code)]

pub mod browser;

use solvo_engine::{EngineSettings, Level};
use solvo_othello::formats::transcript::{format_transcript, parse_transcript, PassStyle, Replay};
use solvo_othello::{BoardSize, Position, Square, Variant};
use solvo_othello_search::{solve, SolveOptions};
use solvo_web::wthor::WthorLibrary;
use solvo_web::ServerConfig;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

/// A configuration for tests: level 10, 8 MiB tables, `max_searches` slots, `max_time`.
pub fn config(max_searches: usize, max_time: Duration) -> ServerConfig {
    ServerConfig {
        engine: EngineSettings { level: Level::new(10).unwrap(), hash_mb: 8, ..EngineSettings::default() },
        stores: Vec::new(),
        game_stores: Vec::new(),
        wthor: WthorLibrary::default(),
        max_searches,
        max_time,
        max_nodes: None,
        body_limit: 16 * 1024,
    }
}

/// Starts the server in a thread; its address.
pub fn start(config: ServerConfig) -> SocketAddr {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
        rt.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(listener.local_addr().unwrap()).unwrap();
            solvo_web::serve(listener, config).await.unwrap();
        });
    });
    rx.recv().unwrap()
}

/// An HTTP answer: status and body.
pub struct Answer {
    pub status: u16,
    pub content_type: String,
    pub body: String,
}

impl Answer {
    /// The body as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }

    /// The data of every server-sent event named `name`.
    pub fn events(&self, name: &str) -> Vec<serde_json::Value> {
        self.body
            .split("\n\n")
            .filter(|block| block.lines().any(|l| l == format!("event: {name}") || l == format!("event:{name}")))
            .filter_map(|block| block.lines().find_map(|l| l.strip_prefix("data:")))
            .map(|d| serde_json::from_str(d.trim()).unwrap())
            .collect()
    }
}

/// Sends a request and reads the whole answer (the connection is closed after it).
pub fn request(addr: SocketAddr, method: &str, path: &str, body: &str) -> Answer {
    read_answer(send(addr, method, path, body))
}

/// Reads the whole answer on an open connection.
pub fn read_answer(mut s: TcpStream) -> Answer {
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).unwrap();
    parse(&raw)
}

/// Sends a request and returns the open connection (to read from, or to drop).
pub fn send(addr: SocketAddr, method: &str, path: &str, body: &str) -> TcpStream {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).unwrap();
    s.write_all(body.as_bytes()).unwrap();
    s
}

/// Reads the status line and headers of an open answer (what has arrived).
pub fn read_head(s: &mut TcpStream) -> u16 {
    let mut buf = [0u8; 1024];
    let n = s.read(&mut buf).unwrap();
    let text = String::from_utf8_lossy(&buf[..n]);
    text.split_whitespace().nth(1).unwrap().parse().unwrap()
}

fn parse(raw: &[u8]) -> Answer {
    let text = String::from_utf8_lossy(raw).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    let content_type = head
        .lines()
        .find_map(|l| l.to_ascii_lowercase().strip_prefix("content-type:").map(|v| v.trim().to_string()))
        .unwrap_or_default();
    let chunked = head.to_ascii_lowercase().contains("transfer-encoding: chunked");
    let body = if chunked { dechunk(body) } else { body.to_string() };
    Answer { status, content_type, body }
}

fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        body = rest[n..].strip_prefix("\r\n").unwrap_or(&rest[n..]);
    }
    out
}

/// The game used near its end: a WTHOR-style game, 23 empties after these moves.
pub const GAME: &str = "f5d6c3d3c4f4f6f3e6e7d7c5b6d8c6c7d2b5a5a6a7g5e3b4c8g6g4c2e8d1f7e2g3h4f1e1f2g1b1f8";

/// A transcript reaching a position of `empties` empties on `size` under `variant`:
/// the 8x8 game above, then (or on small boards from the start) the first legal move.
pub fn transcript_to(size: BoardSize, variant: Variant, empties: u32) -> (String, Position) {
    let start = Position::start(size, variant);
    let mut replay =
        if size == BoardSize::Eight { parse_transcript(GAME, &start).unwrap() } else { Replay::new(start) };
    while replay.end().empties() > empties && !replay.end().is_game_over() {
        let pos = replay.end();
        match Square::iter(pos.moves()).next() {
            Some(m) => replay.push_move(m).unwrap(),
            None => replay.push_pass().unwrap(),
        }
    }
    (format_transcript(&replay.plies, PassStyle::Implicit), replay.end())
}

/// The exact value of every legal move of `pos`, by the endgame solver.
pub fn exact_values(pos: &Position) -> Vec<(String, i32)> {
    let options = SolveOptions::new(16);
    Square::iter(pos.moves())
        .map(|sq| {
            let child = pos.play(sq).unwrap();
            (sq.to_string(), -solve(&child, &options).score().unwrap())
        })
        .collect()
}

/// Adds the games of WTHOR 1977 (from `../shared/data/wthor/`, with their names) to
/// `cfg`; how many.
pub fn add_wthor(cfg: &mut ServerConfig) -> usize {
    use solvo_othello::formats::wthor::{parse_names, parse_wtb, PLAYER_RECORD_LEN, TOURNAMENT_RECORD_LEN};
    let dir = format!("{}/../../../shared/data/wthor", env!("CARGO_MANIFEST_DIR"));
    let read = |name: &str| std::fs::read(format!("{dir}/{name}")).unwrap();
    let file = parse_wtb(&read("WTH_1977.wtb")).unwrap();
    let players = parse_names(&read("WTH.JOU"), PLAYER_RECORD_LEN).unwrap();
    let tournaments = parse_names(&read("WTH.TRN"), TOURNAMENT_RECORD_LEN).unwrap();
    cfg.wthor.add("WTH_1977.wtb", &file, &players, &tournaments)
}
