//! The server under test in a process of its own (the release `echo_server` example), so that
//! its memory and file descriptors are its own, read from `/proc`; and what the machine is
//! doing besides.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Child, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

/// The workspace's target directory (`CARGO_TARGET_DIR` if set).
pub fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| crate::root().join("target"), PathBuf::from)
}

/// Builds the release `echo_server` example, as its documentation says to, and returns its
/// path.
pub fn build_echo_server() -> Result<PathBuf, String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(cargo)
        .current_dir(crate::root())
        .args(["build", "--release", "--quiet", "-p", "rmm-mobile"])
        .args(["--example", "echo_server"])
        .status()
        .map_err(|e| format!("cargo build: {e}"))?;
    if !status.success() {
        return Err(format!("cargo build of the echo_server example: {status}"));
    }
    Ok(target_dir().join("release/examples/echo_server"))
}

/// The server's memory and descriptors at one moment.
#[derive(Debug, Clone)]
pub struct Sample {
    /// When, in words.
    pub label: String,
    /// Resident memory, KiB.
    pub rss_kib: u64,
    /// Open file descriptors.
    pub fds: usize,
}

/// The running server, killed (by its PID) when dropped.
pub struct ServerProcess {
    child: Child,
    /// Where it listens.
    pub addr: SocketAddr,
    /// Kept open: the server's stdout is a pipe, which it may not find closed.
    _stdout: BufReader<ChildStdout>,
}

impl ServerProcess {
    /// Starts `binary --listen 127.0.0.1:0` and waits for its `listening on http://ADDR/…`.
    pub fn start(binary: &std::path::Path) -> Result<ServerProcess, String> {
        let mut child = Command::new(binary)
            .args(["--listen", "127.0.0.1:0"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("{}: {e}", binary.display()))?;
        let mut stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        let mut line = String::new();
        let read = stdout.read_line(&mut line);
        let addr = line
            .trim()
            .strip_prefix("listening on http://")
            .and_then(|rest| rest.split('/').next())
            .and_then(|addr| addr.parse().ok());
        match (read, addr) {
            (Ok(_), Some(addr)) => Ok(ServerProcess {
                child,
                addr,
                _stdout: stdout,
            }),
            (read, _) => {
                let _ = child.kill();
                let _ = child.wait();
                Err(format!("the server said {line:?} ({read:?})"))
            }
        }
    }

    /// Its process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Whether it still runs.
    pub fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Its memory and descriptors now.
    pub fn sample(&self, label: impl Into<String>) -> Sample {
        Sample {
            label: label.into(),
            rss_kib: self.rss_kib(),
            fds: self.fds(),
        }
    }

    /// Its resident memory (`VmRSS`), in KiB.
    pub fn rss_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid()))
            .expect("the server's /proc status");
        status
            .lines()
            .find_map(|line| line.strip_prefix("VmRSS:"))
            .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
            .expect("VmRSS in /proc status")
    }

    /// How many file descriptors it has open.
    pub fn fds(&self) -> usize {
        std::fs::read_dir(format!("/proc/{}/fd", self.pid()))
            .expect("the server's /proc fd")
            .count()
    }

    /// Its user + system CPU time so far, in seconds (`/proc/PID/stat`, at 100 ticks/s,
    /// Linux's `USER_HZ` on every architecture it runs this on).
    pub fn cpu_secs(&self) -> f64 {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.pid()))
            .expect("the server's /proc stat");
        // The fields after the command name, which is in parentheses and may hold spaces.
        let after = &stat[stat.rfind(')').expect("(comm)") + 2..];
        let fields: Vec<&str> = after.split_whitespace().collect();
        let ticks: u64 =
            fields[11].parse::<u64>().unwrap_or(0) + fields[12].parse::<u64>().unwrap_or(0);
        ticks as f64 / 100.0
    }

    /// Waits up to `patience` for its descriptors to come down to `target`; returns the last
    /// count seen (closing a connection is asynchronous on the server's side).
    pub fn settle_fds(&self, target: usize, patience: Duration) -> usize {
        let start = Instant::now();
        loop {
            let fds = self.fds();
            if fds <= target || start.elapsed() > patience {
                return fds;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        // SIGKILL to this child's PID alone; then reap it.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// This process's open-files limit (soft, hard), from `/proc/self/limits`.
pub fn open_files_limit() -> Option<(u64, u64)> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits.lines().find(|l| l.starts_with("Max open files"))?;
    let mut numbers = line["Max open files".len()..]
        .split_whitespace()
        .map(|n| n.parse::<u64>().ok());
    Some((numbers.next()??, numbers.next()??))
}

/// Raises this process's soft open-files limit to `want` (at most the hard limit) with
/// util-linux's `prlimit`, as neither std nor tokio can (and the server, started later,
/// inherits it). Returns the soft limit in force afterwards.
pub fn raise_open_files_limit(want: u64) -> Option<u64> {
    let (soft, hard) = open_files_limit()?;
    if soft >= want {
        return Some(soft);
    }
    let new = want.min(hard);
    let _ = Command::new("prlimit")
        .arg(format!("--pid={}", std::process::id()))
        .arg(format!("--nofile={new}:{hard}"))
        .status();
    open_files_limit().map(|(soft, _)| soft)
}

/// The system's count of connections dropped because a listen queue was full
/// (`ListenOverflows` in `/proc/net/netstat`): each costs its client a SYN retransmission,
/// a second later.
pub fn listen_overflows() -> Option<u64> {
    let netstat = std::fs::read_to_string("/proc/net/netstat").ok()?;
    let mut lines = netstat.lines().filter(|l| l.starts_with("TcpExt:"));
    let (names, values) = (lines.next()?, lines.next()?);
    let at = names
        .split_whitespace()
        .position(|n| n == "ListenOverflows")?;
    values.split_whitespace().nth(at)?.parse().ok()
}

/// The machine's state in a line: cores, load averages, and the fuzzers running (AFL++'s
/// `afl-fuzz` processes) that share it.
pub fn machine_conditions() -> String {
    let cores = std::thread::available_parallelism().map_or(0, usize::from);
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let load: Vec<&str> = load.split_whitespace().take(3).collect();
    let fuzzers = std::fs::read_dir("/proc")
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .filter(|e| {
                    std::fs::read_to_string(e.path().join("comm"))
                        .is_ok_and(|comm| comm.trim() == "afl-fuzz")
                })
                .count()
        })
        .unwrap_or(0);
    format!(
        "{cores} cores, load average {} (1, 5, 15 min), {fuzzers} afl-fuzz processes running",
        load.join(" ")
    )
}
