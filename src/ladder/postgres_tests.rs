//! The PostgreSQL store against a real PostgreSQL: a server of its own,
//! made by `initdb` in a temporary folder, listening on loopback at a free
//! port, and stopped when the test ends (a panic too). Where PostgreSQL
//! is not installed these tests say so loudly and pass, unless
//! `SPADES_REQUIRE_POSTGRES=1` (as CI sets) makes that a failure.

use std::io::Write;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Command, Output};

use super::keys::Identity;
use super::names::Name;
use super::postgres::{MIGRATIONS, PostgresStore};
use super::store::{AccountId, Occupant, PostgresUrl, RecordHash, Store, StoreError};
use super::tests::store_keeps_its_word;
use super::{FinishedGame, LadderError, UnixTime, rate_game};
use crate::engine::Mode;

/// The superuser `initdb` makes; trusted on loopback, no password.
const SUPERUSER: &str = "spades";

/// A PostgreSQL server of a test's own.
pub(crate) struct TempPostgres {
    /// Holds the data folder and the socket; removed after the stop.
    folder: tempfile::TempDir,
    bin: PathBuf,
    port: u16,
    /// Who runs the server when the tests run as root (PostgreSQL refuses
    /// to run as root): a user and group id.
    runs_as: Option<(u32, u32)>,
    databases: usize,
}

/// `initdb`'s folder: on the PATH, else the newest of Debian's
/// `/usr/lib/postgresql/<version>/bin`.
fn postgres_bin() -> Option<PathBuf> {
    let on_path = std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path)
            .find(|dir| dir.join("initdb").is_file() && dir.join("pg_ctl").is_file())
    });
    if on_path.is_some() {
        return on_path;
    }
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .flatten()
        .filter_map(|entry| {
            let version = entry.file_name().to_str()?.parse().ok()?;
            let bin = entry.path().join("bin");
            bin.join("initdb").is_file().then_some((version, bin))
        })
        .collect();
    versions.sort();
    versions.pop().map(|(_, bin)| bin)
}

