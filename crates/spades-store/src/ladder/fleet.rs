//! The fleet's public tables in the shared PostgreSQL database: each node
//! (one `spades serve`) keeps a row of its own (`fleet_nodes`: where
//! players reach it, and when it was last heard from) and one row a public
//! table (`fleet_tables`: the table as the lobby lists it, in JSON). A
//! change is announced on the channel `CHANNEL` with `NOTIFY`, its payload
//! `NODE TABLE` (one table) or `NODE` (the whole node), so every node
//! reads again only what changed. Only the SQL is here: what the rows
//! mean, and whether they can be believed, is the server's (`net::server::
//! fleet`), as they come from other processes.

use std::time::Duration;

use postgres::Client;
use postgres::fallible_iterator::FallibleIterator;

use super::postgres::{backend, connect};
use super::store::{PostgresUrl, StoreError};

/// The channel every node listens on.
pub const CHANNEL: &str = "spades_fleet";

/// A node is alive while heard from within the expiry (`$1`, seconds),
/// by the database's clock, never a node's: nodes whose clocks disagree
/// still agree on who is silent.
const ALIVE: &str = "heard > now() - $1::float8 * interval '1 second'";

/// A node's row, as read (not yet believed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeRow {
    pub node: String,
    /// Where players reach it: `FINGERPRINT@HOST:PORT`.
    pub server: String,
}

/// A table's row, as read (not yet believed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableRow {
    pub node: String,
    pub table: String,
    /// When it opened, in milliseconds since the epoch by its node's clock.
    pub opened: i64,
    /// The table as the lobby lists it, in JSON.
    pub listing: String,
}

/// A node's change to one of its tables: listed as `listing`, or gone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TableChange {
    Listed { opened: i64, listing: String },
    Gone,
}

/// Whether a node's writing found its own row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Written {
    Done,
    /// The node's row is gone (swept as silent, or the database lost its
    /// unlogged tables): it must join again and write all its tables.
    NotJoined,
}

/// A connection of the fleet's, to the ladder's database (whose schema
/// the ladder's store has already brought up to date).
pub struct FleetStore {
    client: Client,
}

fn seconds(d: Duration) -> f64 {
    d.as_secs_f64()
}

impl FleetStore {
    pub fn open(url: &PostgresUrl) -> Result<FleetStore, StoreError> {
        Ok(FleetStore {
            client: connect(url)?,
        })
    }

    /// The database closed the connection (or the network broke it).
    pub fn is_closed(&self) -> bool {
        self.client.is_closed()
    }

    /// The node's row, made or made current, with `tables` (id, when it
    /// opened, listing) its tables and no others, in one transaction, and
    /// announced.
    pub fn join(
        &mut self,
        node: &str,
        server: &str,
        tables: &[(String, i64, String)],
    ) -> Result<(), StoreError> {
        let mut tx = self.client.transaction().map_err(backend)?;
        tx.execute(
            "INSERT INTO fleet_nodes (node, server, joined, heard) VALUES ($1, $2, now(), now())
             ON CONFLICT (node) DO UPDATE SET server = $2, heard = now()",
            &[&node, &server],
        )
        .map_err(backend)?;
        tx.execute("DELETE FROM fleet_tables WHERE node = $1", &[&node])
            .map_err(backend)?;
        for (table, opened, listing) in tables {
            tx.execute(
                "INSERT INTO fleet_tables (node, table_id, opened, listing) VALUES ($1, $2, $3, $4)",
                &[&node, table, opened, listing],
            )
            .map_err(backend)?;
        }
        notify(&mut tx, node)?;
        tx.commit().map_err(backend)
    }

    /// The node is heard from: its row's time is now.
    pub fn beat(&mut self, node: &str) -> Result<Written, StoreError> {
        let updated = self
            .client
            .execute(
                "UPDATE fleet_nodes SET heard = now() WHERE node = $1",
                &[&node],
            )
            .map_err(backend)?;
        Ok(if updated == 0 {
            Written::NotJoined
        } else {
            Written::Done
        })
    }

    /// The node's tables changed: written in one transaction, each
    /// announced (the announcements go out when it commits).
    pub fn write(
        &mut self,
        node: &str,
        changes: &[(String, TableChange)],
    ) -> Result<Written, StoreError> {
        let mut tx = self.client.transaction().map_err(backend)?;
        let heard = tx
            .execute(
                "UPDATE fleet_nodes SET heard = now() WHERE node = $1",
                &[&node],
            )
            .map_err(backend)?;
        if heard == 0 {
            return Ok(Written::NotJoined);
        }
        for (table, change) in changes {
            match change {
                TableChange::Listed { opened, listing } => tx.execute(
                    "INSERT INTO fleet_tables (node, table_id, opened, listing)
                     VALUES ($1, $2, $3, $4)
                     ON CONFLICT (node, table_id) DO UPDATE SET listing = $4",
                    &[&node, table, opened, listing],
                ),
                TableChange::Gone => tx.execute(
                    "DELETE FROM fleet_tables WHERE node = $1 AND table_id = $2",
                    &[&node, table],
                ),
            }
            .map_err(backend)?;
            notify(&mut tx, &format!("{node} {table}"))?;
        }
        tx.commit().map_err(backend)?;
        Ok(Written::Done)
    }

