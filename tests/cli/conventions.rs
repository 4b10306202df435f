//! The binary's conventions, generated from its clap definitions: shell
//! completions, the manual page, and a description for every command.

use clap::CommandFactory;
use spades::cli::Cli;
use support::game::spades;

/// Every command and subcommand, as the words typed to reach it
/// (`["account", "show"]`), clap's own `help` left out.
fn every_command() -> Vec<(Vec<String>, clap::Command)> {
    fn walk(path: &[String], cmd: &clap::Command, out: &mut Vec<(Vec<String>, clap::Command)>) {
        for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
            let mut here = path.to_vec();
            here.push(sub.get_name().to_string());
            out.push((here.clone(), sub.clone()));
            walk(&here, sub, out);
        }
    }
    let mut cli = Cli::command();
    cli.build();
    let mut out = Vec::new();
    walk(&[], &cli, &mut out);
    out
}

fn stdout_of(args: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let out = spades(&dir).args(args).assert().success();
    String::from_utf8(out.get_output().stdout.clone()).unwrap()
}

#[test]
fn every_command_and_subcommand_says_what_it_is_for() {
    let commands = every_command();
    assert!(
        commands.iter().any(|(path, _)| path.len() > 1),
        "the walk reaches nested commands: {:?}",
        commands.iter().map(|(p, _)| p).collect::<Vec<_>>()
    );
    let bare: Vec<String> = commands
        .iter()
        .filter(|(_, cmd)| {
            cmd.get_about()
                .is_none_or(|a| a.to_string().trim().is_empty())
        })
        .map(|(path, _)| path.join(" "))
        .collect();
    assert!(bare.is_empty(), "commands without a description: {bare:?}");
}

#[test]
fn bash_completions_name_every_subcommand() {
    let script = stdout_of(&["completions", "bash"]);
    assert!(script.contains("complete -F"), "{script}");
    for (path, _) in every_command() {
        let name = path.last().unwrap();
        assert!(
            script.contains(name.as_str()),
            "`{}` is missing from the bash completions",
            path.join(" ")
        );
    }
    // Flags complete too, not only commands.
    assert!(script.contains("--screen-reader"), "{script}");
}

#[test]
fn every_shell_gets_a_script_and_an_unknown_one_exits_2() {
    for shell in ["zsh", "fish", "powershell"] {
        let script = stdout_of(&["completions", shell]);
        assert!(script.contains("spades"), "{shell}: {script}");
        assert!(script.contains("ladder"), "{shell}: {script}");
    }
    let dir = tempfile::tempdir().unwrap();
    spades(&dir)
        .args(["completions", "tcsh"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("bash"));
}

#[test]
fn the_man_page_is_roff_naming_every_command() {
    let page = stdout_of(&["man"]);
    assert!(page.contains(".TH spades 1"), "{page}");
    assert!(page.contains(".SH NAME"), "{page}");
    assert!(page.contains(".SH SUBCOMMANDS"), "{page}");
    for (path, cmd) in every_command().iter().filter(|(p, _)| p.len() == 1) {
        let entry = format!("spades\\-{}(1)", path[0]);
        assert!(page.contains(&entry), "{entry} is missing:\n{page}");
        let about = cmd.get_about().unwrap().to_string();
        let first_words = about.split_whitespace().take(3).collect::<Vec<_>>();
        // As roff writes them: a hyphen and an apostrophe are escaped.
        let in_roff = first_words
            .join(" ")
            .replace('-', "\\-")
            .replace('\'', "\\*(Aq");
        assert!(
            page.contains(&in_roff),
            "the page does not say what `{}` is for:\n{page}",
            path[0]
        );
    }
    assert!(!page.contains("spades\\-help"), "{page}");
}

#[test]
fn man_dir_writes_a_page_for_every_command_and_subcommand() {
    let dir = tempfile::tempdir().unwrap();
    let pages = dir.path().join("man1");
    std::fs::create_dir(&pages).unwrap();
    spades(&dir)
        .args(["man", "--dir"])
        .arg(&pages)
        .assert()
        .success();
    assert!(pages.join("spades.1").is_file());
    for (path, _) in every_command() {
        let file = pages.join(format!("spades-{}.1", path.join("-")));
        let page =
            std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        assert!(page.contains(".SH NAME"), "{}", file.display());
    }
    // A folder that is not there is the user's to fix: exit 2, named.
    spades(&dir)
        .args(["man", "--dir", "no/such/folder"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("no/such/folder"));
}
