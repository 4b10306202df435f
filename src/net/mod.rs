//! Play over a connection: the table protocol's messages (`protocol`),
//! table codes and seat tokens (`code`), and TLS with pinned certificates
//! (`tls`), and the table server (`server`). `docs/protocol.md` is the
//! contract.

pub mod client;
pub mod code;
pub mod lobby;
pub mod protocol;
pub mod seat;
pub mod seats_kept;
pub mod server;
pub mod tls;
