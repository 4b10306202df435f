//! A load run of the table server, the real way: starts the release
//! `spades serve` on loopback (TLS), opens many tables at once, each with a
//! host and a partner connected as protocol clients (each answering its
//! asks with a local `normal` bot) and two of the server's own bots, plays
//! every game to its end, checks every record with the independent checker
//! and `spades verify`'s replay, and reports games a second, the 99th
//! percentile of the server's response time (from a client's `act` to the
//! server's next message to it) and the server's peak memory.
//!
//! ```sh
//! cargo build --release
//! cargo run --release --example net_load -- --tables 200
//! ```
//!
//! Flags: `--tables N` (200), `--target POINTS` (500), `--server PATH`
//! (default: the `spades` built beside this example).

use spades::record::RecordLine;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use spades::record::DealProof;
use spades::verify::{Outcome, verify};
use support::checker;
use support::net::{Answerer, Client, Seen, play_out};

struct Options {
    tables: usize,
    target: i32,
    server: PathBuf,
}

fn options() -> Result<Options, String> {
    let beside = std::env::current_exe()
        .ok()
        .and_then(|exe| Some(exe.parent()?.parent()?.join("spades")))
        .unwrap_or_else(|| PathBuf::from("spades"));
    let mut options = Options {
        tables: 200,
        target: 500,
        server: beside,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--tables" => {
                options.tables = value()?.parse().map_err(|e| format!("--tables: {e}"))?
            }
            "--target" => {
                options.target = value()?.parse().map_err(|e| format!("--target: {e}"))?
            }
            "--server" => options.server = PathBuf::from(value()?),
            other => {
                return Err(format!(
                    "unknown flag {other}: --tables N, --target POINTS, --server PATH"
                ));
            }
        }
    }
    if !options.server.is_file() {
        return Err(format!(
            "no server at {}: run `cargo build --release` first (or give --server PATH)",
            options.server.display()
        ));
    }
    Ok(options)
}

/// The server process, and where it listens.
struct Running {
    child: Child,
    address: SocketAddr,
    fingerprint: String,
}

fn start_server(path: &PathBuf) -> Result<Running, String> {
    let mut child = Command::new(path)
        // Every client comes from loopback.
        .args(["serve", "--port", "0", "--listen", "127.0.0.1"])
        .args(["--per-address", "100000"])
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
    Ok(Running {
        child,
        address: address.unwrap_or_else(|| unreachable!()),
        fingerprint: fingerprint.unwrap_or_else(|| unreachable!()),
    })
}

/// The CPU time the server has used, user and system, from /proc.
fn cpu_seconds(pid: u32) -> Option<(f64, f64)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command's name (which is in parentheses).
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i)?.parse::<f64>().ok();
    // utime and stime are fields 14 and 15, in clock ticks (100 a second
    // on Linux).
    Some((ticks(11)? / 100.0, ticks(12)? / 100.0))
}

/// The server's peak resident memory, from /proc.
fn peak_memory_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| {
            let line = text.lines().find(|l| l.starts_with("model name"))?;
            Some(line.split_once(':')?.1.trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into())
}

/// One table: host and partner, two server bots, a whole game: what each
/// of the two clients saw.
async fn one_table(
    address: SocketAddr,
    fingerprint: String,
    target: i32,
    n: u64,
) -> Result<[Seen; 2], String> {
    let fp = Some(fingerprint.as_str());
    let rules = format!("mode = \"partnership\"\ntarget_score = {target}\n");
    let mut host = Client::try_connect(address, fp)
        .await
        .map_err(|e| e.to_string())?;
    host.hello(&format!("Host{n}")).await;
    let table = host.host(&rules).await;
    let mut partner = Client::try_connect(address, fp)
        .await
        .map_err(|e| e.to_string())?;
    partner.hello(&format!("Partner{n}")).await;
    partner
        .join(&table.table)
        .await
        .map_err(|(code, why)| format!("join: {code:?}: {why}"))?;
    host.fill(true, "normal").await;
    host.start().await;
    let (mut a, mut b) = (
        Answerer::new("normal", 2 * n),
        Answerer::new("normal", 2 * n + 1),
    );
    let (first, second) = tokio::join!(play_out(&mut host, &mut a), play_out(&mut partner, &mut b));
    Ok([first, second])
}

