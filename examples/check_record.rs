//! Checks game records (formats 1 and 2) against the rules, independently of the
//! engine: `cargo run --release --example check_record -- FILE...`
//!
//! Prints `FILE: games N, hands H, errors E` per file and each error as
//! `FILE:LINE: what is wrong`. Exits 0 when every file is correct, 1 when
//! any error was found and 2 when a file could not be read.

use support::checker;

fn main() {
    let paths: Vec<String> = std::env::args().skip(1).collect();
    let code = checker::run_cli(&paths, &mut std::io::stdout().lock());
    std::process::exit(code);
}
