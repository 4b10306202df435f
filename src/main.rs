use std::io::Write;

use clap::Parser;

fn main() {
    let cli = spades::cli::Cli::parse();
    if let Err(e) = spades::cli::run(cli) {
        // Not `eprintln!`, which panics when stderr is gone (a closed
        // window): the exit code must still say what happened.
        let _ = writeln!(std::io::stderr(), "spades: {e}");
        std::process::exit(e.exit_code());
    }
}
