//! Play over the network and with programs of one's own: every message of
//! the protocol frozen, the table server on loopback, hostile clients, two
//! screens at one shared table, secrets kept on the wire, `spades host` and
//! `spades join` in pseudo-terminals, and bots in another process.
//!
//! One test binary (`cargo test --test net`); each module is one area.

// A test's helper that unwraps is part of the test: its panic is the
// test failing, with the value that failed it.
#![allow(clippy::unwrap_used)]

mod bot_schema;
mod bounds;
mod by_ear;
mod chat;
mod e2e;
mod edges;
mod ending;
mod external_bot;
mod follow;
mod formats;
mod fuzz_messages;
mod hostile;
mod identity;
mod ladder;
mod ladder_outbox;
mod limits;
mod liveness;
mod lobby;
mod lobby_home;
mod lying_host;
mod mine;
mod play;
mod quick_table;
mod rated;
mod rotation;
mod secrets;
mod server;
mod turn_timer;
mod watch;
mod weak_keys;
