//! The real binary: bad input exits 2 with a message naming the problem,
//! `spades rules` round-trips, and `spades sim` writes records that replay.

use assert_cmd::Command;
use predicates::prelude::*;
use spades::config::parse_rules;
use spades::record::{read_games, replay};
use support::game::spades;

fn write(dir: &tempfile::TempDir, name: &str, text: &str) -> std::path::PathBuf {
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn unknown_flag_exits_2_with_a_suggestion() {
    let dir = tempfile::tempdir().unwrap();
    spades(&dir)
        .args(["sim", "--gmes", "3"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--gmes").and(predicate::str::contains("--games")));
}

#[test]
fn bad_values_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["sim", "--games", "0"][..],
        &["sim", "--mode", "solo"],
        &["sim", "--target", "0"],
        &["sim", "--threads", "0"],
        // More games than the run can count once every deal is played by
        // each seating of the lineup.
        &["sim", "--games", "4000000000", "--duplicate"],
        // Nothing to overwrite without --record.
        &["sim", "--force"],
        &["--difficulty", "grandmaster"],
    ] {
        spades(&dir).args(args).assert().code(2);
    }
}

/// The server's operator limits take whole numbers in range: anything else
/// is named with the range it takes, before a port is opened.
#[test]
fn a_servers_limits_out_of_range_are_refused_with_their_range() {
    let dir = tempfile::tempdir().unwrap();
    for (flag, value, said) in [
        ("--registrations-per-hour", "0", "0 is not in 1..=1000000"),
        ("--registrations-per-hour", "lots", "invalid digit"),
        (
            "--registrations-per-hour-all",
            "0",
            "0 is not in 1..=1000000",
        ),
        (
            "--registrations-per-day-all",
            "20000000",
            "20000000 is not in 1..=10000000",
        ),
        ("--max-connections", "0", "0 is not in 1..=1000000"),
        (
            "--max-connections",
            "2000000",
            "2000000 is not in 1..=1000000",
        ),
    ] {
        spades(&dir)
            .args(["serve", "--port", "0", "--listen", "127.0.0.1", flag, value])
            // A value taken by mistake would serve forever: cut short.
            .timeout(std::time::Duration::from_secs(20))
            .assert()
            .code(2)
            .stderr(predicate::str::contains(format!(
                "invalid value '{value}' for '{flag} <N>'"
            )))
            .stderr(predicate::str::contains(said));
    }
}

/// A ranked-rules file that cannot be used stops `spades serve` before it
/// listens, naming the file, the line and the key; so does a second file
/// for one mode.
#[test]
fn a_bad_ranked_rules_file_is_refused_with_its_file_line_and_key() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("ranked.toml");
    std::fs::write(&bad, "mode = \"partnership\"\ntarget_scor = 100\n").unwrap();
    let good = dir.path().join("short.toml");
    std::fs::write(&good, "mode = \"cutthroat\"\ntarget_score = 100\n").unwrap();
    let serve = |files: &[&std::path::Path]| {
        let mut command = spades(&dir);
        command.args(["serve", "--port", "0", "--listen", "127.0.0.1"]);
        for file in files {
            command.arg("--ranked-rules").arg(file);
        }
        command.timeout(std::time::Duration::from_secs(20)).assert()
    };
    serve(&[&bad])
        .code(2)
        .stderr(predicate::str::contains(format!("{}:2:1:", bad.display())))
        .stderr(predicate::str::contains("unknown key `target_scor`"));
    serve(&[&good, &good])
        .code(2)
        .stderr(predicate::str::contains(good.display().to_string()))
        .stderr(predicate::str::contains("one file a mode"));
    serve(&[&dir.path().join("missing.toml")])
        .code(2)
        .stderr(predicate::str::contains("missing.toml"));
}

