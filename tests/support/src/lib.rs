//! What the integration tests (and the examples) share, compiled once as a
//! crate of its own: the independent record checker, games and records
//! made on the real table, a game there with a person whose every move the
//! test makes, a client of the table protocol, a driver for the TUI without
//! a terminal, the real binary in a pseudo-terminal or by ear through
//! pipes, and the configuration of every proptest.
//!
//! The tests name it `support` (`[dev-dependencies]` in the root
//! `Cargo.toml`). It is compiled apart from the tests, where cargo's
//! `env!("CARGO_BIN_EXE_spades")` is not defined: `spades_bin` finds the
//! binary when the test runs.

use std::path::PathBuf;

pub mod account;
pub mod by_ear;
pub mod checker;
pub mod disk;
pub mod game;
pub mod load;
pub mod net;
pub mod played;
pub mod process;
pub mod proptest_seed;
pub mod pty;
pub mod record;
pub mod schema;
pub mod sitting;
pub mod tui;

/// The bot `spec` names (`"normal"`, `"hard@40"`), at its usual budget
/// unless it gives one, or why there is none.
pub fn bot(spec: &str) -> Result<Box<dyn spades::bots::Bot>, String> {
    let spec: spades::bots::BotSpec = spec.parse().map_err(|e| format!("{e}"))?;
    Ok(spades::table::seat_bot(
        &spec,
        spades::bots::Effort::Usual,
        spades::table::exec::DEFAULT_TIMEOUT,
    ))
}

/// Every level's name, weakest first.
pub fn level_names() -> Vec<&'static str> {
    spades::bots::Level::ALL.iter().map(|l| l.name()).collect()
}

/// The `spades` binary under test. Cargo builds it for the package's
/// integration tests and names it in `CARGO_BIN_EXE_spades`, in the
/// environment of a running test as well as when the test is compiled;
/// found beside the test's own binary (`target/debug/deps/..`) otherwise.
/// Panics when it is in neither place.
pub fn spades_bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("spades")
}