/// A user and group id that is not root's, from `/etc/passwd`: the
/// `postgres` user a package made, else `nobody`.
fn unprivileged_user() -> (u32, u32) {
    let passwd = std::fs::read_to_string("/etc/passwd").expect("/etc/passwd reads");
    let ids = |name: &str| {
        passwd.lines().find_map(|line| {
            let fields: Vec<&str> = line.split(':').collect();
            if fields.first() != Some(&name) || fields.len() < 4 {
                return None;
            }
            Some((fields[2].parse().ok()?, fields[3].parse().ok()?))
        })
    };
    ids("postgres")
        .or_else(|| ids("nobody"))
        .expect("a user other than root (postgres or nobody) to run PostgreSQL as")
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

impl TempPostgres {
    /// A running server, or `None` (said on standard error) when
    /// PostgreSQL is not installed and not required.
    pub(crate) fn start() -> Option<TempPostgres> {
        let Some(bin) = postgres_bin() else {
            let required = std::env::var("SPADES_REQUIRE_POSTGRES").is_ok_and(|v| v == "1");
            assert!(
                !required,
                "SPADES_REQUIRE_POSTGRES=1 but PostgreSQL is not installed \
                 (no initdb on the PATH nor in /usr/lib/postgresql/*/bin)"
            );
            // Past the test harness's capture (which hides `eprintln!` of a
            // passing test): a skip is seen in every run.
            let _ = writeln!(
                std::io::stderr(),
                "SKIPPED: PostgreSQL is not installed (no initdb on the PATH nor in \
                 /usr/lib/postgresql/*/bin): the PostgreSQL store was NOT tested. Install \
                 postgresql, or set SPADES_REQUIRE_POSTGRES=1 to make this a failure."
            );
            return None;
        };
        let folder = tempfile::Builder::new()
            .prefix("spades-pg")
            .tempdir()
            .expect("a folder");
        let runs_as = rustix::process::geteuid().is_root().then(unprivileged_user);
        if let Some((uid, gid)) = runs_as {
            std::os::unix::fs::chown(folder.path(), Some(uid), Some(gid))
                .expect("the folder given to PostgreSQL's user");
        }
        let mut server = TempPostgres {
            folder,
            bin,
            port: 0,
            runs_as,
            databases: 0,
        };
        let data = server.data();
        server.run(
            "initdb",
            &[
                "-D".as_ref(),
                data.as_os_str(),
                "-U".as_ref(),
                SUPERUSER.as_ref(),
                "--auth=trust".as_ref(),
                "--no-sync".as_ref(),
                "--encoding=UTF8".as_ref(),
                "--locale=C".as_ref(),
            ],
        );
        server.listen();
        Some(server)
    }

    fn data(&self) -> PathBuf {
        self.folder.path().join("data")
    }

    /// Stops the server (at once, as a crash or a pulled cable would):
    /// the store's connections fail until `resume`.
    pub(crate) fn stop(&self) {
        self.run(
            "pg_ctl",
            &[
                "-m".as_ref(),
                "immediate".as_ref(),
                "-w".as_ref(),
                "stop".as_ref(),
                "-D".as_ref(),
                self.data().as_os_str(),
            ],
        );
    }

    /// Starts the stopped server again, on the same port.
    pub(crate) fn resume(&self) {
        let started = self.start_on(self.port);
        assert!(
            started.status.success(),
            "PostgreSQL did not start again: {started:?}"
        );
    }

    /// Starts the server on a free port: another test may take the port
    /// between its choosing and the start, so a few are tried.
    fn listen(&mut self) {
        let log = self.folder.path().join("log");
        let mut tries = 0;
        loop {
            self.port = free_port();
            let started = self.start_on(self.port);
            tries += 1;
            if started.status.success() {
                return;
            }
            let said = std::fs::read_to_string(&log).unwrap_or_default();
            assert!(tries < 3, "PostgreSQL did not start: {started:?}\n{said}");
        }
    }

    fn start_on(&self, port: u16) -> Output {
        let log = self.folder.path().join("log");
        let options = format!(
            // Small and unsynced: a test's server, several at once.
            "-p {port} -k {} -c listen_addresses=127.0.0.1 -c fsync=off \
             -c shared_buffers=16MB -c max_connections=20",
            self.folder.path().display()
        );
        self.try_run(
            "pg_ctl",
            &[
                "-D".as_ref(),
                self.data().as_os_str(),
                "-l".as_ref(),
                log.as_os_str(),
                "-o".as_ref(),
                options.as_ref(),
                "-w".as_ref(),
                "-t".as_ref(),
                "60".as_ref(),
                "start".as_ref(),
            ],
        )
    }

    fn command(&self, program: &str) -> Command {
        let mut command = Command::new(self.bin.join(program));
        command.current_dir(self.folder.path());
        if let Some((uid, gid)) = self.runs_as {
            // The standard library drops root's other groups with it.
            command.uid(uid).gid(gid);
        }
        command
    }

    fn try_run(&self, program: &str, args: &[&std::ffi::OsStr]) -> Output {
        self.command(program)
            .args(args)
            .output()
            .unwrap_or_else(|e| panic!("{program} cannot run: {e}"))
    }

    fn run(&self, program: &str, args: &[&std::ffi::OsStr]) {
        let output = self.try_run(program, args);
        assert!(
            output.status.success(),
            "{program} failed: {}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }

    fn url(&self, database: &str) -> PostgresUrl {
        PostgresUrl::parse(&format!(
            "postgres://{SUPERUSER}@127.0.0.1:{}/{database}",
            self.port
        ))
        .expect("an address")
    }

    /// A plain client of `database`, for what the store does not do.
    fn client(&self, database: &str) -> postgres::Client {
        self.url(database)
            .config()
            .connect(postgres::NoTls)
            .expect("connected")
    }

    /// A new, empty database, by its address.
    pub(crate) fn fresh_database(&mut self) -> PostgresUrl {
        self.databases += 1;
        let name = format!("ladder_{}", self.databases);
        self.client("postgres")
            .batch_execute(&format!("CREATE DATABASE {name}"))
            .expect("a database made");
        self.url(&name)
    }
}

impl Drop for TempPostgres {
    fn drop(&mut self) {
        // Immediate: nothing of a test's database is worth a clean stop.
        let _ = self
            .command("pg_ctl")
            .args(["-m", "immediate", "-w", "stop", "-D"])
            .arg(self.data())
            .output();
    }
}

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