/// A table's game ended as it should, and its record (as each of its two
/// clients received it) passes the checker and proves its deals.
fn check_table(n: usize, seen: &[Seen; 2]) -> Result<(), String> {
    for seen in seen {
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
                if Some(commitment.as_str()) == seen.commitment.as_deref() => {}
            other => return Err(format!("table {n} does not verify: {other:?}")),
        }
    }
    Ok(())
}

fn main() {
    let options = match options() {
        Ok(options) => options,
        Err(why) => {
            eprintln!("net_load: {why}");
            std::process::exit(2);
        }
    };
    let mut server = match start_server(&options.server) {
        Ok(server) => server,
        Err(why) => {
            eprintln!("net_load: {why}");
            std::process::exit(1);
        }
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let began = Instant::now();
    let results = runtime.block_on(async {
        let mut tables = tokio::task::JoinSet::new();
        for n in 0..options.tables as u64 {
            tables.spawn(one_table(
                server.address,
                server.fingerprint.clone(),
                options.target,
                n,
            ));
        }
        let mut results = Vec::new();
        while let Some(done) = tables.join_next().await {
            results.push(done.map_err(|e| e.to_string()).and_then(|r| r));
        }
        results
    });
    let elapsed = began.elapsed();
    let peak = peak_memory_kb(server.child.id());
    let cpu = cpu_seconds(server.child.id());
    let _ = Command::new("kill")
        .args(["-TERM", &server.child.id().to_string()])
        .status();
    let stopped = server.child.wait();
    let mut times: Vec<Duration> = Vec::new();
    let mut failed = Vec::new();
    let mut hands = 0;
    // Checked once the clock has stopped: the checking is not the server's.
    for (n, result) in results.into_iter().enumerate() {
        match result.and_then(|seen| check_table(n, &seen).map(|()| seen)) {
            Ok(seen) => {
                hands += seen[0]
                    .record
                    .iter()
                    .filter(|l| matches!(l, RecordLine::Score { .. }))
                    .count();
                for s in seen {
                    times.extend(s.response_times);
                }
            }
            Err(why) => failed.push(why),
        }
    }
    times.sort();
    let at = |q: f64| {
        times
            .get(((times.len() as f64 * q) as usize).min(times.len().saturating_sub(1)))
            .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
    };
    let games = options.tables - failed.len();
    println!(
        "spades serve (release, TLS) on loopback, CPU: {} ({} cores)",
        cpu_model(),
        std::thread::available_parallelism().map_or(1, usize::from)
    );
    println!(
        "{} tables at once, each two protocol clients (normal bots answering) and two server bots (normal), partnership to {}",
        options.tables, options.target
    );
    println!(
        "{games} games ({hands} hands) played to their end in {:.1} s: {:.2} games a second; every record passes the checker and verifies",
        elapsed.as_secs_f64(),
        games as f64 / elapsed.as_secs_f64()
    );
    println!(
        "server response, act to next message ({} answers): median {:.2} ms, 99th percentile {:.2} ms, max {:.2} ms",
        times.len(),
        at(0.5),
        at(0.99),
        times.last().map_or(0.0, |d| d.as_secs_f64() * 1000.0)
    );
    match peak {
        Some(kb) => println!("server peak memory (VmHWM): {:.1} MB", kb as f64 / 1024.0),
        None => println!("server peak memory: not readable from /proc"),
    }
    if let Some((user, system)) = cpu {
        println!("server CPU time: {user:.1} s user, {system:.1} s system");
    }
    match stopped {
        Ok(status) if status.success() => println!("the server stopped cleanly on SIGTERM"),
        other => println!("the server's exit: {other:?}"),
    }
    if !failed.is_empty() {
        for why in &failed {
            eprintln!("net_load: {why}");
        }
        std::process::exit(1);
    }
}
