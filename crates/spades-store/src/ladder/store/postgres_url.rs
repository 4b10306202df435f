//! A PostgreSQL connection address, as `--db` gives it: checked when
//! read, and never shown with its password.

use std::fmt;
use std::str::FromStr;

use super::StoreError;

/// The longest PostgreSQL address taken: an address is a few dozen
/// characters, and this one comes from the command line.
const MAX_ADDRESS: usize = 1024;

/// A PostgreSQL connection address, checked. Shown (and debugged)
/// without its password.
#[derive(Clone)]
pub struct PostgresUrl {
    // Boxed: the settings are large, and errors carry the address.
    config: Box<postgres::Config>,
    shown: String,
}

impl PostgresUrl {
    pub fn parse(given: &str) -> Result<PostgresUrl, StoreError> {
        if given.len() > MAX_ADDRESS {
            return Err(StoreError::BadAddress(format!(
                "the PostgreSQL address is longer than {MAX_ADDRESS} characters"
            )));
        }
        let config = postgres::Config::from_str(given).map_err(|e| {
            // The address itself is not repeated: it may hold a password.
            StoreError::BadAddress(format!(
                "not a PostgreSQL address ({}): expected postgres://USER@HOST:PORT/DATABASE",
                with_cause(&e)
            ))
        })?;
        if config.get_hosts().is_empty() {
            return Err(StoreError::BadAddress(
                "the PostgreSQL address names no host: expected postgres://USER@HOST:PORT/DATABASE"
                    .into(),
            ));
        }
        Ok(PostgresUrl {
            shown: shown(&config),
            config: Box::new(config),
        })
    }

    /// The connection's settings, password included.
    pub fn config(&self) -> &postgres::Config {
        &self.config
    }
}

/// An error and what caused it: the PostgreSQL client's own words are
/// often only the first half ("invalid connection string").
pub(crate) fn with_cause(e: &dyn std::error::Error) -> String {
    match e.source() {
        Some(cause) => format!("{e}: {cause}"),
        None => e.to_string(),
    }
}

/// `postgres://USER@HOST:PORT/DATABASE`, whatever password was given.
fn shown(config: &postgres::Config) -> String {
    let hosts: Vec<String> = config
        .get_hosts()
        .iter()
        .map(|host| match host {
            postgres::config::Host::Tcp(name) => name.clone(),
            postgres::config::Host::Unix(dir) => dir.display().to_string(),
        })
        .collect();
    let port = config
        .get_ports()
        .first()
        .map(|p| format!(":{p}"))
        .unwrap_or_default();
    let user = config
        .get_user()
        .map(|u| format!("{u}@"))
        .unwrap_or_default();
    let db = config.get_dbname().unwrap_or_default();
    crate::outside::clean(&format!("postgres://{user}{}{port}/{db}", hosts.join(",")))
}

impl fmt::Display for PostgresUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.shown)
    }
}

impl fmt::Debug for PostgresUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.shown)
    }
}
