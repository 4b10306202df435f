//! `spades serve`: the table server alone, for many tables, with its
//! ladder, its certificate and its limits, until a stop signal.

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use clap::Args;
use clap::builder::RangedI64ValueParser;

use crate::bots::BotSpec;
use crate::ladder::store::Database;
use crate::net::certificate::Certificate;
use crate::net::code::lan_address;
use crate::net::server::ranked::RankedRules;
use crate::net::server::{
    FleetOptions, Membership, PublicAddress, RegistrationLimits, Server, ServerOptions,
};
use crate::paths;
use crate::signals::StopSignals;

use super::args::own_program;
use super::net::server_error;
use super::{CliError, say};

#[derive(Debug, Clone, Args)]
pub struct ServeArgs {
    /// The port to listen on (0: any free port, printed at the start)
    #[arg(long, allow_negative_numbers = true, value_name = "P")]
    pub port: u16,
    /// The address to listen on (default: every IPv4 address of this machine)
    #[arg(long, value_name = "ADDR", default_value = "0.0.0.0")]
    pub listen: std::net::IpAddr,
    /// No TLS, for debugging: refused unless --listen is a loopback address
    #[arg(long)]
    pub insecure_plain: bool,
    /// A bot makes a person's decision when they take longer than this, so
    /// one silent player cannot stop a table (0: no limit)
    #[arg(long, allow_negative_numbers = true, value_name = "SECONDS", default_value_t = 60, value_parser = RangedI64ValueParser::<u64>::new().range(0..=3600))]
    pub turn_timer: u64,
    /// A table whose game has not started this long after it opened is
    /// closed (0: never)
    #[arg(long, allow_negative_numbers = true, value_name = "MINUTES", default_value_t = 30, value_parser = RangedI64ValueParser::<u64>::new().range(0..=10080))]
    pub lobby_timeout: u64,
    /// Connections at once from one address (more are closed at once,
    /// holding no place); raise it for many players behind one address
    #[arg(long, allow_negative_numbers = true, value_name = "N", default_value_t = 16, value_parser = RangedI64ValueParser::<usize>::new().range(1..=100_000))]
    pub per_address: usize,
    /// Connections at once in all (never more than the process's
    /// descriptors allow; more are closed as soon as they are accepted)
    #[arg(long, allow_negative_numbers = true, value_name = "N", default_value_t = 4096, value_parser = RangedI64ValueParser::<usize>::new().range(1..=1_000_000))]
    pub max_connections: usize,
    /// Accounts registered from one address in an hour, at most; raise it
    /// for many players behind one address
    #[arg(long, allow_negative_numbers = true, value_name = "N", default_value_t = RegistrationLimits::default().per_address_hour, value_parser = RangedI64ValueParser::<usize>::new().range(1..=1_000_000))]
    pub registrations_per_hour: usize,
    /// Accounts registered in an hour for the whole server, at most,
    /// from any number of addresses
    #[arg(long, allow_negative_numbers = true, value_name = "N", default_value_t = RegistrationLimits::default().all_hour, value_parser = RangedI64ValueParser::<usize>::new().range(1..=1_000_000))]
    pub registrations_per_hour_all: usize,
    /// Accounts registered in a day for the whole server, at most, from
    /// any number of addresses
    #[arg(long, allow_negative_numbers = true, value_name = "N", default_value_t = RegistrationLimits::default().all_day, value_parser = RangedI64ValueParser::<usize>::new().range(1..=10_000_000))]
    pub registrations_per_day_all: usize,
    /// A program of this machine's (exec:COMMAND) offered to every host as
    /// one more bot level
    #[arg(long, value_name = "exec:COMMAND", value_parser = own_program)]
    pub bot: Option<BotSpec>,
    /// The ladder's database: accounts, rated games and ratings. A file
    /// (default: ladder.sqlite in the data folder), or a PostgreSQL
    /// database several servers share: postgres://USER@HOST:PORT/DATABASE
    #[arg(long, value_name = "PATH|postgres://...")]
    pub db: Option<std::path::PathBuf>,
    /// A PEM certificate chain to present (e.g. from a public certificate
    /// authority), the server's own first; players may then give its
    /// address alone, HOST:PORT (default: a certificate of the server's
    /// own, made once and kept beside the ladder's file)
    #[arg(
        long,
        value_name = "PATH",
        requires = "key",
        conflicts_with = "insecure_plain"
    )]
    pub cert: Option<std::path::PathBuf>,
    /// The PEM private key of --cert
    #[arg(long, value_name = "PATH", requires = "cert")]
    pub key: Option<std::path::PathBuf>,
    /// The environment variable holding the PostgreSQL address, so that
    /// its password is not on the command line (which `ps` shows)
    #[arg(long, value_name = "VAR", conflicts_with = "db")]
    pub db_env: Option<String>,
    /// Where rated games wait when the database cannot take them, until
    /// it can (default: beside a SQLite file, FILE.outbox; for
    /// PostgreSQL, ladder.outbox in the data folder)
    #[arg(long, value_name = "PATH")]
    pub outbox: Option<std::path::PathBuf>,
    /// A rules.toml a mode's games must be played under to be rated (its
    /// `mode` says which; once a mode; default: each mode's classic game)
    #[arg(long, value_name = "PATH")]
    pub ranked_rules: Vec<std::path::PathBuf>,
    /// With a PostgreSQL ladder: where players reach this server, HOST or
    /// HOST:PORT, as the other servers sharing the ladder name it in the
    /// codes of its tables they list (default: the --listen address, unless
    /// it is 0.0.0.0; then they do not list its tables)
    #[arg(long, value_name = "HOST[:PORT]")]
    pub public_address: Option<PublicAddress>,
}