/// A negative number is a value out of range, not a flag nobody knows: the
/// message names the flag and what it takes.
#[test]
fn negative_numbers_are_out_of_range_not_unknown_arguments() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["--target", "-5"][..],
        &["sim", "--target", "-5"],
        &["--seed", "-1"],
        &["--think-ms", "-100"],
        &["--iterations", "-3"],
        &["sim", "--games", "-3"],
        &["sim", "--seed", "-1"],
        &["sim", "--threads", "-2"],
        &["sim", "--max-hands", "-2"],
        &["sim", "--bot-timeout", "-2"],
        &["replay", "x.jsonl", "--game", "-2"],
        &["serve", "--port", "-1"],
        &["host", "--port", "-1"],
        &["host", "--turn-timer", "-9"],
        &["serve", "--port", "0", "--turn-timer", "-9"],
        &["serve", "--port", "0", "--registrations-per-hour", "-1"],
        &["serve", "--port", "0", "--max-connections", "-1"],
    ] {
        let flag = args[args.len() - 2];
        spades(&dir)
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(format!(
                "invalid value '{}' for '{flag} ",
                args[args.len() - 1]
            )))
            .stderr(predicate::str::contains("unexpected argument").not())
            .stderr(predicate::str::contains("invalid digit").not());
    }
    spades(&dir)
        .args(["--target", "-5"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("-5 is not in 1..=100000"));
    spades(&dir)
        .args(["--seed", "-1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("a seed is a whole number from 0"));
    // The whole range of seeds is still taken.
    spades(&dir)
        .args([
            "sim",
            "--games",
            "1",
            "--seats",
            "random,random,random,random",
        ])
        .args(["--seed", &u64::MAX.to_string()])
        .assert()
        .success();
}

#[test]
fn unknown_bot_and_wrong_seat_count_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    spades(&dir)
        .args([
            "sim",
            "--games",
            "1",
            "--seats",
            "random,robot,random,random",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unknown bot `robot`"));
    spades(&dir)
        .args([
            "sim",
            "--games",
            "1",
            "--mode",
            "cutthroat",
            "--seats",
            "random,random,random,random",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("3 seats"));
}

#[test]
fn broken_rules_files_name_file_line_and_key() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "syntax.toml",
            "target_score = 300\n[bags\n",
            "syntax.toml:2:",
        ),
        (
            "typo.toml",
            "[bags]\nlimt = 5\n",
            "did you mean `bags.limit`",
        ),
        ("type.toml", "[nil]\nvalue = \"lots\"\n", "nil.value"),
        (
            "twice.toml",
            "[bags]\nlimit = 5\nlimit = 7\n",
            "twice.toml:3:1: `bags.limit` is set twice (first on line 2)",
        ),
        ("range.toml", "[bags]\nlimit = 0\n", "range.toml:2:"),
        (
            "exchange.toml",
            "[blind_nil]\nexchange = 14\n",
            "blind_nil.exchange",
        ),
        (
            "losing.toml",
            "target_score = 200\nlosing_score = 250\n",
            "losing_score",
        ),
    ];
    for (name, text, expected) in cases {
        let path = write(&dir, name, text);
        spades(&dir)
            .args(["sim", "--games", "1", "--rules"])
            .arg(&path)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(expected));
    }
    spades(&dir)
        .args(["sim", "--rules", "missing.toml"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("missing.toml"));
}

#[test]
fn a_broken_rules_toml_in_the_working_directory_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    write(&dir, "rules.toml", "target_score = \"high\"\n");
    spades(&dir).args(["rules"]).assert().code(2).stderr(
        predicate::str::contains("rules.toml:1:").and(predicate::str::contains("target_score")),
    );
}

#[test]
fn rules_output_parses_back_to_the_same_rules() {
    let dir = tempfile::tempdir().unwrap();
    let text = "mode = \"cutthroat\"\ntarget_score = 200\nlosing_score = -150\n[bags]\nlimit = 5\npenalty = 50\n[blind_nil]\nexchange = 3\none_per_side = false\n[bidding]\nforbid_exact_total = true\n";
    let path = write(&dir, "house.toml", text);
    let out = spades(&dir)
        .arg("rules")
        .arg("--rules")
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success());
    let printed = String::from_utf8(out.stdout).unwrap();
    assert!(
        printed.contains("house.toml"),
        "names its source:\n{printed}"
    );
    assert_eq!(
        parse_rules(&printed, "printed").unwrap(),
        parse_rules(text, "house.toml").unwrap()
    );
}

