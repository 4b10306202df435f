//! Two attacks on the release `spades serve` (TLS, on loopback), measured
//! for docs/network.md:
//!
//! - `names`: 100 public tables, each opened by a host whose `hello` gave
//!   a name of "A" and 32,000 combining marks, then 64 connections that
//!   ask for `tables` as often as the server allows and never read. The
//!   server's memory before, and its peak (`VmHWM`) after.
//! - `flood`: half-open connections from 127.0.0.1 (TCP connected, never a
//!   TLS handshake) as fast as they are let in, while 60 players from
//!   127.0.0.2 connect one after another and say `hello`: how many were
//!   refused.
//!
//! ```sh
//! cargo build --release
//! cargo run --release --example net_hostile -- --attack names
//! cargo run --release --example net_hostile -- --attack flood --max-connections 1000
//! ```
//!
//! Flags: `--attack names|flood|both` (both), `--seconds S` each attack
//! lasts (30), `--max-connections N` for the flood's server (1000),
//! `--server PATH` (default: the `spades` built beside this example).

use std::collections::VecDeque;
use std::net::{IpAddr, SocketAddr, TcpStream};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use spades::protocol::{ClientMessage, PROTOCOL_VERSION, ServerMessage};
use support::load::{self, Running};
use support::net::Client;

struct Options {
    attack: String,
    seconds: u64,
    max_connections: usize,
    server: PathBuf,
}

fn options() -> Result<Options, String> {
    let mut options = Options {
        attack: "both".into(),
        seconds: 30,
        max_connections: 1000,
        server: load::server_beside(),
    };
    let usage = "--attack names|flood|both, --seconds S, --max-connections N, --server PATH";
    load::read_flags(usage, |flag, value| {
        match flag {
            "--attack" => options.attack = value.to_string(),
            "--seconds" => options.seconds = value.parse().map_err(|e| format!("{e}"))?,
            "--max-connections" => {
                options.max_connections = value.parse().map_err(|e| format!("{e}"))?;
            }
            "--server" => options.server = PathBuf::from(value),
            _ => return Ok(false),
        }
        Ok(true)
    })?;
    Ok(options)
}

fn main() {
    let options = match options() {
        Ok(options) => options,
        Err(e) => {
            eprintln!("net_hostile: {e}");
            std::process::exit(2);
        }
    };
    println!("CPU: {}", load::cpu_model());
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let result = runtime.block_on(async {
        if matches!(options.attack.as_str(), "names" | "both") {
            names(&options).await?;
        }
        if matches!(options.attack.as_str(), "flood" | "both") {
            flood(&options).await?;
        }
        Ok::<(), String>(())
    });
    if let Err(e) = result {
        eprintln!("net_hostile: {e}");
        std::process::exit(1);
    }
}

/// A name of one letter and 32,000 combining marks.
fn marks_name() -> String {
    format!("A{}", "\u{301}".repeat(32_000))
}

async fn hello(client: &mut Client, name: &str) -> bool {
    client
        .send(&ClientMessage::Hello {
            protocol: PROTOCOL_VERSION,
            name: name.to_string(),
        })
        .await;
    matches!(
        client.next_within(Duration::from_secs(10)).await,
        Ok(Some(ServerMessage::Welcome { .. }))
    )
}

fn kib(server: &Running, key: &str) -> u64 {
    load::status(server.pid(), key).unwrap_or(0)
}

