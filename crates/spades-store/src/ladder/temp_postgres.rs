//! A PostgreSQL server of a test's own, for the tests of every crate
//! that keeps a ladder in PostgreSQL: made by `initdb` in a temporary
//! folder, listening on loopback at a free port, and stopped when the test
//! ends (a panic too). Where PostgreSQL is not installed it says so loudly
//! and the test passes, unless `SPADES_REQUIRE_POSTGRES=1` (as CI sets)
//! makes that a failure. Built for tests only (`test-postgres`).

use std::io::Write;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Command, Output};

use super::store::PostgresUrl;

/// The superuser `initdb` makes; trusted on loopback, no password.
pub(crate) const SUPERUSER: &str = "spades";

/// A PostgreSQL server of a test's own.
pub struct TempPostgres {
    /// Holds the data folder and the socket; removed after the stop.
    folder: tempfile::TempDir,
    bin: PathBuf,
    pub(crate) port: u16,
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

pub(crate) fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

impl TempPostgres {
    /// A running server, or `None` (said on standard error) when
    /// PostgreSQL is not installed and not required.
    pub fn start() -> Option<TempPostgres> {
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

    pub(crate) fn data(&self) -> PathBuf {
        self.folder.path().join("data")
    }

    /// Stops the server (at once, as a crash or a pulled cable would):
    /// the store's connections fail until `resume`.
    pub fn stop(&self) {
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
    pub fn resume(&self) {
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

    pub(crate) fn run(&self, program: &str, args: &[&std::ffi::OsStr]) {
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
    pub(crate) fn client(&self, database: &str) -> postgres::Client {
        self.url(database)
            .config()
            .connect(postgres::NoTls)
            .expect("connected")
    }

    /// A new, empty database, by its address.
    pub fn fresh_database(&mut self) -> PostgresUrl {
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
