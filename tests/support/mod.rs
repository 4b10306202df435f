//! Helpers shared by the integration tests: the independent record checker,
//! a writer for game records made from engine events, a driver for the
//! TUI without a terminal, the real binary in a pseudo-terminal, and the
//! configuration of every proptest.

// Each test crate uses a different part of these helpers.
#![allow(dead_code)]

pub mod checker;
pub mod game;
pub mod net;
pub mod played;
pub mod process;
pub mod proptest_seed;
pub mod pty;
pub mod record;
pub mod tui;