/// 100 tables of hostile names, then 64 askers of `tables` that never
/// read, for `seconds`.
async fn names(options: &Options) -> Result<(), String> {
    let server = load::start_server(&options.server, &["--per-address", "100000"])?;
    let (address, fingerprint) = (server.address, server.fingerprint.clone());
    tokio::time::sleep(Duration::from_millis(300)).await;
    let idle = kib(&server, "VmRSS");
    let mut hosts = Vec::new();
    for _ in 0..100 {
        let mut host = Client::try_connect(address, Some(&fingerprint))
            .await
            .map_err(|e| format!("a host cannot connect: {e}"))?;
        if !hello(&mut host, &marks_name()).await {
            return Err("a host was not welcomed".into());
        }
        host.open(&load::rules(300), true).await;
        hosts.push(host);
    }
    let tables = kib(&server, "VmRSS");
    let askers = (0..64).map(|_| {
        let fingerprint = fingerprint.clone();
        tokio::spawn(ask_and_never_read(address, fingerprint, options.seconds))
    });
    let mut answers_asked = 0;
    for asker in askers.collect::<Vec<_>>() {
        answers_asked += asker.await.map_err(|e| e.to_string())?;
    }
    let peak = kib(&server, "VmHWM");
    let after = kib(&server, "VmRSS");
    println!(
        "names: idle {} MB; 100 tables of hostile names {} MB; 64 askers that never read \
         asked {answers_asked} lists in {} s: peak (VmHWM) {} MB, {} MB after",
        idle / 1024,
        tables / 1024,
        options.seconds,
        peak / 1024,
        after / 1024,
    );
    drop(hosts);
    let _ = server.stop();
    Ok(())
}

/// Asks for `tables` ten times every ten seconds (the most the server
/// answers) for `seconds`, and never reads: how many it asked for.
async fn ask_and_never_read(address: SocketAddr, fingerprint: String, seconds: u64) -> usize {
    let Ok(mut asker) = Client::try_connect(address, Some(&fingerprint)).await else {
        return 0;
    };
    if !hello(&mut asker, "Asker").await {
        return 0;
    }
    let end = Instant::now() + Duration::from_secs(seconds);
    let ask = spades::protocol::line(&ClientMessage::Tables { mode: None });
    let mut asked = 0;
    while Instant::now() < end {
        for _ in 0..10 {
            if asker.send_raw(ask.as_bytes()).await.is_err() {
                return asked; // let go by the server
            }
            asked += 1;
        }
        tokio::time::sleep(Duration::from_millis(10_500)).await;
    }
    asked
}

/// Half-open connections from 127.0.0.1 for `seconds` while 60 players
/// from 127.0.0.2 come one after another.
async fn flood(options: &Options) -> Result<(), String> {
    let max = options.max_connections.to_string();
    let server = load::start_server(&options.server, &["--max-connections", &max])?;
    let (address, fingerprint) = (server.address, server.fingerprint.clone());
    let seconds = options.seconds;
    let flood = std::thread::spawn(move || half_open(address, seconds));
    let player_from = IpAddr::from([127, 0, 0, 2]);
    let gap = Duration::from_secs(seconds) / 60;
    let mut refused = 0;
    for _ in 0..60 {
        tokio::time::sleep(gap).await;
        let welcomed = match Client::connect_from(address, player_from, Some(&fingerprint)).await {
            Ok(mut player) => hello(&mut player, "Player").await,
            Err(_) => false,
        };
        refused += usize::from(!welcomed);
    }
    let opened = flood.join().map_err(|_| "the flood failed")?;
    println!(
        "flood: {opened} half-open connections from 127.0.0.1 in {seconds} s \
         (--max-connections {max}): {refused} of 60 players from 127.0.0.2 refused"
    );
    let _ = server.stop();
    Ok(())
}

/// Opens connections to `address` that never say a word, holding the
/// latest 2,000, for `seconds`: how many it opened.
fn half_open(address: SocketAddr, seconds: u64) -> usize {
    let end = Instant::now() + Duration::from_secs(seconds);
    let mut held = VecDeque::new();
    let mut opened = 0;
    while Instant::now() < end {
        if let Ok(stream) = TcpStream::connect_timeout(&address, Duration::from_secs(1)) {
            held.push_back(stream);
            opened += 1;
            if held.len() > 2_000 {
                held.pop_front();
            }
        }
        // About a thousand a second: a flood, on a machine others share.
        std::thread::sleep(Duration::from_millis(1));
    }
    opened
}
