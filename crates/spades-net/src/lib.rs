//! Play over a connection, in the table protocol (`spades_formats::protocol`):
//! the table server (`server`) and the player's side of it (`client`),
//! apart; what both share is table codes and seat tokens (`code`), TLS with
//! pinned certificates (`tls`, `certificate`) and the connection's
//! keepalive. `docs/protocol.md` is the contract.

pub mod certificate;
pub mod client;
pub mod code;
pub mod server;
pub mod tls;

// The layers below, under the names the modules use.
use spades_core::{bots, engine};
use spades_formats::{config, fairness, naming, outside, paths, protocol, record};
use spades_store::{ladder, session, table};

use std::time::Duration;

/// How long a connection may be quiet before the operating system starts
/// probing it, and how often it probes then.
const KEEPALIVE_AFTER: Duration = Duration::from_secs(30);
#[cfg(any(target_os = "linux", target_os = "macos", target_os = "windows"))]
const KEEPALIVE_EVERY: Duration = Duration::from_secs(10);

/// Turns TCP keepalive on: a second line behind the protocol's `ping`, so a
/// peer that vanished without a word is found by the system too (the
/// socket then fails), even by a program that never pings. Best effort: a
/// system that refuses it still has the ping.
pub(crate) fn keep_alive(socket: &tokio::net::TcpStream) {
    let probes = socket2::TcpKeepalive::new().with_time(KEEPALIVE_AFTER);
    #[cfg(any(target_os = "linux", target_os = "macos", target_os = "windows"))]
    let probes = probes.with_interval(KEEPALIVE_EVERY);
    let _ = socket2::SockRef::from(socket).set_tcp_keepalive(&probes);
}
