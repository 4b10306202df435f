use clap::Parser;

fn main() {
    let cli = spades::cli::Cli::parse();
    if let Err(e) = spades::cli::run(cli) {
        // An error may quote a record or a server: escaped. Not
        // `eprintln!`, which panics when stderr is gone (a closed window):
        // the exit code must still say what happened.
        spades::cli::tell(&e.to_string());
        std::process::exit(e.exit_code());
    }
}
