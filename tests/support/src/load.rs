//! What the load and soak runs of the table server share (`examples/net_load`
//! and `examples/net_soak`): the release `spades serve` started as a real
//! process, what `/proc` says of it, and a table of two protocol clients
//! played to its end and checked.

use std::future::Future;
use std::io::{BufRead, BufReader};
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use spades::record::DealProof;
use spades::verify::{Outcome, verify};

use crate::checker;
use crate::net::{Answerer, Client, Seated, Seen, play_out};

/// The `spades` built beside the running example.
pub fn server_beside() -> PathBuf {
    std::env::current_exe()
        .ok()
        .and_then(|exe| Some(exe.parent()?.parent()?.join("spades")))
        .unwrap_or_else(|| PathBuf::from("spades"))
}

/// Reads the command line's `--flag VALUE` pairs: `set` takes each and
/// says whether it knows the flag; `usage` lists the flags for an error.
pub fn read_flags(
    usage: &str,
    mut set: impl FnMut(&str, &str) -> Result<bool, String>,
) -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or(format!("{flag} needs a value"))?;
        if !set(&flag, &value).map_err(|e| format!("{flag} {value}: {e}"))? {
            return Err(format!("unknown flag {flag}: {usage}"));
        }
    }
    Ok(())
}

/// The server process, and where it listens.
pub struct Running {
    pub child: Child,
    pub address: SocketAddr,
    pub fingerprint: String,
}

impl Running {
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Asks it to stop (SIGTERM) and waits: whether it stopped cleanly.
    pub fn stop(mut self) -> std::io::Result<std::process::ExitStatus> {
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        self.child.wait()
    }
}

/// Starts `spades serve` from `path` on loopback (TLS), with `extra`
/// flags, and reads where it listens and its fingerprint.
pub fn start_server(path: &Path, extra: &[&str]) -> Result<Running, String> {
    if !path.is_file() {
        return Err(format!(
            "no server at {}: run `cargo build --release` first (or give --server PATH)",
            path.display()
        ));
    }
    let mut child = Command::new(path)
        .args(["serve", "--port", "0", "--listen", "127.0.0.1"])
        .args(extra)
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", path.display()))?;
    let stdout = child.stdout.take().ok_or("no output from the server")?;
    let mut lines = BufReader::new(stdout).lines();
    let (mut address, mut fingerprint) = (None, None);
    while address.is_none() || fingerprint.is_none() {
        let line = lines
            .next()
            .ok_or("the server stopped before saying where it listens")?
            .map_err(|e| e.to_string())?;
        if let Some(rest) = line.strip_prefix("spades serve: listening on ") {
            let addr = rest.split_whitespace().next().unwrap_or_default();
            address = Some(addr.parse().map_err(|e| format!("{addr}: {e}"))?);
        } else if let Some(fp) = line.strip_prefix("fingerprint: ") {
            fingerprint = Some(fp.trim().to_string());
        }
    }
    // The rest of its output is read (and dropped) so it never blocks.
    std::thread::spawn(move || lines.for_each(drop));
    match (address, fingerprint) {
        (Some(address), Some(fingerprint)) => Ok(Running {
            child,
            address,
            fingerprint,
        }),
        _ => Err("the server did not say where it listens".into()),
    }
}

