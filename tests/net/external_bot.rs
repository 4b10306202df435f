//! Bots in another process (`spades sim --seats exec:COMMAND`): the example
//! bot plays whole games in every mode, and a bot that misbehaves is
//! replaced by `normal` for the rest of its game, which always completes
//! with a record that verifies.

use std::path::Path;

use assert_cmd::Command;
use serde_json::Value;
use tempfile::TempDir;

/// `examples/bot.py`, as an `exec:` seat.
fn example_bot() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/bot.py");
    format!("exec:python3 {}", path.display())
}

/// The real binary, in `dir`, finding no rules file but the classic game.
fn spades(dir: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_spades"));
    cmd.current_dir(dir)
        .env("HOME", dir)
        .env("XDG_CONFIG_HOME", dir.join("config"));
    cmd
}

/// A short `spades sim` with `seats`, its record written to `record`.
fn sim(dir: &Path, mode: &str, seats: &[String], games: u32, record: &Path) -> Command {
    let mut cmd = spades(dir);
    cmd.args(["sim", "--mode", mode, "--target", "200", "--seed", "7"])
        .args(["--threads", "2", "--games", &games.to_string()])
        .arg("--seats")
        .arg(seats.join(","))
        .arg("--record")
        .arg(record);
    cmd
}

/// The record passes `spades verify` and the independent checker, and
/// holds `games` games.
fn assert_record_verifies(dir: &Path, record: &Path, games: usize) {
    spades(dir).arg("verify").arg(record).assert().success();
    let text = std::fs::read_to_string(record).unwrap();
    let report = support::checker::check_record(&text);
    assert!(report.is_ok(), "{}", report.describe());
    assert_eq!(report.games, games);
}

fn strings(seats: &[&str]) -> Vec<String> {
    seats.iter().map(|s| s.to_string()).collect()
}

#[test]
fn the_example_bot_plays_whole_games_in_every_mode() {
    let dir = tempfile::tempdir().unwrap();
    let bot = example_bot();
    for (mode, others) in [
        ("partnership", &["normal", "easy", "normal"][..]),
        ("cutthroat", &["normal", "easy"][..]),
        ("individual", &["easy", "normal", "easy"][..]),
        ("dummy", &["normal", "easy"][..]),
    ] {
        let record = dir.path().join(format!("{mode}.jsonl"));
        let mut seats = vec![bot.clone()];
        seats.extend(strings(others));
        let out = sim(dir.path(), mode, &seats, 2, &record)
            .arg("--json")
            .assert()
            .success();
        let report: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
        assert_eq!(report["replaced"], Value::Array(vec![]), "{mode}: {report}");
        assert_eq!(report["games"], 2, "{mode}");
        assert_eq!(report["abandoned"], 0, "{mode}");
        assert_eq!(report["bots"][0]["bot"], bot.as_str(), "{mode}");
        assert_record_verifies(dir.path(), &record, 2);
    }
}

#[test]
fn each_game_starts_the_program_once() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("r.jsonl");
    // The table makes a stand-in bot at every decision: none of them may
    // start a program of its own.
    let bot = example_bot().replacen(':', ":echo started >> starts; ", 1);
    let seats = vec![bot, "normal".into(), "normal".into(), "normal".into()];
    let out = sim(dir.path(), "partnership", &seats, 3, &record)
        .assert()
        .success();
    let summary = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(!summary.contains("replaced"), "{summary}");
    let starts = std::fs::read_to_string(dir.path().join("starts")).unwrap();
    assert_eq!(starts.lines().count(), 3, "{starts}");
    assert_record_verifies(dir.path(), &record, 3);
}

/// Runs a game with the program `script` (written to the tempdir as
/// `name`) in seat `seat`, and returns the summary, after checking that
/// the game completed and its record verifies. The program fails in the
/// run's one game, so the run fails (exit 1) once the game is over.
fn misbehaving(name: &str, script: &str, seat: usize, extra: &[&str]) -> (String, TempDir) {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    std::fs::write(dir.join(name), script).unwrap();
    let runner = if name.ends_with(".py") {
        "python3"
    } else {
        "sh"
    };
    let mut seats = strings(&["normal", "easy", "normal", "easy"]);
    seats[seat] = format!("exec:{runner} {name}");
    let record = dir.join("r.jsonl");
    let out = sim(dir, "partnership", &seats, 1, &record)
        .args(extra)
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .code(1);
    assert_record_verifies(dir, &record, 1);
    let summary = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(summary.starts_with("1 games of partnership"), "{summary}");
    (summary, temp)
}

