//! The table in the terminal, driven through the TUI's `App` with no
//! terminal: screens (snapshots in `snapshots/`), keys and clicks, the flow
//! of play, the dummy, secrets kept from the screen, the replay viewer, the
//! review of a hand, statistics, practice, saves taken up again, bots
//! thinking away from the table, and a server's lobby of tables.
//!
//! One test binary (`cargo test --test tui`); each module is one area.

// A test's helper that unwraps is part of the test: its panic is the
// test failing, with the value that failed it.
#![allow(clippy::unwrap_used)]

mod bid_cursor;
mod claim;
mod colours;
mod dummy;
mod eighty_columns;
mod flow;
mod full_disk;
mod game_over;
mod hand_review;
mod hint;
mod input;
mod lobby;
mod notices;
mod practice;
mod replay;
mod replay_analysis;
mod resume_moments;
mod screens;
mod secrets;
mod spoken_ask;
mod stats_window;
mod thinking;
mod top_bar;
mod trick_end;
mod turn_timer;
mod watch;