#[test]
fn rules_init_writes_once_and_never_overwrites() {
    let dir = tempfile::tempdir().unwrap();
    spades(&dir).args(["rules", "--init"]).assert().success();
    let path = dir.path().join("rules.toml");
    let written = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        parse_rules(&written, "rules.toml").unwrap(),
        Default::default()
    );
    assert!(
        written
            .lines()
            .filter(|l| l.contains(" = "))
            .all(|l| l.contains('#')),
        "every key commented"
    );
    std::fs::write(&path, "target_score = 300\n").unwrap();
    spades(&dir)
        .args(["rules", "--init"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("already exists"));
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "target_score = 300\n"
    );
}

#[test]
fn sim_json_summary_and_records_replay() {
    let dir = tempfile::tempdir().unwrap();
    let rules = write(
        &dir,
        "short.toml",
        "target_score = 150\nlosing_score = -150\n",
    );
    let out = spades(&dir)
        .args([
            "sim",
            "--games",
            "6",
            "--seed",
            "9",
            "--duplicate",
            "--json",
            "--threads",
            "2",
        ])
        .args([
            "--seats",
            "random,random,random,random",
            "--record",
            "r.jsonl",
            "--rules",
        ])
        .arg(&rules)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["games"], 12);
    let bot = &summary["bots"][0];
    assert_eq!(bot["bot"], "random");
    assert_eq!(bot["seats"], serde_json::json!([0, 1, 2, 3]));
    for key in [
        "games_won",
        "win_rate",
        "win_rate_ci95",
        "points_per_hand",
        "bids_made_rate",
        "nil_bids",
        "nils_made",
        "nil_eligible",
        "plain_nil_bids",
        "plain_nils_made",
        "nils_per_100",
        "blind_nil_eligible",
        "blind_nil_bids",
        "blind_nils_made",
        "seat_bids",
        "side_contracts",
    ] {
        assert!(!bot[key].is_null(), "{key} missing");
    }
    // `null` when there is nothing to average over (no nil bid, no
    // deal where a side trailed enough for a blind nil).
    for key in [
        "plain_nils_made_rate",
        "blind_nils_per_100",
        "blind_nils_made_rate",
        "over_tricks_per_seat",
        "over_tricks_per_side",
    ] {
        assert!(bot.get(key).is_some(), "{key} missing");
    }
    for key in ["p50", "p99", "max"] {
        assert!(bot["decision_ms"][key].is_number(), "decision_ms.{key}");
    }
    let text = std::fs::read_to_string(dir.path().join("r.jsonl")).unwrap();
    let games = read_games(&text).unwrap();
    assert_eq!(games.len(), 12);
    // Duplicate pairs are dealt the same cards.
    assert_eq!(games[0].events[0].1, games[1].events[0].1);
    assert_ne!(games[0].events[0].1, games[2].events[0].1);
    for g in &games {
        replay(g).unwrap();
    }
}

/// The games of a record, read and replayed.
fn replayed_games(path: &std::path::Path) -> Vec<spades::record::RecordedGame> {
    let games = read_games(&std::fs::read_to_string(path).unwrap()).unwrap();
    for g in &games {
        replay(g).unwrap();
    }
    games
}