/// The summary names the seat, its command, the game and hand, and why.
fn assert_replaced(summary: &str, seat: usize, name: &str, runner: &str, why: &str) {
    let said = format!(
        "seat {seat} (exec:{runner} {name}) was replaced by normal in game 1, hand 1: {why}"
    );
    assert!(summary.contains(&said), "wanted `{said}` in:\n{summary}");
}

#[test]
fn an_illegal_answer_is_replaced() {
    let script = r#"
import json, sys
print(json.dumps({"type": "hello", "protocol": 1, "name": "cheat"}), flush=True)
for line in sys.stdin:
    ask = json.loads(line)
    if ask["type"] != "ask":
        continue
    legal = ask["legal"]
    if legal["kind"] == "cards":
        # A card of the deck it may not play: not in its hand, or not
        # following suit.
        deck = [r + s for s in "SHDC" for r in "AKQJT98765432"]
        bad = next(c for c in deck if c not in legal["cards"])
        print("playing " + bad, file=sys.stderr, flush=True)
        action = {"play": bad}
    elif legal["look"]:
        action = "look"
    else:
        action = {"bid": next(b for b in legal["bids"] if isinstance(b, int))}
    print(json.dumps({"type": "act", "action": action}), flush=True)
"#;
    let (summary, _) = misbehaving("cheat.py", script, 1, &[]);
    assert_replaced(&summary, 1, "cheat.py", "python3", "answered {\"play\":\"");
    assert!(summary.contains("which is not legal here: "), "{summary}");
    assert!(summary.contains("  stderr: playing "), "{summary}");
}

/// A card of its own hand that does not follow suit is refused with the
/// engine's reason, the words the network server gives (`Legal::refusal`),
/// both in the summary and in the `error` the program is sent.
#[test]
fn an_illegal_card_is_refused_with_the_reason() {
    let script = r#"
import json, sys
print(json.dumps({"type": "hello", "protocol": 1, "name": "revoke"}), flush=True)
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "error":
        print("told: " + message["code"] + ": " + message["message"], file=sys.stderr, flush=True)
    if message["type"] != "ask":
        continue
    legal, view = message["legal"], message["view"]
    if legal["kind"] == "cards":
        led = view["play"]["led"]
        # A card of another suit while holding the suit led: a revoke.
        revoke = [c for c in view["hand"] if led and c[1] != led and c not in legal["cards"]]
        action = {"play": (revoke or legal["cards"])[0]}
    elif legal["kind"] == "exchange":
        action = {"exchange": view["hand"][: legal["count"]]}
    elif legal["look"]:
        action = "look"
    else:
        action = {"bid": next(b for b in legal["bids"] if isinstance(b, int))}
    print(json.dumps({"type": "act", "action": action}), flush=True)
"#;
    let (summary, _) = misbehaving("revoke.py", script, 0, &[]);
    let suits = ["clubs", "diamonds", "hearts", "spades"];
    let said = summary
        .lines()
        .find(|l| l.starts_with("seat 0 (exec:python3 revoke.py) was replaced"))
        .unwrap_or_else(|| panic!("no replacement in:\n{summary}"));
    let (_, why) = said
        .split_once("which is not legal here: ")
        .unwrap_or_else(|| panic!("no reason in `{said}`"));
    assert!(
        suits.iter().any(|s| why == format!("you must follow {s}")),
        "{said}"
    );
    // The program was told the same, in its `error`, before `bye`.
    let told = summary
        .lines()
        .find(|l| l.starts_with("  stderr: told: illegal: answered {\"play\":"))
        .unwrap_or_else(|| panic!("no error told in:\n{summary}"));
    assert!(
        told.ends_with(&format!("which is not legal here: {why}")),
        "{told}"
    );
}

