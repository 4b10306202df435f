//! The ladder's database as `spades serve` opens it: a damaged SQLite file
//! refused by name, and a PostgreSQL address taken from the environment.

use predicates::prelude::*;
use support::game::spades;

/// A ladder file damaged inside (its header whole, a table's page
/// overwritten) is refused at start by SQLite's quick check: exit 2,
/// naming the file, before the server listens or writes to it.
#[test]
fn a_damaged_ladder_file_exits_2_naming_it() {
    use spades::ladder::UnixTime;
    use spades::ladder::keys::Identity;
    use spades::ladder::names::Name;
    use spades::ladder::sqlite::SqliteStore;
    use spades::ladder::store::Store;

    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("ladder.sqlite");
    {
        let mut store = SqliteStore::open(&db).unwrap();
        for n in 0..300 {
            let key = Identity::generate().unwrap().public_key();
            let name = Name::new(&format!("player{n}")).unwrap();
            store.register(&name, &key, UnixTime(n)).unwrap();
        }
    }
    let (root, page_size): (i64, i64) = {
        let conn = rusqlite::Connection::open(&db).unwrap();
        let root = conn
            .query_row(
                "SELECT rootpage FROM sqlite_master WHERE name = 'accounts'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        let size = conn
            .pragma_query_value(None, "page_size", |r| r.get(0))
            .unwrap();
        (root, size)
    };
    let mut bytes = std::fs::read(&db).unwrap();
    let at = usize::try_from((root - 1) * page_size).unwrap();
    bytes[at..at + 64].fill(0xab);
    std::fs::write(&db, &bytes).unwrap();
    spades(&dir)
        .args([
            "serve",
            "--port",
            "0",
            "--listen",
            "127.0.0.1",
            "--insecure-plain",
        ])
        .args(["--db", "ladder.sqlite"])
        .timeout(std::time::Duration::from_secs(30))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("ladder.sqlite is damaged"));
    assert_eq!(std::fs::read(&db).unwrap(), bytes, "nothing was written");
}

/// `--db-env VAR` reads the PostgreSQL address from the environment (its
/// password never on the command line): the address is the variable's,
/// and a variable unset or holding no address is bad input, named.
#[test]
fn the_ladders_address_may_come_from_an_environment_variable() {
    let dir = tempfile::tempdir().unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .unwrap()
        .port();
    let nobody = format!("postgres://ann:hunter2@127.0.0.1:{port}/ladder");
    for (value, says) in [
        (
            Some(nobody.as_str()),
            format!("cannot open the PostgreSQL database postgres://ann@127.0.0.1:{port}/ladder"),
        ),
        (
            None,
            "--db-env SPADES_TEST_LADDER: the variable is not set".to_string(),
        ),
        (
            Some("ladder.sqlite"),
            "--db-env SPADES_TEST_LADDER: it does not hold a PostgreSQL address".to_string(),
        ),
    ] {
        let mut command = spades(&dir);
        command.env_remove("SPADES_TEST_LADDER");
        if let Some(value) = value {
            command.env("SPADES_TEST_LADDER", value);
        }
        command
            .args([
                "serve",
                "--port",
                "0",
                "--listen",
                "127.0.0.1",
                "--insecure-plain",
            ])
            .args(["--db-env", "SPADES_TEST_LADDER"])
            .timeout(std::time::Duration::from_secs(30))
            .assert()
            .code(2)
            .stderr(predicate::str::contains(says))
            .stderr(predicate::str::contains("hunter2").not());
    }
}