/// How `spades serve` runs its tables: a turn timer and a lobby's time
/// unless given as 0, since nobody is at the server to end a stalled table.
fn serve_options(args: &ServeArgs) -> Result<ServerOptions, CliError> {
    let db = match (args.db.clone(), &args.db_env) {
        (Some(given), _) => {
            Some(Database::given(given).map_err(|e| CliError::BadInput(format!("--db: {e}")))?)
        }
        (None, Some(var)) => Some(db_from_env(var)?),
        (None, None) => paths::ladder_db().map(Database::File),
    };
    let outbox = match (&args.outbox, &db) {
        (Some(path), _) => Some(path.clone()),
        (None, Some(Database::Postgres(_))) => paths::ladder_outbox(),
        _ => None,
    };
    let certificate = certificate(args, db.as_ref())?;
    if let Some(public) = &args.public_address {
        check_public_address(args, public, db.as_ref())?;
    }
    let given = |n: u64, unit: u64| (n > 0).then(|| Duration::from_secs(n * unit));
    Ok(ServerOptions {
        listen: SocketAddr::new(args.listen, args.port),
        plain: args.insecure_plain,
        certificate,
        turn_timer: given(args.turn_timer, 1),
        seating_timeout: given(args.lobby_timeout, 60),
        per_address: args.per_address,
        max_connections: args.max_connections,
        registrations: RegistrationLimits {
            per_address_hour: args.registrations_per_hour,
            all_hour: args.registrations_per_hour_all,
            all_day: args.registrations_per_day_all,
        },
        own_bot: args.bot.clone(),
        db,
        outbox,
        ranked: RankedRules::from_files(&args.ranked_rules)?,
        fleet: FleetOptions {
            public_address: args.public_address.clone(),
            ..FleetOptions::default()
        },
        ..ServerOptions::default()
    })
}

/// `--public-address` names this server to the others of a fleet, and a
/// code without TLS names only this machine.
fn check_public_address(
    args: &ServeArgs,
    public: &PublicAddress,
    db: Option<&Database>,
) -> Result<(), CliError> {
    if !matches!(db, Some(Database::Postgres(_))) {
        return Err(CliError::BadInput(
            "--public-address names this server to the other servers sharing its ladder: \
             give it with --db postgres://... (a ladder in a file is one server's)"
                .into(),
        ));
    }
    let host = PublicAddress {
        port: None,
        ..public.clone()
    };
    let code = format!("plain@{host}:1");
    if args.insecure_plain && code.parse::<crate::net::code::ServerAddress>().is_err() {
        return Err(CliError::BadInput(format!(
            "--public-address {public} with --insecure-plain: {}",
            crate::net::code::PLAIN_OFF_LOOPBACK
        )));
    }
    Ok(())
}

