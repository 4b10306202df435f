//! Play over a connection, in the table protocol (`crate::protocol`): table
//! codes and seat tokens (`code`), TLS with pinned certificates (`tls`),
//! the table server (`server`), and the player's side of it: the
//! connection (`client`), the server's lobby of public tables and quick
//! match (`directory`), a table's lobby (`lobby`) and the seat at the game
//! (`seat`). `docs/protocol.md` is the contract.

pub mod account;
pub mod certificate;
pub mod client;
pub mod code;
pub mod directory;
pub mod lobby;
pub mod lost;
mod rejoin;
pub mod seat;
pub mod seats_kept;
pub mod server;
pub mod table_facts;
pub mod tls;
pub mod watch;

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
