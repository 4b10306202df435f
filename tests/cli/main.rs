//! The real binary, run as a player or a script runs it: its commands and
//! their errors, `hard`'s budgets, the presets, `spades history`,
//! `spades replay` and `spades sim`, and the table in a real
//! pseudo-terminal (a whole hand, resuming after `kill -9`, every way out).
//!
//! One test binary (`cargo test --test cli`); each module is one area.

// A test's helper that unwraps is part of the test: its panic is the
// test failing, with the value that failed it.
#![allow(clippy::unwrap_used)]

mod analyze;
mod commands;
mod conventions;
mod edges;
mod escapes;
mod full_disk;
mod hard;
mod history;
mod ladder_db;
mod presets;
mod replay;
mod replay_by_ear;
mod resume;
mod screen_reader;
mod sim;
mod sim_exec;
mod tui_e2e;
mod tui_exit;
