//! Which processes hold a file open, so that "the store is locked" can say who holds it.
//!
//! Linux only (it reads `/proc/<pid>/fd`); elsewhere, and for processes whose
//! descriptors this user may not read, nothing is found. Never fails: it is a hint for
//! a message, not a check.

use std::path::Path;

/// The processes other than this one that have `path` open, as `pid <n> (<command
/// line>)`, in pid order.
pub fn processes_holding(path: &Path) -> Vec<String> {
    let Ok(target) = std::fs::canonicalize(path) else {
        return Vec::new();
    };
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let me = std::process::id();
    let mut pids: Vec<u32> = entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
        .filter(|&pid| pid != me)
        .filter(|pid| holds(*pid, &target))
        .collect();
    pids.sort_unstable();
    pids.into_iter().map(|pid| format!("pid {pid} ({})", command_line(pid))).collect()
}

fn holds(pid: u32, target: &Path) -> bool {
    let Ok(fds) = std::fs::read_dir(format!("/proc/{pid}/fd")) else {
        return false;
    };
    fds.filter_map(|fd| std::fs::read_link(fd.ok()?.path()).ok()).any(|link| link == target)
}

fn command_line(pid: u32) -> String {
    let raw = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
    let words: Vec<String> =
        raw.split(|&b| b == 0).filter(|w| !w.is_empty()).map(|w| String::from_utf8_lossy(w).into_owned()).collect();
    if words.is_empty() {
        "unknown command".to_string()
    } else {
        words.join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_child_holding_a_file_is_found() {
        let dir = std::env::temp_dir().join(format!("solvo-holders-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("held");
        std::fs::write(&file, b"x").unwrap();
        let mut child = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!("exec 3<'{}'; sleep 30", file.display()))
            .spawn()
            .unwrap();
        let mut found = Vec::new();
        for _ in 0..100 {
            found = processes_holding(&file);
            if !found.is_empty() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        child.kill().unwrap();
        child.wait().unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        if Path::new("/proc/self/fd").is_dir() {
            assert!(found.iter().any(|h| h.contains(&format!("pid {}", child.id()))), "{found:?}");
        }
    }
}
