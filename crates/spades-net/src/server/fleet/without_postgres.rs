//! A build without PostgreSQL has no fleet: `Fleet` has no values, and
//! `start` says why, so the lobby's and the server's calls on one are
//! never made.

use super::{FleetOptions, Membership};
use crate::code::ServerAddress;
use crate::ladder::store::{Backend, PostgresUrl, StoreError};
use crate::protocol::lobby::ListedTable;

pub(crate) enum Fleet {}

/// The other nodes' tables: there are none.
pub(crate) struct OtherTables;

impl Fleet {
    /// Refused: the fleet's lobby is kept in PostgreSQL. (Reached only
    /// when the store below has PostgreSQL and this crate does not.)
    pub(crate) fn start(
        _url: &PostgresUrl,
        _server: Option<ServerAddress>,
        _options: FleetOptions,
    ) -> Result<Fleet, String> {
        Err(StoreError::NotBuiltIn(Backend::Postgres).to_string())
    }

    pub(crate) fn membership(&self) -> &Membership {
        match *self {}
    }

    pub(crate) fn publish(&self, _opened: u64, _table: &ListedTable) {
        match *self {}
    }

    pub(crate) fn withdraw(&self, _id: &str) {
        match *self {}
    }

    pub(crate) fn tables(&self) -> OtherTables {
        match *self {}
    }

    pub(crate) fn version(&self) -> u64 {
        match *self {}
    }

    pub(crate) fn wake_on_change(&self, _lobby: tokio::sync::watch::Sender<()>) {
        match *self {}
    }

    pub(crate) fn leave(&self) {
        match *self {}
    }
}

impl OtherTables {
    pub(crate) fn iter(&self) -> std::iter::Empty<(u64, &ListedTable)> {
        std::iter::empty()
    }
}
