//! Helpers shared by the integration tests: the independent record checker,
//! a writer for game records made from engine events, and a driver for the
//! TUI without a terminal.

// Each test crate uses a different part of these helpers.
#![allow(dead_code)]

pub mod checker;
pub mod record;
pub mod tui;