#[test]
fn cutthroat_duplicate_seats_every_bot_at_every_seat_of_every_deal() {
    let dir = tempfile::tempdir().unwrap();
    let rules = write(
        &dir,
        "short.toml",
        "mode = \"cutthroat\"\ntarget_score = 150\nlosing_score = -150\n",
    );
    let sim = |extra: &[&str]| {
        let out = spades(&dir)
            .args(["sim", "--games", "2", "--seed", "4", "--duplicate"])
            .args(["--seats", "random,easy,normal", "--rules"])
            .arg(&rules)
            .args(extra)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let summary: serde_json::Value =
        serde_json::from_str(&sim(&["--json", "--record", "r.jsonl"])).unwrap();
    assert_eq!(summary["games"], 6);
    assert_eq!(summary["deals"], 2);
    assert!(sim(&[]).starts_with("6 games of cutthroat spades"));
    let games = replayed_games(&dir.path().join("r.jsonl"));
    assert_eq!(games.len(), 6);
    for deal in games.chunks(3) {
        // The same cards each time...
        assert!(deal.iter().all(|g| g.events[0].1 == deal[0].events[0].1));
        // ...and each bot at each seat once.
        for seat in 0..3 {
            let mut bots: Vec<&str> = deal
                .iter()
                .map(|g| g.header.names[seat].split(' ').next().unwrap())
                .collect();
            bots.sort_unstable();
            assert_eq!(bots, ["easy", "normal", "random"], "seat {seat}");
        }
    }
}

#[test]
fn sim_threads_default_to_the_cores() {
    let dir = tempfile::tempdir().unwrap();
    let threads = |extra: &[&str]| {
        let out = spades(&dir)
            .args(["sim", "--games", "1", "--max-hands", "1", "--json"])
            .args(["--seats", "random,random,random,random"])
            .args(extra)
            .output()
            .unwrap();
        assert!(out.status.success());
        let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        summary["threads"].clone()
    };
    let cores = std::thread::available_parallelism().unwrap().get().min(64);
    assert_eq!(threads(&[]), cores);
    assert_eq!(threads(&["--threads", "3"]), 3);
}

/// `spades sim` recording to `record`, quickly.
fn sim_recording_to(dir: &tempfile::TempDir, record: &str) -> Command {
    let mut cmd = spades(dir);
    cmd.args(["sim", "--games", "1", "--max-hands", "1", "--threads", "1"])
        .args(["--seats", "random,random,random,random", "--record", record]);
    cmd
}

#[test]
fn sim_record_never_overwrites_without_force() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(&dir, "r.jsonl", "last night's games\n");
    sim_recording_to(&dir, "r.jsonl").assert().code(2).stderr(
        predicate::str::contains("r.jsonl already exists").and(predicate::str::contains("--force")),
    );
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "last night's games\n"
    );
    sim_recording_to(&dir, "r.jsonl")
        .arg("--force")
        .assert()
        .success();
    assert_eq!(replayed_games(&path).len(), 1);
}

#[test]
fn sim_record_in_a_missing_directory_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    sim_recording_to(&dir, "nowhere/r.jsonl")
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "cannot write nowhere/r.jsonl: the directory nowhere does not exist",
        ));
    write(&dir, "notes.txt", "");
    sim_recording_to(&dir, "notes.txt/r.jsonl")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("notes.txt is not a directory"));
}

#[cfg(unix)]
#[test]
fn sim_record_in_a_read_only_directory_exits_2() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let locked = dir.path().join("locked");
    std::fs::create_dir(&locked).unwrap();
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o555)).unwrap();
    // Someone who may write anywhere (root) cannot see this refusal.
    if std::fs::write(locked.join("probe"), "").is_ok() {
        eprintln!("skipped: this user can write in a read-only directory");
        return;
    }
    sim_recording_to(&dir, "locked/r.jsonl")
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "cannot write locked/r.jsonl: permission denied",
        ));
}

/// A plain code (no TLS) naming another machine is refused as the code is
/// read, exit 2, before any terminal or network is used: the clear-text
/// hello is never sent. (10.1.2.3 is never reached: the parse fails first.)
#[test]
fn plain_codes_for_another_machine_are_refused_before_connecting() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["join", "ABCDEFGHIJKLMNOP.plain@10.1.2.3:4466"][..],
        &["host", "--server", "plain@10.1.2.3:4466"],
    ] {
        spades(&dir)
            .args(args)
            .timeout(std::time::Duration::from_secs(20))
            .assert()
            .code(2)
            .stderr(
                predicate::str::contains("no encryption")
                    .and(predicate::str::contains("127.0.0.1, ::1 or localhost"))
                    .and(predicate::str::contains("terminal").not()),
            );
    }
}

