//! A throwaway PostgreSQL server for tests: `initdb` in a temporary directory, `pg_ctl
//! start` on a free port of 127.0.0.1, stopped and removed on drop. The Debian package's
//! binaries are looked up in /usr/lib/postgresql/*/bin (CI installs `postgresql` when
//! missing). `initdb` refuses to run as root, so as root the server runs as the
//! `postgres` user (or `nobody`) through `runuser`, owning the directory.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// A running test server.
pub struct PgServer {
    dir: tempfile::TempDir,
    bin: PathBuf,
    user: Option<String>,
    /// Its port on 127.0.0.1.
    pub port: u16,
}

fn bin_dir() -> PathBuf {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .expect("PostgreSQL binaries: install the Debian package `postgresql` (.ci/run does)")
        .filter_map(|e| e.ok().map(|e| e.path().join("bin")))
        .filter(|p| p.join("initdb").exists())
        .collect();
    dirs.sort();
    dirs.pop().expect("no /usr/lib/postgresql/*/bin/initdb")
}

fn user_exists(name: &str) -> bool {
    Command::new("id").arg(name).output().map(|o| o.status.success()).unwrap_or(false)
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

impl PgServer {
    /// Starts a fresh server (panics with the server's log on failure).
    pub fn start() -> PgServer {
        let bin = bin_dir();
        let dir = tempfile::Builder::new().prefix("solvo-pg").tempdir().unwrap();
        // SAFETY: geteuid has no preconditions.
        let root = unsafe { libc::geteuid() } == 0;
        let user = root.then(|| if user_exists("postgres") { "postgres" } else { "nobody" }.to_string());
        if let Some(u) = &user {
            let o = Command::new("chown").arg("-R").arg(u).arg(dir.path()).output().unwrap();
            assert!(o.status.success(), "chown: {}", String::from_utf8_lossy(&o.stderr));
        }
        let server = PgServer { dir, bin, user, port: free_port() };
        let data = server.data();
        server.run("initdb", &["-D", &data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"]);
        server.start_server();
        server
    }

    fn data(&self) -> String {
        self.dir.path().join("data").display().to_string()
    }

    fn run(&self, tool: &str, args: &[&str]) -> std::process::Output {
        let exe = self.bin.join(tool);
        let mut cmd = match &self.user {
            Some(u) => {
                let mut c = Command::new("runuser");
                c.arg("-u").arg(u).arg("--").arg(&exe);
                c
            }
            None => Command::new(&exe),
        };
        let o = cmd.args(args).current_dir(self.dir.path()).output().unwrap();
        assert!(
            o.status.success(),
            "{tool} {args:?}: {}{}\nlog: {}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr),
            std::fs::read_to_string(self.dir.path().join("log")).unwrap_or_default()
        );
        o
    }

    fn start_server(&self) {
        let opts = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200",
            self.port,
            self.dir.path().display()
        );
        let log = self.dir.path().join("log").display().to_string();
        self.run("pg_ctl", &["-D", &self.data(), "-o", &opts, "-l", &log, "-w", "-t", "60", "start"]);
    }

    /// Stops the server at once (as a crash would) and starts it again.
    pub fn restart(&self) {
        self.run("pg_ctl", &["-D", &self.data(), "-m", "immediate", "-w", "stop"]);
        self.start_server();
    }

    /// The connection URL.
    pub fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.port)
    }

    /// The directory holding the server (for logs).
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }
}

impl Drop for PgServer {
    fn drop(&mut self) {
        let exe = self.bin.join("pg_ctl");
        let data = self.data();
        let mut cmd = match &self.user {
            Some(u) => {
                let mut c = Command::new("runuser");
                c.arg("-u").arg(u).arg("--").arg(&exe);
                c
            }
            None => Command::new(&exe),
        };
        let _ = cmd.args(["-D", &data, "-m", "immediate", "-w", "stop"]).output();
    }
}
