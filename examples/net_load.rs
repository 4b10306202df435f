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

use std::path::PathBuf;
use std::time::{Duration, Instant};

use spades::record::RecordLine;
use support::load::{self, check_seen, one_table};

struct Options {
    tables: usize,
    target: i32,
    server: PathBuf,
}

fn options() -> Result<Options, String> {
    let mut options = Options {
        tables: 200,
        target: 500,
        server: load::server_beside(),
    };
    load::read_flags(
        "--tables N, --target POINTS, --server PATH",
        |flag, value| {
            match flag {
                "--tables" => options.tables = value.parse().map_err(|e| format!("{e}"))?,
                "--target" => options.target = value.parse().map_err(|e| format!("{e}"))?,
                "--server" => options.server = PathBuf::from(value),
                _ => return Ok(false),
            }
            Ok(true)
        },
    )?;
    Ok(options)
}

fn main() {
    let options = match options() {
        Ok(options) => options,
        Err(why) => {
            eprintln!("net_load: {why}");
            std::process::exit(2);
        }
    };
    let server = match load::start_server(&options.server, &["--per-address", "100000"]) {
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
    // The server at rest, to tell what the tables add.
    std::thread::sleep(Duration::from_millis(500));
    let idle = load::status(server.pid(), "VmRSS");
    let began = Instant::now();
    let results = runtime.block_on(async {
        let mut tables = tokio::task::JoinSet::new();
        for n in 0..options.tables as u64 {
            tables.spawn(one_table(
                server.address,
                server.fingerprint.clone(),
                options.target,
                n,
                std::net::Ipv4Addr::LOCALHOST.into(),
            ));
        }
        let mut results = Vec::new();
        while let Some(done) = tables.join_next().await {
            results.push(done.map_err(|e| e.to_string()).and_then(|r| r));
        }
        results
    });
    let elapsed = began.elapsed();
    let peak = load::status(server.pid(), "VmHWM");
    let cpu = load::cpu_seconds(server.pid());
    let stopped = server.stop();
    let mut times: Vec<Duration> = Vec::new();
    let mut failed = Vec::new();
    let mut hands = 0;
    // Checked once the clock has stopped: the checking is not the server's.
    for (n, result) in results.into_iter().enumerate() {
        let checked = result.and_then(|seen| {
            seen.iter().try_for_each(|s| check_seen(n, s))?;
            Ok(seen)
        });
        match checked {
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
    let games = options.tables - failed.len();
    println!(
        "spades serve (release, TLS) on loopback, CPU: {}",
        load::cpu_model()
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
        load::percentile(&mut times, 0.5),
        load::percentile(&mut times, 0.99),
        times.last().map_or(0.0, |d| d.as_secs_f64() * 1000.0)
    );
    match (idle, peak) {
        (Some(idle), Some(peak)) => println!(
            "server memory: {:.1} MB at rest, {:.1} MB at its peak (VmHWM): {:.0} kB a table of two connections",
            idle as f64 / 1024.0,
            peak as f64 / 1024.0,
            peak.saturating_sub(idle) as f64 / options.tables.max(1) as f64
        ),
        _ => println!("server memory: not readable from /proc"),
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