/// The certificate `spades serve` presents: the operator's (`--cert`,
/// `--key`), or its own kept in its data folder, the folder of the
/// ladder's file (the default data folder for a PostgreSQL ladder), so
/// that it is the same server after a restart.
fn certificate(args: &ServeArgs, db: Option<&Database>) -> Result<Certificate, CliError> {
    if let (Some(chain), Some(key)) = (&args.cert, &args.key) {
        return Ok(Certificate::Given {
            chain: chain.clone(),
            key: key.clone(),
        });
    }
    let folder = match db {
        Some(Database::File(file)) => Some(
            file.parent()
                .filter(|p| !p.as_os_str().is_empty())
                .map_or_else(
                    || std::path::PathBuf::from("."),
                    std::path::Path::to_path_buf,
                ),
        ),
        _ => paths::server_data(),
    };
    folder.map(Certificate::Kept).ok_or_else(|| {
        CliError::BadInput(
            "no data folder to keep the server's certificate in: give --db FILE (it is kept beside it)"
                .into(),
        )
    })
}

/// The PostgreSQL address in the environment variable `var`.
fn db_from_env(var: &str) -> Result<Database, CliError> {
    let bad = |why: String| CliError::BadInput(format!("--db-env {var}: {why}"));
    let value = std::env::var(var).map_err(|e| {
        bad(match e {
            std::env::VarError::NotPresent => "the variable is not set".into(),
            std::env::VarError::NotUnicode(_) => "the variable is not UTF-8 text".into(),
        })
    })?;
    match Database::given(value.into()).map_err(|e| bad(e.to_string()))? {
        Database::File(_) => Err(bad(
            "it does not hold a PostgreSQL address (postgres://USER@HOST:PORT/DATABASE)".into(),
        )),
        postgres => Ok(postgres),
    }
}

/// The host players are told to give, as a code writes it, for a server
/// listening on `listen`, and a note when that is a guess: listening on
/// every address, the code names this machine's address on its network
/// (`lan`), or this machine alone when it has none, and says so.
fn shown_host(listen: IpAddr, lan: Option<String>) -> (String, Option<String>) {
    if !listen.is_unspecified() {
        let host = match listen {
            IpAddr::V6(ip) => format!("[{ip}]"),
            ip => ip.to_string(),
        };
        return (host, None);
    }
    match lan {
        Some(lan) => {
            let note = format!(
                "it listens on every address; {lan} is this machine's address on its network:\n   \
                 players who reach it by another name or address give that instead"
            );
            (lan, Some(note))
        }
        None => (
            "127.0.0.1".to_string(),
            Some(
                "it listens on every address, and this machine is on no network now:\n   \
                 players elsewhere give the name or address they reach it by instead of 127.0.0.1"
                    .to_string(),
            ),
        ),
    }
}

