//! What a command-line program is expected to ship beside itself: shell
//! completions and a manual page. Both are generated from the same clap
//! definitions that parse the arguments, so they cannot drift from them.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, CommandFactory};
use clap_complete::Shell;

use super::{Cli, CliError, cannot_write};

/// The program's name as the shell and the manual know it.
const NAME: &str = "spades";

#[derive(Debug, Clone, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for
    #[arg(value_enum)]
    pub shell: Shell,
}

#[derive(Debug, Clone, Args)]
pub struct ManArgs {
    /// Write a page for every command and subcommand (spades.1,
    /// spades-account.1, ...) into this folder, instead of printing the
    /// main page
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// The command line as clap sees it, ready for the generators: `help` is
/// clap's own and has no page or completion worth its name.
fn command() -> clap::Command {
    Cli::command().name(NAME).disable_help_subcommand(true)
}

/// `spades completions SHELL`: the completion script on standard output.
pub fn completions(args: &CompletionsArgs) -> Result<(), CliError> {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command(), NAME, &mut script);
    print(&script)
}

/// `spades man`: the roff page on standard output, or every page in a folder.
pub fn man(args: &ManArgs) -> Result<(), CliError> {
    match &args.dir {
        Some(dir) => clap_mangen::generate_to(command(), dir)
            .map_err(|e| CliError::BadInput(cannot_write(&dir.join("spades.1"), &e))),
        None => {
            let mut page = Vec::new();
            clap_mangen::Man::new(command())
                .render(&mut page)
                .map_err(|e| CliError::Failed(format!("cannot make the manual page: {e}")))?;
            print(&page)
        }
    }
}

/// Writes generated text as it is. Not `say`, which escapes what came from
/// outside: this text is the program's own, and a script must stay intact.
fn print(bytes: &[u8]) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(CliError::Failed(format!("cannot write to the output: {e}")))
        }
        _ => Ok(()),
    }
}