    /// The node stops: its row and its tables go, and that is announced.
    pub fn leave(&mut self, node: &str) -> Result<(), StoreError> {
        let mut tx = self.client.transaction().map_err(backend)?;
        tx.execute("DELETE FROM fleet_nodes WHERE node = $1", &[&node])
            .map_err(backend)?;
        notify(&mut tx, node)?;
        tx.commit().map_err(backend)
    }

    /// Removes the nodes not heard from within `expiry` (their tables
    /// with them), announcing each; which they were.
    pub fn sweep(&mut self, expiry: Duration) -> Result<Vec<String>, StoreError> {
        let mut tx = self.client.transaction().map_err(backend)?;
        let rows = tx
            .query(
                "DELETE FROM fleet_nodes WHERE heard <= now() - $1::float8 * interval '1 second'
                 RETURNING node",
                &[&seconds(expiry)],
            )
            .map_err(backend)?;
        let gone: Vec<String> = rows
            .iter()
            .map(|row| row.try_get(0).map_err(backend))
            .collect::<Result<_, _>>()?;
        for node in &gone {
            notify(&mut tx, node)?;
        }
        tx.commit().map_err(backend)?;
        Ok(gone)
    }

    /// From now on, the fleet's announcements reach this connection.
    pub fn listen(&mut self) -> Result<(), StoreError> {
        self.client
            .batch_execute(&format!("LISTEN {CHANNEL}"))
            .map_err(backend)
    }

    /// The nodes heard from within `expiry`, at most `most`, those that
    /// joined first first; a `server` longer than `longest` bytes is never
    /// read.
    pub fn nodes(
        &mut self,
        expiry: Duration,
        most: usize,
        longest: usize,
    ) -> Result<Vec<NodeRow>, StoreError> {
        let sql = format!(
            "SELECT node, server FROM fleet_nodes
             WHERE {ALIVE} AND octet_length(server) <= $2::bigint
             ORDER BY joined, node LIMIT $3"
        );
        let rows = self
            .client
            .query(&sql, &[&seconds(expiry), &as_i64(longest), &as_i64(most)])
            .map_err(backend)?;
        rows.iter()
            .map(|row| {
                Ok(NodeRow {
                    node: row.try_get(0).map_err(backend)?,
                    server: row.try_get(1).map_err(backend)?,
                })
            })
            .collect()
    }

    /// The tables of `node` (all of them when `only` is `None`, else those
    /// named), at most `most`, the first opened first; a listing longer
    /// than `longest` bytes is never read.
    pub fn tables(
        &mut self,
        node: &str,
        only: Option<&[String]>,
        most: usize,
        longest: usize,
    ) -> Result<Vec<TableRow>, StoreError> {
        let rows = self
            .client
            .query(
                "SELECT node, table_id, opened, listing FROM fleet_tables
                 WHERE node = $1 AND ($2::text[] IS NULL OR table_id = ANY($2))
                   AND octet_length(listing) <= $3::bigint
                 ORDER BY opened, table_id LIMIT $4",
                &[&node, &only, &as_i64(longest), &as_i64(most)],
            )
            .map_err(backend)?;
        rows.iter()
            .map(|row| {
                Ok(TableRow {
                    node: row.try_get(0).map_err(backend)?,
                    table: row.try_get(1).map_err(backend)?,
                    opened: row.try_get(2).map_err(backend)?,
                    listing: row.try_get(3).map_err(backend)?,
                })
            })
            .collect()
    }

    /// The announcements that came: waits up to `wait` for the first,
    /// then takes at most `most` of those already here. An error when
    /// the connection is lost.
    pub fn announcements(
        &mut self,
        wait: Duration,
        most: usize,
    ) -> Result<Vec<String>, StoreError> {
        let mut got = Vec::new();
        let mut notifications = self.client.notifications();
        if let Some(first) = notifications.timeout_iter(wait).next().map_err(backend)? {
            got.push(first.payload().to_string());
        }
        while got.len() < most {
            match notifications.iter().next().map_err(backend)? {
                Some(n) => got.push(n.payload().to_string()),
                None => break,
            }
        }
        drop(notifications);
        if got.is_empty() && self.client.is_closed() {
            return Err(StoreError::Backend("the connection was closed".into()));
        }
        Ok(got)
    }
}

fn notify(tx: &mut postgres::Transaction, payload: &str) -> Result<(), StoreError> {
    tx.execute("SELECT pg_notify($1, $2)", &[&CHANNEL, &payload])
        .map(|_| ())
        .map_err(backend)
}

fn as_i64(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}