/// A table code or server that cannot be read, and flags that cannot go
/// together, exit 2 naming the problem before the terminal is touched.
#[test]
fn bad_table_codes_and_network_flags_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    for (args, says) in [
        (&["join", "not-a-code"][..], "not a table code"),
        (&["join", "ABCDEF.plain@localhost"], "no :PORT"),
        (&["join", "ABCDEF.SHORT@localhost:4466"], "fingerprint"),
        (&["host", "--server", "localhost"], "FINGERPRINT@HOST:PORT"),
        (&["host", "--server", "plain@localhost"], "HOST:PORT"),
        (&["host", "--turn-timer", "1"], "turn-timer"),
        (&["host", "--mode", "solo"], "solo"),
        (
            &["lobby", "ABCDEF.plain@localhost:4466"],
            "FINGERPRINT@HOST:PORT",
        ),
        (&["lobby", "plain@localhost"], "no :PORT"),
        (&["lobby", "plain@10.1.2.3:4466"], "no encryption"),
    ] {
        spades(&dir)
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(says));
    }
    // A good code still needs a terminal to play in.
    for args in [
        &["join", "ABCDEFGHIJKLMNOP.plain@127.0.0.1:1"][..],
        &["join", "ABCDEFGHIJKLMNOP@cards.example.org:1"],
        &["lobby", "plain@127.0.0.1:1"],
        &["lobby", "cards.example.org:1"],
    ] {
        spades(&dir)
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("terminal"));
    }
}

/// `spades watch` takes a code as `join` does: one that cannot be read,
/// or one naming a table the server does not have, exits 2 saying so,
/// before the terminal is touched; so does a flag only a player's table
/// takes.
#[test]
fn watching_a_bad_code_or_no_table_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    spades(&dir)
        .args(["watch", "not-a-code"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not a table code"));
    // A spectator runs no bot and plays no card: the table's other looks
    // are refused rather than taken and ignored.
    for flag in [
        &["--speed", "fast"][..],
        &["--think-ms", "5"],
        &["--no-auto-play"],
    ] {
        spades(&dir)
            .args(["watch", "NOSUCHTABLE.plain@127.0.0.1:1"])
            .args(flag)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(flag[0]));
    }
    let server = spades::net::server::Server::start(spades::net::server::ServerOptions {
        listen: "127.0.0.1:0".parse().unwrap(),
        plain: true,
        threads: Some(1),
        ..Default::default()
    })
    .unwrap();
    let code = format!("NOSUCHTABLE.plain@{}", server.address());
    spades(&dir)
        .args(["watch", &code])
        .timeout(std::time::Duration::from_secs(30))
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("no such table NOSUCHTABLE")
                .and(predicate::str::contains("terminal").not()),
        );
    server.stop();
}

/// A ladder's database that cannot be used stops `spades serve` at start,
/// exit 2, naming it: a PostgreSQL address that is not one, a database
/// nobody answers at (its password never said), a file of something else.
#[test]
fn a_ladder_database_that_cannot_be_used_exits_2_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .unwrap()
        .port();
    let nobody = format!("postgres://ann:hunter2@127.0.0.1:{port}/ladder");
    std::fs::write(dir.path().join("notes.txt"), "not a database\n".repeat(200)).unwrap();
    for (db, says) in [
        (
            "postgresql://ann@db:notaport/x",
            "not a PostgreSQL address".to_string(),
        ),
        (
            nobody.as_str(),
            format!("cannot open the PostgreSQL database postgres://ann@127.0.0.1:{port}/ladder"),
        ),
        ("notes.txt", "notes.txt is not a database".to_string()),
    ] {
        spades(&dir)
            .args([
                "serve",
                "--port",
                "0",
                "--listen",
                "127.0.0.1",
                "--insecure-plain",
            ])
            .args(["--db", db])
            .timeout(std::time::Duration::from_secs(30))
            .assert()
            .code(2)
            .stderr(predicate::str::contains(says))
            .stderr(predicate::str::contains("hunter2").not());
    }
}