#[test]
fn a_slow_answer_is_replaced_and_the_program_stopped() {
    // Says hello, then thinks far too long about its first ask, in a
    // process of its own: it is stopped with the program.
    let script = r#"echo '{"type":"hello","protocol":1,"name":"slow"}'
read -r welcome
read -r seated
read -r ask
sleep 30 &
echo $! > sleeper.pid
wait
"#;
    let (summary, dir) = misbehaving("slow.sh", script, 0, &["--bot-timeout", "300"]);
    assert_replaced(&summary, 0, "slow.sh", "sh", "did not answer within 300 ms");
    let pid = std::fs::read_to_string(dir.path().join("sleeper.pid")).unwrap();
    let stat = std::fs::read_to_string(format!("/proc/{}/stat", pid.trim()));
    // Gone, or dead and waiting for the system to reap it.
    let alive = stat.is_ok_and(|s| {
        let state = s.rsplit(')').next().unwrap_or("").trim_start();
        !state.starts_with('Z') && !state.starts_with('X')
    });
    assert!(!alive, "the program's sleep {} still runs", pid.trim());
}

#[test]
fn a_program_that_exits_after_hello_is_replaced() {
    let script = r#"echo '{"type":"hello","protocol":1,"name":"quitter"}'
echo "nothing more to say" >&2
exit 3
"#;
    let (summary, _) = misbehaving("quit.sh", script, 2, &[]);
    assert_replaced(&summary, 2, "quit.sh", "sh", "exited with code 3");
    assert!(
        summary.contains("  stderr: nothing more to say"),
        "{summary}"
    );
}

#[test]
fn garbage_is_replaced() {
    let script = r#"echo '{"type":"hello","protocol":1,"name":"garbage"}'
read -r welcome
read -r seated
read -r ask
echo 'my bid is four'
cat > /dev/null
"#;
    let (summary, _) = misbehaving("garbage.sh", script, 3, &[]);
    assert_replaced(
        &summary,
        3,
        "garbage.sh",
        "sh",
        "sent `my bid is four`: not JSON from column 1: a message is one JSON object on one line",
    );
}

/// JSON that is not a message names what was expected, in the words the
/// network server uses for the same line (`protocol::parse`).
#[test]
fn a_message_the_protocol_does_not_know_is_named_plainly() {
    let script = r#"echo '{"type":"hello","protocol":1,"name":"typo"}'
read -r welcome
read -r seated
read -r ask
echo '{"type":"act","action":{"play":"1S"}}'
cat > /dev/null
"#;
    let (summary, _) = misbehaving("typo.sh", script, 0, &[]);
    let plain = spades::protocol::parse::<spades::protocol::ClientMessage>(
        r#"{"type":"act","action":{"play":"1S"}}"#,
    )
    .unwrap_err();
    assert!(
        plain.starts_with("not a message of the protocol: `1S` is not a card"),
        "{plain}"
    );
    assert_replaced(
        &summary,
        0,
        "typo.sh",
        "sh",
        &format!("sent `{{\"type\":\"act\",\"action\":{{\"play\":\"1S\"}}}}`: {plain}"),
    );
}

#[test]
fn a_program_that_never_says_hello_is_replaced() {
    let script = "cat > /dev/null\n";
    let (summary, _) = misbehaving("mute.sh", script, 0, &["--bot-timeout", "300"]);
    assert_replaced(
        &summary,
        0,
        "mute.sh",
        "sh",
        "did not say hello within 300 ms",
    );
}

#[test]
fn the_json_summary_lists_each_replacement() {
    let script = "exit 1\n";
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("gone.sh"), script).unwrap();
    let record = dir.path().join("r.jsonl");
    let seats = strings(&["exec:sh gone.sh", "normal", "normal", "normal"]);
    // Replaced in every game: the run fails, its summary printed all the same.
    let out = sim(dir.path(), "partnership", &seats, 2, &record)
        .args(["--json", "--duplicate"])
        .assert()
        .code(1);
    let report: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let replaced = report["replaced"].as_array().unwrap();
    // Two deals, each played from both sides: the program sits in seat 0,
    // then seat 1.
    let seats: Vec<(u64, u64)> = replaced
        .iter()
        .map(|r| (r["game"].as_u64().unwrap(), r["seat"].as_u64().unwrap()))
        .collect();
    assert_eq!(seats, [(1, 0), (2, 1), (3, 0), (4, 1)], "{report}");
    for r in replaced {
        assert_eq!(r["bot"], "exec:sh gone.sh");
        assert_eq!(r["by"], "normal");
        assert_eq!(r["hand"], 1);
        assert_eq!(r["reason"], "exited with code 1");
    }
    assert_record_verifies(dir.path(), &record, 4);
}

