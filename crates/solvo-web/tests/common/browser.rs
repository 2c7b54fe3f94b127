//! Headless Chromium over WebDriver: Debian's `chromedriver` on a free port, driven by
//! `fantoccini`; the driver and its browser are killed when [`Browser`] is dropped (the
//! driver runs in a process group of its own, which the browser it starts joins, and the
//! whole group is killed: killing the driver alone left headless Chromiums running).

use fantoccini::{Client, ClientBuilder};
use serde_json::json;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Where Debian's packages put them.
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
/// Debian's Chromium.
pub const CHROMIUM: &str = "/usr/bin/chromium";

/// A WebDriver session and the chromedriver process behind it.
pub struct Browser {
    /// The session.
    pub client: Client,
    driver: Child,
    /// One browser at a time: tests of one binary run in parallel, and two browsers and
    /// their servers' searches on a small machine make each other's waits time out.
    _turn: tokio::sync::MutexGuard<'static, ()>,
}

static TURN: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

impl Drop for Browser {
    fn drop(&mut self) {
        let group = format!("-{}", self.driver.id());
        let _ = Command::new("kill").args(["-KILL", "--", &group]).stderr(Stdio::null()).status();
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// Starts chromedriver on a free port and opens a headless session with a 1200x1000
/// window. Panics with what to install when the browser is missing.
pub async fn open() -> Browser {
    for tool in [CHROMEDRIVER, CHROMIUM] {
        assert!(
            std::path::Path::new(tool).exists(),
            "{tool} is missing: install Debian's chromium and chromium-driver (apt-get install -y chromium chromium-driver)"
        );
    }
    let turn = TURN.lock().await;
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let driver = Command::new(CHROMEDRIVER)
        .process_group(0)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start chromedriver");
    let t = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(t.elapsed() < Duration::from_secs(20), "chromedriver did not start");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        json!({
            "binary": CHROMIUM,
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-crash-reporter", "--window-size=1200,1000"],
        }),
    );
    let client = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{port}"))
        .await
        .expect("a WebDriver session");
    Browser { client, driver, _turn: turn }
}

/// Evaluates `expr` in the page.
pub async fn js(c: &Client, expr: &str) -> serde_json::Value {
    c.execute(&format!("return ({expr});"), vec![]).await.unwrap()
}
