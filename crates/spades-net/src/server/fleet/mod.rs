//! One lobby across servers: the nodes of a fleet (several `spades serve`
//! sharing one PostgreSQL ladder) each keep their public tables in the
//! shared database, and each lists the others' beside its own, every one
//! with a code naming the node that holds it.
//!
//! Two threads a node (`node`), each with its own connection: the writer
//! (`writer`) puts this node's tables in the store as they open, fill and
//! end, and beats the node's heart; the listener (`listener`) waits on
//! PostgreSQL's `LISTEN` for what the other nodes announce, and reads again
//! what changed into the fleet's view (`view`), which the server's lobby
//! merges into every listing. Nothing read from the store is believed as it
//! is: another node may be buggy or hostile (`view` checks and bounds it).

mod address;
// The fleet lives in PostgreSQL: a build without it has none.
#[cfg(feature = "postgres")]
mod node;
#[cfg(not(feature = "postgres"))]
mod without_postgres;

use std::time::Duration;

pub use address::PublicAddress;
pub(crate) use address::reached_at;
#[cfg(feature = "postgres")]
pub(crate) use node::Fleet;
#[cfg(not(feature = "postgres"))]
pub(crate) use without_postgres::Fleet;

/// How a node takes part in its fleet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FleetOptions {
    /// Where players reach this node, as the other nodes' lobbies name it
    /// in its tables' codes. `None`: the address it listens on, unless that
    /// is a wildcard (`0.0.0.0`): then its tables are listed by itself
    /// alone, since no address of it could be told.
    pub public_address: Option<PublicAddress>,
    /// How often a node says it is alive.
    pub heartbeat: Duration,
    /// A node not heard from for this long is taken as gone: its tables
    /// are no longer listed, and the first node to see it removes them.
    pub expiry: Duration,
}

impl Default for FleetOptions {
    fn default() -> FleetOptions {
        FleetOptions {
            public_address: None,
            heartbeat: Duration::from_secs(5),
            expiry: Duration::from_secs(20),
        }
    }
}

/// Whether this node's tables are listed by the other nodes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Membership {
    /// Under this server address (`FINGERPRINT@HOST:PORT`).
    Listed(String),
    /// Not: no address of it is known (listening on a wildcard, without
    /// `--public-address`). It still lists theirs.
    Unlisted,
}
