//! The PostgreSQL store against a real PostgreSQL, a server of the test's
//! own (`temp_postgres`).

use std::process::Command;

use super::keys::Identity;
use super::names::Name;
use super::postgres::{MIGRATIONS, PostgresStore};
use super::store::{AccountId, Occupant, PostgresUrl, RecordHash, Store, StoreError};
use super::temp_postgres::{SUPERUSER, TempPostgres, free_port};
use super::tests::store_keeps_its_word;
use super::{FinishedGame, LadderError, UnixTime, rate_game};
use crate::engine::Mode;

#[test]
fn the_postgres_store_keeps_its_word() {
    let Some(mut server) = TempPostgres::start() else {
        return;
    };
    store_keeps_its_word(|| {
        let url = server.fresh_database();
        PostgresStore::open(&url).expect("a fresh store")
    });
}

/// A database of the first schema, with a rated game in it, is brought
/// to the latest and the people each player met are counted from it.
#[test]
fn a_postgres_database_of_the_first_schema_migrates_with_its_rows() {
    let Some(mut server) = TempPostgres::start() else {
        return;
    };
    let url = server.fresh_database();
    let database = url.config().get_dbname().expect("a name").to_string();
    server
        .client(&database)
        .batch_execute(&format!(
            "{}
             CREATE TABLE spades_schema (version BIGINT NOT NULL);
             INSERT INTO spades_schema (version) VALUES (1);
             INSERT INTO accounts (name, folded, public_key, registered)
                VALUES ('One', 'one', '\\x01', 7), ('Two', 'two', '\\x02', 7),
                       ('Three', 'three', '\\x03', 7);
             INSERT INTO games (mode, record_hash, finished)
                VALUES ('partnership', '\\x09', 8);
             INSERT INTO seats (game, seat, account, bot, score, left_early)
                VALUES (1, 0, 1, NULL, 500, false), (1, 1, 2, NULL, 200, false),
                       (1, 2, 3, NULL, 500, false), (1, 3, NULL, 'normal', 200, false);
             INSERT INTO ratings (account, mode, rating, deviation, volatility, games)
                VALUES (1, 'partnership', 1600, 300, 0.06, 1),
                       (2, 'partnership', 1400, 300, 0.06, 1),
                       (3, 'partnership', 1600, 300, 0.06, 1);",
            MIGRATIONS[0]
        ))
        .expect("the first schema");
    let mut store = PostgresStore::open(&url).expect("migrated");
    let opponents = [1, 2, 3].map(|id| {
        store
            .standing(AccountId(id), Mode::Partnership)
            .expect("read")
            .opponents
    });
    assert_eq!(opponents, [1, 2, 1], "Two sat against both");
}

#[test]
fn a_postgres_database_not_a_ladder_of_ours_is_refused_by_name() {
    let Some(mut server) = TempPostgres::start() else {
        return;
    };
    // A database of a newer spades.
    let url = server.fresh_database();
    drop(PostgresStore::open(&url).expect("made"));
    let database = url.config().get_dbname().expect("a name").to_string();
    server
        .client(&database)
        .batch_execute("UPDATE spades_schema SET version = 99")
        .expect("set");
    let e = PostgresStore::open(&url).err().expect("refused");
    assert!(
        matches!(e, StoreError::Newer { found: 99, known, .. } if known == MIGRATIONS.len() as i64),
        "{e}"
    );
    assert!(e.to_string().contains(&url.to_string()), "{e}");
    // A database of another program.
    let url = server.fresh_database();
    let database = url.config().get_dbname().expect("a name").to_string();
    server
        .client(&database)
        .batch_execute("CREATE TABLE photos (id BIGINT PRIMARY KEY)")
        .expect("made");
    let e = PostgresStore::open(&url).err().expect("refused");
    assert!(matches!(e, StoreError::Foreign(_)), "{e}");
    // Opened twice (two servers), a ladder is made once and kept.
    let url = server.fresh_database();
    let mut first = PostgresStore::open(&url).expect("made");
    let name = Name::new("Ada").expect("a name");
    let key = Identity::generate().expect("a key").public_key();
    first
        .register(&name, &key, UnixTime(1))
        .expect("registered");
    let mut second = PostgresStore::open(&url).expect("opened again");
    assert!(second.account_by_name("ada").expect("read").is_some());
    // No server at the address: named, and said soon.
    let nowhere = PostgresUrl::parse(&format!(
        "postgres://{SUPERUSER}:secret@127.0.0.1:{}/nothing",
        free_port()
    ))
    .expect("an address");
    let e = PostgresStore::open(&nowhere).err().expect("refused");
    assert!(matches!(e, StoreError::CannotOpen { .. }), "{e}");
    let said = e.to_string();
    assert!(
        said.contains("127.0.0.1") && !said.contains("secret"),
        "{said}"
    );
}

