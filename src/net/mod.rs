//! Play over a connection, in the table protocol (`crate::protocol`): table
//! codes and seat tokens (`code`), TLS with pinned certificates (`tls`),
//! the table server (`server`), and the player's side of it: the
//! connection (`client`), the lobby (`lobby`) and the seat at the game
//! (`seat`). `docs/protocol.md` is the contract.

pub mod client;
pub mod code;
pub mod lobby;
pub mod seat;
pub mod seats_kept;
pub mod server;
pub mod tls;
