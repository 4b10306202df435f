//! What keeps a server up for strangers on the internet: what one
//! connection may make it hold is bounded in bytes, and connections that
//! sit idle are let go. Each test runs a real `spades serve` (its memory
//! is its own) or a server of its own on loopback.

use std::io::{BufRead, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

/// `spades serve` on a free loopback port, plain; where it listens.
fn spades_serve(extra: &[&str]) -> (support::process::Reaped, SocketAddr) {
    let serve = std::process::Command::new(env!("CARGO_BIN_EXE_spades"))
        .args([
            "serve",
            "--listen",
            "127.0.0.1",
            "--port",
            "0",
            "--insecure-plain",
        ])
        .args(extra)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut serve = support::process::Reaped(serve);
    let mut said = std::io::BufReader::new(serve.0.stdout.take().unwrap());
    let mut line = String::new();
    let address = loop {
        line.clear();
        assert!(said.read_line(&mut line).unwrap() > 0, "serve said nothing");
        if let Some(at) = line.split("listening on ").nth(1) {
            break at.split_whitespace().next().unwrap().parse().unwrap();
        }
    };
    (serve, address)
}

/// A process's resident memory in KiB, as the kernel counts it.
fn resident_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// A connection that has said hello (and reads nothing).
fn said_hello(address: SocketAddr) -> TcpStream {
    let mut stream = TcpStream::connect(address).unwrap();
    stream
        .write_all(b"{\"type\":\"hello\",\"protocol\":1,\"name\":\"Mallory\"}\n")
        .unwrap();
    stream
}

/// Says hello, then sends a bad message of nearly the longest line 45
/// times a second (under the flood limit) for `time`, and never reads.
fn never_reads(address: SocketAddr, time: Duration) -> TcpStream {
    let mut stream = said_hello(address);
    let bad = format!("{{\"type\":\"{}\"}}\n", "A".repeat(60_000));
    let end = Instant::now() + time;
    while Instant::now() < end {
        if stream.write_all(bad.as_bytes()).is_err() {
            break; // let go by the server: what the bound is for
        }
        std::thread::sleep(Duration::from_millis(1000 / 45));
    }
    stream
}

/// Eight connections that send and never read cannot make the server hold
/// what it would answer them: its memory stays within 30 MB of idle.
/// (Each error used to repeat the 60 KB line, and a connection's queue
/// held 1,024 of them.)
#[test]
fn clients_that_never_read_cannot_grow_the_servers_memory() {
    let (serve, address) = spades_serve(&[]);
    let pid = serve.0.id();
    std::thread::sleep(Duration::from_millis(300));
    let idle = resident_kib(pid);
    let attackers: Vec<_> = (0..8)
        .map(|_| std::thread::spawn(move || never_reads(address, Duration::from_secs(5))))
        .collect();
    let held: Vec<TcpStream> = attackers.into_iter().map(|a| a.join().unwrap()).collect();
    let grown = resident_kib(pid).saturating_sub(idle);
    assert!(
        grown < 30 * 1024,
        "the server grew by {grown} KiB from {idle} KiB idle"
    );
    drop(held);
}
