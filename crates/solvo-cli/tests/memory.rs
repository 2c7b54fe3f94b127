//! Memory end to end: every memory option is a budget counting every table a command
//! holds, checked against the machine; a table the system refuses ends one request,
//! never the server; the enumeration stays near its budget.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::{solvo, stderr};

/// The machine's physical memory in MiB, as the binary reads it.
fn physical_mib() -> usize {
    let meminfo = std::fs::read_to_string("/proc/meminfo").expect("/proc/meminfo");
    let kib: usize = meminfo
        .lines()
        .find_map(|l| l.strip_prefix("MemTotal:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .expect("MemTotal");
    kib >> 10
}

/// A table size each command accepts alone but not as many times as the command holds
/// tables of that size (`serve`: every search at once), and no table larger than the
/// machine's memory (`analyze`, `gtp`, `solve`: one table each, which the selective and
/// the exact search share). Before, `analyze` took up to 65536 MiB whatever the machine,
/// and `serve --check` said "fine" to any product of searches and tables.
#[test]
fn every_memory_option_counts_every_table_the_command_holds() {
    let most = physical_mib();
    let start = "f5d6";
    let refused = |args: &[&str], how: &str| {
        let o = solvo(args);
        let e = stderr(&o);
        assert_ne!(o.status.code(), Some(0), "{args:?}: {e}");
        assert!(e.contains("--hash-mb") && e.contains(how), "{args:?}: {e}");
    };
    let too_big = (most + 1).to_string();
    refused(&["analyze", start, "--depth", "1", "--hash-mb", &too_big], "MiB of memory");
    refused(&["gtp", "--hash-mb", &too_big], "MiB of memory");
    refused(&["solve", start, "--hash-mb", &too_big], "MiB of memory");
    refused(
        &["serve", "--port", "0", "--check", "--hash-mb", &(most * 3 / 4).to_string(), "--max-searches", "2"],
        "2 searches",
    );
    // What fits still runs.
    let o = solvo(&["analyze", start, "--depth", "2", "--hash-mb", "8"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = solvo(&["serve", "--port", "0", "--check", "--hash-mb", "16", "--max-searches", "8"]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// A server started under a limit of its address space (`ulimit -v`).
struct Server {
    child: Child,
    addr: SocketAddr,
}

/// `solvo` with `args` (one string, split by the shell) under an address-space limit
/// of `limit_kib` (`None`: no limit), its standard streams piped.
fn limited(limit_kib: Option<u64>, args: &str) -> Child {
    let ulimit = limit_kib.map_or(String::new(), |k| format!("ulimit -v {k} && "));
    let script = format!("{ulimit}exec '{}' {args}", env!("CARGO_BIN_EXE_solvo"));
    // One malloc arena: the address space glibc reserves per thread would otherwise
    // depend on the number of threads that ever allocated.
    Command::new("sh")
        .args(["-c", &script])
        .env("MALLOC_ARENA_MAX", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start solvo")
}

impl Server {
    fn start(limit_kib: Option<u64>, args: &str) -> Server {
        let mut child = limited(limit_kib, &format!("serve --port 0 --threads 1 {args}"));
        let mut out = child.stdout.take().expect("stdout");
        let mut line = Vec::new();
        let mut byte = [0u8; 1];
        while out.read(&mut byte).expect("read the first line") == 1 && byte[0] != b'\n' {
            line.push(byte[0]);
        }
        let line = String::from_utf8_lossy(&line).into_owned();
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .and_then(|a| a.parse().ok())
            .unwrap_or_else(|| panic!("no address in {line:?}"));
        Server { child, addr }
    }

    /// The process's address space (VmSize) in KiB.
    fn vm_size_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).expect("status");
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmSize:"))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .expect("VmSize")
    }

    fn alive(&mut self) -> bool {
        self.child.try_wait().expect("wait").is_none()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Status and body of one request (the whole answer, read until the server closes).
fn request(addr: SocketAddr, method: &str, path: &str, body: &str) -> (u16, String) {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(120))).expect("timeout");
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).expect("send");
    s.write_all(body.as_bytes()).expect("send");
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).expect("read the answer");
    let text = String::from_utf8_lossy(&raw).into_owned();
    let status = text.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let body = text.split_once("\r\n\r\n").map_or(String::new(), |(_, b)| b.to_string());
    (status, body)
}

/// Six concurrent analyses of a server whose address space holds one analysis' table
/// (512 MiB) and not two: the analyses that get their tables run, the others get
/// 503 with a JSON error saying memory is short, the server stays up, and afterwards
/// still answers a small request and a new analysis. Before, the first search whose
/// table could not be allocated ended the server ("internal error") for every client.
#[test]
fn a_server_short_of_memory_answers_503_and_stays_up() {
    let args = "--hash-mb 512 --max-searches 6 --max-time 20";
    // The address space the server takes before any search, measured on a server
    // without a limit.
    let base = {
        let server = Server::start(None, args);
        std::thread::sleep(Duration::from_millis(300));
        server.vm_size_kib()
    };
    let limit = base + (512 + 256) * 1024;
    let mut server = Server::start(Some(limit), args);
    let addr = server.addr;
    let analyses: Vec<_> = (0..6)
        .map(|_| std::thread::spawn(move || request(addr, "POST", "/api/analyze", r#"{"game":{},"time_ms":4000}"#)))
        .collect();
    let answers: Vec<(u16, String)> = analyses.into_iter().map(|t| t.join().expect("request thread")).collect();
    assert!(server.alive(), "the server died: {answers:?}");
    let ran = answers.iter().filter(|(status, _)| *status == 200).count();
    let refused: Vec<&String> = answers.iter().filter(|(status, _)| *status == 503).map(|(_, body)| body).collect();
    assert!(ran >= 1, "{answers:?}");
    assert!(!refused.is_empty(), "{answers:?}");
    assert_eq!(ran + refused.len(), answers.len(), "{answers:?}");
    for body in refused {
        let v: serde_json::Value = serde_json::from_str(body).unwrap_or_else(|e| panic!("not JSON ({e}): {body}"));
        assert!(v["error"].as_str().is_some_and(|e| e.contains("out of memory")), "{v}");
    }
    let (status, body) = request(addr, "GET", "/api/info", "");
    assert_eq!(status, 200, "{body}");
    let start = Instant::now();
    let (status, body) = request(addr, "POST", "/api/analyze", r#"{"game":{},"time_ms":500}"#);
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("done"), "{body}");
    assert!(start.elapsed() < Duration::from_secs(60));
    assert!(server.alive());
}

/// `enumerate --memory-mb 16` stays near its budget: a step's parents and children are
/// sized from it, and the merge opens only as many runs as their buffers fit in it,
/// pass after pass. Before, a level read from its file left a sort buffer of 1,024
/// boards, so hundreds of runs were merged at once with 1 MiB of buffer each: 1.8 GB
/// peak here.
#[test]
fn enumeration_stays_near_its_memory_budget() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("levels");
    let data = data.to_str().unwrap();
    let o = solvo(&["enumerate", "--size", "6", "--discs", "14", "--memory-mb", "16", "--data-dir", data, "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows: Vec<serde_json::Value> =
        String::from_utf8_lossy(&o.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let last = rows.last().unwrap();
    assert!(last["runs"].as_u64().unwrap() > 1, "{last}");
    let peak_mib = last["peak_rss_kib"].as_u64().unwrap() >> 10;
    // The budget, and the binary, the thread pool and the allocator around it.
    assert!(peak_mib < 16 + 64, "peak RSS {peak_mib} MiB: {last}");
    let memory = solvo(&["enumerate", "--size", "6", "--discs", "14", "--json"]);
    let expected: Vec<serde_json::Value> =
        String::from_utf8_lossy(&memory.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let counts = |rows: &[serde_json::Value]| rows.iter().map(|r| r["positions"].clone()).collect::<Vec<_>>();
    assert_eq!(counts(&rows), counts(&expected));
}

/// Runs `solvo` with `args` under an address-space limit of `limit_kib`, `input` on its
/// standard input.
fn solvo_limited(limit_kib: u64, args: &str, input: &str) -> Output {
    let mut child = limited(Some(limit_kib), args);
    child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("write the commands");
    child.wait_with_output().expect("wait for solvo")
}

/// A table of 1 GiB under an address-space limit of about 1 GB: the command line's
/// searches exit 1 with a message, GTP answers `genmove` with `?` and NBoard `go` with a
/// status line, and both sessions go on. Before, each of them panicked ("internal
/// error", exit 101).
#[test]
fn front_ends_answer_a_refused_table_with_an_error_and_go_on() {
    const LIMIT: u64 = 1_000_000;
    let o = solvo_limited(LIMIT, "analyze f5d6 --depth 2 --hash-mb 1024", "");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("cannot allocate a table of 1024 MiB"), "{}", stderr(&o));

    let o = solvo_limited(LIMIT, "gtp --hash-mb 1024", "genmove b\nname\nquit\n");
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(o.status.success(), "{out}{}", stderr(&o));
    assert!(out.contains("? cannot allocate a table of 1024 MiB"), "{out}");
    assert!(out.contains("= solvo"), "{out}");

    let ggf = "(;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *];)";
    let input = format!("nboard 2\nset game {ggf}\ngo\nping 7\nquit\n");
    let o = solvo_limited(LIMIT, "nboard --hash-mb 1024", &input);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(o.status.success(), "{out}{}", stderr(&o));
    assert!(out.contains("status error: cannot allocate a table of 1024 MiB"), "{out}");
    assert!(out.contains("pong 7"), "{out}");
}