/// `spades serve`: the table server alone, until Ctrl-C or a stop signal,
/// when everyone at a table is told it is shutting down.
pub(super) fn serve(args: &ServeArgs) -> Result<(), CliError> {
    if args.insecure_plain && !args.listen.is_loopback() {
        return Err(CliError::BadInput(format!(
            "--insecure-plain turns TLS off, so it listens only on a loopback address: add --listen 127.0.0.1 (not {})",
            args.listen
        )));
    }
    let options = serve_options(args)?;
    let options_db = options.db.clone();
    let certificate = if args.insecure_plain {
        Certificate::Fresh
    } else {
        options.certificate.clone()
    };
    let signals = StopSignals::watch()
        .map_err(|e| CliError::Failed(format!("cannot watch for stop signals: {e}")))?;
    let server = Server::start(options).map_err(server_error)?;
    let address = server.address();
    let (host, note) = shown_host(address.ip(), lan_address());
    let mut text = format!(
        "spades serve: listening on {address} ({})\n",
        if args.insecure_plain {
            "plain, no TLS"
        } else {
            "TLS"
        }
    );
    if let Some(fp) = server.fingerprint() {
        text.push_str(&format!("fingerprint: {fp}\n"));
    }
    let code = format!(
        "{}@{host}:{}",
        server.fingerprint().unwrap_or("plain"),
        address.port()
    );
    text.push_str(&format!("open a table: spades host --server {code}\n"));
    text.push_str(&format!("the lobby: spades lobby {code}\n"));
    if let Some(note) = note {
        text.push_str(&format!("  ({note})\n"));
    }
    if let Some(db) = &options_db {
        text.push_str(&format!("ladder: {db}\n"));
    }
    match server.fleet() {
        Some(Membership::Listed(at)) => text.push_str(&format!(
            "fleet: every server sharing the ladder lists this one's public tables, at {at}\n"
        )),
        Some(Membership::Unlisted) => text.push_str(&format!(
            "fleet: this server lists the public tables of every server sharing the ladder, \
             but they do not list its own: listening on {}, it has no one address to give \
             them (give --public-address HOST)\n",
            address.ip()
        )),
        None => {}
    }
    match &certificate {
        Certificate::Kept(folder) => text.push_str(&format!(
            "certificate: {} (kept)\n",
            folder.join(crate::net::certificate::KEPT_CERT).display()
        )),
        Certificate::Given { chain, .. } => text.push_str(&format!(
            "certificate: {}\n  (or by a name it is made for, checked against the authorities: NAME:{})\n",
            chain.display(),
            address.port()
        )),
        Certificate::Fresh => {}
    }
    text.push_str("Ctrl-C stops the server; everyone at a table is told.\n");
    say(&text)?;
    while signals.received().is_none() {
        std::thread::sleep(Duration::from_millis(100));
    }
    say("spades serve: stopping\n")?;
    server.stop();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn serve(args: &[&str]) -> ServerOptions {
        let cli =
            crate::cli::Cli::try_parse_from([&["spades", "serve", "--port", "0"], args].concat())
                .unwrap();
        let Some(crate::cli::Command::Serve(args)) = cli.command else {
            panic!("not serve")
        };
        serve_options(&args).unwrap()
    }

    #[test]
    fn a_server_ends_stalled_turns_and_lobbies_unless_told_not_to() {
        let options = serve(&[]);
        assert_eq!(options.turn_timer, Some(Duration::from_secs(60)));
        assert_eq!(options.seating_timeout, Some(Duration::from_secs(30 * 60)));
        assert_eq!(options.per_address, 16);
        assert_eq!(options.max_connections, 4096);
        assert_eq!(options.registrations, RegistrationLimits::default());
        assert_eq!(
            (
                options.registrations.all_hour,
                options.registrations.all_day
            ),
            (60, 500)
        );
        let options = serve(&[
            "--max-connections",
            "20000",
            "--registrations-per-hour",
            "900",
            "--registrations-per-hour-all",
            "1000",
            "--registrations-per-day-all",
            "9000",
        ]);
        assert_eq!(options.max_connections, 20_000);
        assert_eq!(
            options.registrations,
            RegistrationLimits {
                per_address_hour: 900,
                all_hour: 1000,
                all_day: 9000
            }
        );
        let options = serve(&["--turn-timer", "0", "--lobby-timeout", "0"]);
        assert_eq!(options.turn_timer, None);
        assert_eq!(options.seating_timeout, None);
    }

    /// A code is pasted as printed: a wildcard is never printed as its
    /// host (nor a word standing for one), a listen address is.
    #[test]
    fn the_printed_host_is_one_a_player_can_give() {
        let every = IpAddr::from([0, 0, 0, 0]);
        let (host, note) = shown_host(every, Some("192.168.1.5".into()));
        assert_eq!(host, "192.168.1.5");
        assert!(note.unwrap().contains("every address"));
        let (host, note) = shown_host("::".parse().unwrap(), None);
        assert_eq!(host, "127.0.0.1");
        assert!(note.unwrap().contains("no network"));
        assert_eq!(
            shown_host(IpAddr::from([10, 0, 0, 2]), None),
            ("10.0.0.2".into(), None)
        );
        assert_eq!(
            shown_host("::1".parse().unwrap(), None),
            ("[::1]".into(), None)
        );
    }

    /// `--db` names a PostgreSQL database by its address, a file otherwise;
    /// an address that is not one is bad input, and its password is
    /// never said back.
    #[test]
    fn the_ladder_is_a_file_or_a_postgres_address() {
        let options = serve(&["--db", "ladder.db"]);
        assert!(
            matches!(options.db, Some(Database::File(p)) if p == std::path::Path::new("ladder.db"))
        );
        for url in [
            "postgres://ann:hunter2@db.example:5433/spades",
            "postgresql://ann:hunter2@db.example:5433/spades",
        ] {
            let Some(Database::Postgres(url)) = serve(&["--db", url]).db else {
                panic!("{url}: not PostgreSQL")
            };
            assert_eq!(url.to_string(), "postgres://ann@db.example:5433/spades");
            assert!(!format!("{url:?}").contains("hunter2"));
        }
        let cli = crate::cli::Cli::try_parse_from([
            "spades",
            "serve",
            "--port",
            "0",
            "--db",
            "postgres://ann:hunter2@db.example:notaport/spades",
        ])
        .unwrap();
        let Some(crate::cli::Command::Serve(args)) = cli.command else {
            panic!("not serve")
        };
        let e = serve_options(&args).expect_err("refused");
        assert!(matches!(e, CliError::BadInput(_)), "{e}");
        let said = e.to_string();
        assert!(said.contains("PostgreSQL address"), "{said}");
        assert!(!said.contains("hunter2"), "{said}");
    }

    /// `--public-address` names a node of a fleet: refused where there is
    /// no fleet, or where its codes could not be used.
    #[test]
    fn a_public_address_names_a_node_of_a_postgres_fleet() {
        let pg = "postgres://ann@db.example:5433/spades";
        let options = serve(&["--db", pg, "--public-address", "cards1.example.org:4467"]);
        assert_eq!(
            options.fleet.public_address,
            Some(PublicAddress {
                host: "cards1.example.org".into(),
                port: Some(4467)
            })
        );
        assert_eq!(serve(&["--db", pg]).fleet.public_address, None);
        let refused = |args: &[&str]| {
            let cli = crate::cli::Cli::try_parse_from(
                [&["spades", "serve", "--port", "0"], args].concat(),
            )
            .unwrap();
            let Some(crate::cli::Command::Serve(args)) = cli.command else {
                panic!("not serve")
            };
            let e = serve_options(&args).expect_err("refused");
            assert!(matches!(e, CliError::BadInput(_)), "{e}");
            e.to_string()
        };
        let why = refused(&[
            "--db",
            "ladder.sqlite",
            "--public-address",
            "cards1.example.org",
        ]);
        assert!(why.contains("--db postgres://"), "{why}");
        let plain = [
            "--db",
            pg,
            "--insecure-plain",
            "--listen",
            "127.0.0.1",
            "--public-address",
        ];
        let why = refused(&[&plain[..], &["203.0.113.7"]].concat());
        assert!(why.contains("only this machine"), "{why}");
        assert!(serve(&[&plain[..], &["127.0.0.1:4466"]].concat()).plain);
        let bad = [
            "spades",
            "serve",
            "--port",
            "0",
            "--public-address",
            "0.0.0.0",
        ];
        let e = crate::cli::Cli::try_parse_from(bad).expect_err("refused");
        assert!(e.to_string().contains("HOST or HOST:PORT"), "{e}");
    }

    /// The certificate is kept beside the ladder's file, in the data
    /// folder for a PostgreSQL ladder, or given as a pair.
    #[test]
    fn the_certificate_is_kept_beside_the_ladder_or_given_as_a_pair() {
        let kept = |args: &[&str]| serve(args).certificate;
        assert_eq!(
            kept(&["--db", "ladders/club.sqlite"]),
            Certificate::Kept("ladders".into())
        );
        assert_eq!(
            kept(&["--db", "club.sqlite"]),
            Certificate::Kept(".".into())
        );
        let on_postgres = kept(&["--db", "postgres://ann@db.example:5433/spades"]);
        assert_eq!(
            on_postgres,
            paths::server_data().map_or(Certificate::Fresh, Certificate::Kept)
        );
        assert_eq!(
            kept(&["--cert", "chain.pem", "--key", "key.pem"]),
            Certificate::Given {
                chain: "chain.pem".into(),
                key: "key.pem".into()
            }
        );
        for alone in [
            &["--cert", "chain.pem"][..],
            &["--key", "key.pem"],
            &[
                "--cert",
                "c",
                "--key",
                "k",
                "--insecure-plain",
                "--listen",
                "127.0.0.1",
            ],
        ] {
            let args = [&["spades", "serve", "--port", "0"], alone].concat();
            assert!(crate::cli::Cli::try_parse_from(args).is_err(), "{alone:?}");
        }
    }
}