/// A figure of `/proc/PID/status` in kB (`VmRSS`, `VmHWM`) or a count
/// (`Threads`).
pub fn status(pid: u32, key: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status
        .lines()
        .find(|l| l.strip_prefix(key).is_some_and(|r| r.starts_with(':')))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The time at quantile `q` (0.5: the median) of `times`, in
/// milliseconds; 0 when there are none.
pub fn percentile(times: &mut [std::time::Duration], q: f64) -> f64 {
    times.sort();
    let at = ((times.len() as f64 * q) as usize).min(times.len().saturating_sub(1));
    times.get(at).map_or(0.0, |d| d.as_secs_f64() * 1000.0)
}

/// Runs `job(0..count)` on `concurrency` workers at once: each one's
/// result, in no order.
pub async fn many<T, F, Fut>(count: usize, concurrency: usize, job: F) -> Vec<Result<T, String>>
where
    T: Send + 'static,
    F: Fn(usize) -> Fut + Clone + Send + Sync + 'static,
    Fut: Future<Output = Result<T, String>> + Send + 'static,
{
    let taken = Arc::new(AtomicUsize::new(0));
    let mut workers = tokio::task::JoinSet::new();
    for _ in 0..concurrency.min(count) {
        let (taken, job) = (Arc::clone(&taken), job.clone());
        workers.spawn(async move {
            let mut done = Vec::new();
            loop {
                let n = taken.fetch_add(1, Ordering::SeqCst);
                if n >= count {
                    return done;
                }
                done.push(job(n).await);
            }
        });
    }
    let mut results = Vec::with_capacity(count);
    while let Some(done) = workers.join_next().await {
        match done {
            Ok(done) => results.extend(done),
            Err(e) => results.push(Err(format!("a worker failed: {e}"))),
        }
    }
    results
}

/// The successes, and the number of failures with the first one's reason.
pub fn split<T>(results: Vec<Result<T, String>>) -> (Vec<T>, usize, Option<String>) {
    let (mut good, mut failed, mut first) = (Vec::new(), 0, None);
    for result in results {
        match result {
            Ok(t) => good.push(t),
            Err(why) => {
                failed += 1;
                first.get_or_insert(why);
            }
        }
    }
    (good, failed, first)
}

/// The descriptors the process has open.
pub fn descriptors(pid: u32) -> Option<usize> {
    Some(std::fs::read_dir(format!("/proc/{pid}/fd")).ok()?.count())
}

/// The CPU time the process has used, user and system, in seconds.
pub fn cpu_seconds(pid: u32) -> Option<(f64, f64)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command's name (which is in parentheses).
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i)?.parse::<f64>().ok();
    // utime and stime are fields 14 and 15, in clock ticks (100 a second
    // on Linux).
    Some((ticks(11)? / 100.0, ticks(12)? / 100.0))
}

/// The machine's CPU, as `/proc/cpuinfo` names it, and its cores.
pub fn cpu_model() -> String {
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| {
            let line = text.lines().find(|l| l.starts_with("model name"))?;
            Some(line.split_once(':')?.1.trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into());
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    format!("{model} ({cores} cores)")
}

/// The rules of a load table: partnership to `target`.
pub fn rules(target: i32) -> String {
    format!("mode = \"partnership\"\ntarget_score = {target}\n")
}

/// A table opened by a host with a partner joined, two of the server's
/// `normal` bots filling it, started: the two clients and where they sit.
pub async fn open_table(
    address: SocketAddr,
    fingerprint: &str,
    target: i32,
    n: u64,
    from: IpAddr,
) -> Result<[(Client, Seated); 2], String> {
    let fp = Some(fingerprint);
    let mut host = Client::connect_from(address, from, fp)
        .await
        .map_err(|e| e.to_string())?;
    host.hello(&format!("Host{n}")).await;
    let hosted = host.host(&rules(target)).await;
    let mut partner = Client::connect_from(address, from, fp)
        .await
        .map_err(|e| e.to_string())?;
    partner.hello(&format!("Partner{n}")).await;
    let joined = partner
        .join(&hosted.table)
        .await
        .map_err(|(code, why)| format!("join: {code:?}: {why}"))?;
    host.fill(true, "normal").await;
    host.start().await;
    Ok([(host, hosted), (partner, joined)])
}

/// One table: host and partner (each answering with a local `normal`
/// bot), two server bots, a whole game: what each of the two clients saw.
pub async fn one_table(
    address: SocketAddr,
    fingerprint: String,
    target: i32,
    n: u64,
    from: IpAddr,
) -> Result<[Seen; 2], String> {
    let [(mut host, _), (mut partner, _)] =
        open_table(address, &fingerprint, target, n, from).await?;
    let (mut a, mut b) = (
        Answerer::new("normal", 2 * n),
        Answerer::new("normal", 2 * n + 1),
    );
    let (first, second) = tokio::join!(play_out(&mut host, &mut a), play_out(&mut partner, &mut b));
    Ok([first, second])
}

/// A game one client saw ended as it should, and its record passes the
/// checker and proves its deals with the commitment it was shown.
pub fn check_seen(n: usize, seen: &Seen) -> Result<(), String> {
    if seen.bye.as_deref() != Some("the game is over") {
        return Err(format!("table {n} ended: {:?}", seen.bye));
    }
    let text = seen.record_text();
    let report = checker::check_record(&text);
    if !report.is_ok() || report.games != 1 {
        return Err(format!("table {n}: {}", report.describe()));
    }
    let verdicts = verify(&text).map_err(|e| format!("table {n}: {e}"))?;
    match &verdicts[0].outcome {
        Outcome::Verified(DealProof::Committed { commitment, .. })
            if Some(commitment.as_str()) == seen.commitment.as_deref() =>
        {
            Ok(())
        }
        other => Err(format!("table {n} does not verify: {other:?}")),
    }
}