/// Two servers sharing one ladder rate games of the same players at
/// once, each rating again what was refused as stale: every player's
/// history is one chain, each game's `before` the previous one's `after`,
/// so no game was rated from a rating another had already moved on.
#[test]
fn two_servers_sharing_a_ladder_never_rate_from_one_old_rating() {
    let Some(mut server) = TempPostgres::start() else {
        return;
    };
    let url = server.fresh_database();
    let mut store = PostgresStore::open(&url).expect("made");
    let players: Vec<_> = ["Ada", "Bea", "Cyd", "Dee"]
        .iter()
        .map(|name| {
            let key = Identity::generate().expect("a key").public_key();
            let name = Name::new(name).expect("a name");
            store
                .register(&name, &key, UnixTime(1))
                .expect("registered")
                .id
        })
        .collect();
    const GAMES: u8 = 15;
    let stale_seen: usize = std::thread::scope(|scope| {
        let servers: Vec<_> = [0u8, 1]
            .into_iter()
            .map(|server| {
                let (url, players) = (&url, &players);
                scope.spawn(move || {
                    let mut store = PostgresStore::open(url).expect("opened");
                    let mut stale = 0;
                    for n in 0..GAMES {
                        let mut record = [0; 32];
                        record[..2].copy_from_slice(&[server, n]);
                        // One finishing time for all: a history is then
                        // in the order the games were written.
                        let game = FinishedGame {
                            mode: Mode::Partnership,
                            record: RecordHash(record),
                            finished: UnixTime(100),
                            seats: players
                                .iter()
                                .enumerate()
                                .map(|(i, &p)| {
                                    (
                                        Occupant::Player(p),
                                        if (i + usize::from(n)) % 2 == 0 {
                                            500
                                        } else {
                                            200
                                        },
                                        false,
                                    )
                                })
                                .collect(),
                        };
                        loop {
                            match rate_game(&mut store, &game) {
                                Ok(_) => break,
                                Err(LadderError::Store(StoreError::Stale)) => stale += 1,
                                Err(e) => panic!("server {server}: {e}"),
                            }
                        }
                    }
                    stale
                })
            })
            .collect();
        servers
            .into_iter()
            .map(|s| s.join().expect("a server"))
            .sum()
    });
    eprintln!("games refused as stale and rated again: {stale_seen}");
    for &player in &players {
        let history = store.history(player, Mode::Partnership).expect("history");
        assert_eq!(history.len(), 2 * usize::from(GAMES));
        for pair in history.windows(2) {
            assert_eq!(pair[1].before, pair[0].after, "rated from an old rating");
        }
        let standing = store.standing(player, Mode::Partnership).expect("standing");
        assert_eq!(standing.games as usize, history.len());
        assert_eq!(Some(standing.rating), history.last().map(|h| h.after));
    }
}

/// Where the child of `a_password_from_the_environment_or_pgpass_signs_in`
/// connects, and whether it must be let in.
const CHILD_URL: &str = "SPADES_PG_PASSWORD_CHILD_URL";
const CHILD_LET_IN: &str = "SPADES_PG_PASSWORD_CHILD_LET_IN";
const PASSWORD_CHILD: &str = "ladder::postgres_tests::password_child";

/// A role that must give its password: the address names none, and the
/// store finds it as libpq would, in `PGPASSWORD` or the password file
/// (one others may read is not used). Each try is a process of its own,
/// with the environment it is given.
#[test]
fn a_password_from_the_environment_or_pgpass_signs_in() {
    let Some(server) = TempPostgres::start() else {
        return;
    };
    let mut postgres = server.client("postgres");
    for sql in [
        "CREATE ROLE ann LOGIN PASSWORD 'hunter2'",
        "CREATE DATABASE ann_ladder OWNER ann",
    ] {
        postgres.batch_execute(sql).expect("a role with a password");
    }
    let hba = server.data().join("pg_hba.conf");
    let rules = std::fs::read_to_string(&hba).expect("pg_hba.conf");
    std::fs::write(
        &hba,
        format!("host all ann 127.0.0.1/32 scram-sha-256\n{rules}"),
    )
    .expect("written");
    server.run(
        "pg_ctl",
        &["reload".as_ref(), "-D".as_ref(), server.data().as_os_str()],
    );
    let url = format!("postgres://ann@127.0.0.1:{}/ann_ladder", server.port);
    let home = tempfile::tempdir().expect("a home");
    let pgpass = home.path().join("pass");
    let line = format!("# the test's\n127.0.0.1:{}:*:ann:hunter2\n", server.port);
    std::fs::write(&pgpass, line).expect("written");
    std::fs::set_permissions(&pgpass, std::os::unix::fs::PermissionsExt::from_mode(0o600))
        .expect("made private");
    let try_with = |env: &[(&str, &std::ffi::OsStr)], let_in: bool| {
        let mut child = Command::new(std::env::current_exe().expect("the test binary"));
        child
            .args([PASSWORD_CHILD, "--exact", "--nocapture", "--test-threads=1"])
            .env_remove("PGPASSWORD")
            .env_remove("PGPASSFILE")
            .env("HOME", home.path())
            .env(CHILD_URL, &url)
            .env(CHILD_LET_IN, if let_in { "1" } else { "0" });
        for (key, value) in env {
            child.env(key, value);
        }
        let out = child.output().expect("the child runs");
        let said = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && said.contains("1 passed"),
            "{env:?}: {said}{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    try_with(&[], false);
    try_with(&[("PGPASSWORD", "hunter2".as_ref())], true);
    try_with(&[("PGPASSWORD", "wrong".as_ref())], false);
    try_with(&[("PGPASSFILE", pgpass.as_os_str())], true);
    // ~/.pgpass when PGPASSFILE is not set.
    std::fs::copy(&pgpass, home.path().join(".pgpass")).expect("copied");
    try_with(&[], true);
    std::fs::set_permissions(
        home.path().join(".pgpass"),
        std::os::unix::fs::PermissionsExt::from_mode(0o644),
    )
    .expect("made readable to all");
    try_with(&[], false);
}

/// The child: opens the store at `CHILD_URL`, let in or not as told.
#[test]
fn password_child() {
    let Ok(url) = std::env::var(CHILD_URL) else {
        return;
    };
    let let_in = std::env::var(CHILD_LET_IN).is_ok_and(|v| v == "1");
    let url = PostgresUrl::parse(&url).expect("an address");
    let opened = PostgresStore::open(&url);
    assert_eq!(opened.is_ok(), let_in, "{:?}", opened.err());
}
