//! What stands for a PostgreSQL address in a build without PostgreSQL:
//! a type with no values, since none can be read (`parse` says why). A
//! `Database::Postgres` is never made, so the code that would use one
//! builds unchanged and is never run.

use std::fmt;

use super::{Backend, StoreError};

#[derive(Clone)]
pub enum PostgresUrl {}

impl PostgresUrl {
    /// Refuses every address, naming the feature that would read it.
    pub fn parse(_given: &str) -> Result<PostgresUrl, StoreError> {
        Err(StoreError::NotBuiltIn(Backend::Postgres))
    }
}

impl fmt::Display for PostgresUrl {
    fn fmt(&self, _: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {}
    }
}

impl fmt::Debug for PostgresUrl {
    fn fmt(&self, _: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {}
    }
}
