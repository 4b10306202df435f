use clap::Parser;

/// See `Cargo.toml`: memory freed goes back to the system.
#[cfg(target_os = "linux")]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

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
