use clap::Parser;

fn main() {
    let cli = spades::cli::Cli::parse();
    if let Err(e) = spades::cli::run(cli) {
        eprintln!("spades: {e}");
        std::process::exit(e.exit_code());
    }
}
