//! Game records and what is read from them: the format's every line
//! frozen, the independent checker, the readers fed anything, the walk
//! through a record (`record::walk`), `spades verify`, and the statistics
//! and rating worked out from a records folder.
//!
//! One test binary (`cargo test --test records`); each module is one area.

// A test's helper that unwraps is part of the test: its panic is the
// test failing, with the value that failed it.
#![allow(clippy::unwrap_used)]

mod checker;
mod formats;
mod readers_fuzz;
mod stats;
mod verify;
mod walk;