#[test]
fn exec_with_no_command_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    for seats in ["exec:,normal,normal,normal", "normal,exec:  ,normal,normal"] {
        let out = spades(dir.path())
            .args(["sim", "--games", "1", "--seats", seats])
            .assert()
            .code(2);
        let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
        assert!(err.contains("names no program"), "{err}");
        assert!(err.contains("exec:python3 examples/bot.py"), "{err}");
    }
}

/// At the table (`spades --difficulty exec:COMMAND`) each computer seat is
/// the program: a whole short game is played against three of them.
#[test]
fn the_example_bot_plays_at_the_table_in_every_computer_seat() {
    use spades::engine::{Mode, Phase, Rules};
    use spades::tui::app::Screen;
    let dir = TempDir::new().unwrap();
    // Each program's messages are copied to a log on their way in, to see
    // that the programs, and not stand-ins, were asked.
    let log = dir.path().join("heard.log");
    let mut config = support::tui::config(Mode::Partnership, 7);
    config.game.difficulty = format!(
        "exec:tee -a {} | {}",
        log.display(),
        example_bot().trim_start_matches("exec:")
    )
    .parse()
    .unwrap();
    config.game.rules = Rules::classic(Mode::Partnership)
        .with(|r| {
            r.target_score = 150;
            r.losing_score = Some(-150);
        })
        .unwrap();
    let mut app = support::tui::app(config);
    support::tui::play_until(&mut app, |a| a.screen() == Screen::GameOver);
    assert_eq!(app.view().phase, Phase::Over);
    drop(app);
    let heard = std::fs::read_to_string(&log).unwrap();
    let asks = heard
        .lines()
        .filter(|l| l.contains(r#""type":"ask""#))
        .count();
    assert!(asks > 50, "the programs were asked ({asks} asks)");
    assert!(
        !heard.contains(r#""type":"error""#),
        "no program was refused anything"
    );
}

/// At the table, a program that fails is replaced by `normal` for the rest
/// of the game, and the player is told which seat and why.
#[test]
fn the_table_says_when_a_program_is_replaced() {
    use spades::engine::Mode;
    let mut config = support::tui::config(Mode::Partnership, 7);
    // It exits at once: its seat's first decision finds it gone.
    config.game.difficulty = "exec:true".parse().unwrap();
    let mut app = support::tui::app(config);
    support::tui::play_until(&mut app, |a| {
        a.notice()
            .is_some_and(|n| n.contains("program was replaced by normal in hand 1"))
    });
}

/// The first bot of `docs/bot-authors.md`, as the page gives it, plays
/// whole games without being replaced, in every mode.
#[test]
fn the_first_bot_of_the_bot_authors_page_plays_legally() {
    let page =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/bot-authors.md"))
            .unwrap();
    let (_, after) = page.split_once("```python\n").expect("a Python block");
    let (code, _) = after.split_once("```").unwrap();
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    std::fs::write(dir.join("first.py"), code).unwrap();
    for (mode, others) in [
        ("partnership", "normal,easy,normal"),
        ("cutthroat", "normal,easy"),
        ("dummy", "normal,easy"),
    ] {
        let record = dir.join(format!("{mode}.jsonl"));
        let seats = [format!("exec:python3 first.py,{others}")];
        let out = sim(dir, mode, &seats, 2, &record)
            .arg("--json")
            .assert()
            .success();
        let report: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
        assert_eq!(report["replaced"], Value::Array(vec![]), "{mode}: {report}");
        assert_record_verifies(dir, &record, 2);
    }
}
