//! The rough edges of online play, through the real binary: the code
//! `spades serve` prints can be pasted, `spades account show` only reads,
//! and a refusal gives its advice once.

use std::io::BufRead;

use predicates::prelude::*;
use spades::net::code::ServerAddress;
use support::game::spades;
use support::process::Reaped;

/// Listening on every address (the default), `spades serve` prints codes
/// with an address a player can give, not a word standing for one, and
/// a client reaches the server there.
#[test]
fn serve_prints_a_code_that_can_be_pasted() {
    let dir = tempfile::tempdir().unwrap();
    let child = std::process::Command::new(support::spades_bin())
        .args(["serve", "--port", "0"])
        .env("HOME", dir.path())
        .env("XDG_DATA_HOME", dir.path().join("data"))
        .env("XDG_CONFIG_HOME", dir.path().join("config"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut serve = Reaped(child);
    let out = std::io::BufReader::new(serve.0.stdout.take().unwrap());
    let mut said = Vec::new();
    for line in out.lines() {
        let line = line.unwrap();
        let done = line.starts_with("ladder:") || line.starts_with("Ctrl-C");
        said.push(line);
        if done {
            break;
        }
    }
    let text = said.join("\n");
    assert!(!text.contains("HOST"), "{text}");
    assert!(text.contains("listening on 0.0.0.0:"), "{text}");
    let code = said
        .iter()
        .find_map(|l| l.strip_prefix("the lobby: spades lobby "))
        .unwrap_or_else(|| panic!("no lobby line:\n{text}"));
    let server: ServerAddress = code.parse().unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert!(
        !server
            .host
            .parse::<std::net::IpAddr>()
            .unwrap()
            .is_unspecified(),
        "{text}"
    );
    // Where it says, a player is answered.
    let reached = std::net::TcpStream::connect(server.target().address);
    assert!(reached.is_ok(), "{reached:?}\n{text}");
    // And the note says the address is this machine's, listening on all.
    assert!(text.contains("listens on every address"), "{text}");
}

/// On a machine with no key yet, `show` says so and makes none, so the
/// player's own key is imported after it without `--force`.
#[test]
fn account_show_makes_no_key() {
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("data/spades/account.key");
    spades(&dir)
        .args(["account", "show"])
        .assert()
        .success()
        .stdout(predicate::str::contains("no key on this machine yet"))
        .stdout(predicate::str::contains("spades account import"));
    assert!(!key.exists(), "show made a key");
    let own = spades::ladder::keys::Identity::generate().unwrap();
    spades(&dir)
        .args(["account", "import", &own.export()])
        .assert()
        .success();
    let shown = spades(&dir).args(["account", "show"]).assert().success();
    let text = String::from_utf8_lossy(&shown.get_output().stdout).into_owned();
    let public = spades::protocol::account::hex(own.public_key().as_bytes());
    assert!(text.contains(&format!("public key: {public}")), "{text}");
}

/// A database of another program is refused with the advice to give
/// another once, saying how.
#[test]
fn a_foreign_database_is_refused_with_its_advice_once() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("notes.sqlite");
    rusqlite::Connection::open(&db)
        .unwrap()
        .execute_batch("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('hi');")
        .unwrap();
    spades(&dir)
        .args([
            "serve",
            "--port",
            "0",
            "--listen",
            "127.0.0.1",
            "--insecure-plain",
            "--db",
            "notes.sqlite",
        ])
        .timeout(std::time::Duration::from_secs(30))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("give another with --db"))
        .stderr(predicate::str::contains("(give another").not());
}
