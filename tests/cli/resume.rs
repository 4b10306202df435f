//! Nothing lost: a game in a real terminal, killed (`kill -9`) at random
//! moments and resumed each time, always comes back as it was played so
//! far; a waiting game is offered on start; unreadable saves are set aside
//! with word of why; a game that cannot be saved says so and plays on.

use std::time::Duration;

use predicates::prelude::*;
use rand::{RngExt, SeedableRng};
use spades::engine::{Card, CardSet, Game, Seat};
use spades::save::{Saved, Step};
use support::pty::Pty;

const TERM: Option<&str> = Some("xterm-256color");

/// The one save in the program's data folder, if there is one.
fn the_save(pty: &Pty) -> Option<Saved> {
    let saves = pty.saves();
    assert!(saves.len() <= 1, "{saves:?}");
    saves
        .first()
        .map(|p| Saved::load(p).expect("a save that reads"))
}

/// The player's cards after the saved steps, as the engine deals and plays
/// them; `None` while they lie face down.
fn cards_after(saved: &Saved) -> Option<CardSet> {
    // Open or secret, the header holds the seed the deals come from.
    let mut game = Game::new(saved.header.rules, saved.header.seed);
    for &step in &saved.steps {
        match step {
            Step::Act { seat, action } => {
                game.apply(seat, action)
                    .expect("a saved step the rules allow");
            }
            Step::Deal => {
                game.deal_next_hand().expect("a saved deal");
            }
        }
    }
    game.view(Seat::new(0)).hand
}

/// Cards written as in the ASCII hand row (`QS`, `10C`) on a line.
fn cards_in(line: &str) -> CardSet {
    let mut found = CardSet::EMPTY;
    for cell in line.split('|') {
        let face = cell.trim().replace("10", "T");
        if let Ok(card) = face.parse::<Card>() {
            found.insert(card);
        }
    }
    found
}

/// On the blind nil exchange, the cards chosen so far and how many to pass:
/// `To pass (1 of 2)`.
fn to_pass(text: &str) -> Option<(usize, usize)> {
    let at = text.find("To pass (")? + "To pass (".len();
    let (counts, _) = text[at..].split_once(')')?;
    let (chosen, of) = counts.split_once(" of ")?;
    Some((chosen.parse().ok()?, of.parse().ok()?))
}

/// Some keys a player might press: the card under the cursor, a bid,
/// going on from a summary or a pause.
fn play_a_little(pty: &mut Pty, rng: &mut impl RngExt) {
    for _ in 0..rng.random_range(1..6) {
        let text = pty.text();
        if text.contains("Your bid") || text.contains("Blind nil?") {
            pty.send(b"c2\r");
        } else if let Some((chosen, of)) = to_pass(&text) {
            // Choose the cards from the left, then pass them.
            if chosen < of {
                pty.send(&[b"123456789"[chosen]]);
            } else {
                pty.send(b"\r");
            }
        } else if let Some(key) = pty.cursor_key()
            && text.contains("Your turn")
        {
            pty.send(&[key]);
        } else {
            pty.send(b"\r");
        }
        // Mostly after the screen answers, sometimes before it can.
        pty.settles(Duration::from_millis(rng.random_range(0..200)), &text);
    }
}

/// A scripted game killed at 50 random moments: after each kill the save
/// on disk holds every step it held before and perhaps some more (never a
/// broken one), and the resumed game shows the player exactly the cards
/// those steps leave them.
#[test]
fn a_game_killed_at_random_moments_resumes_as_it_was() {
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(0xC0FFEE);
    let mut pty = Pty::start(&["--seed", "11", "--speed", "instant", "--ascii"], TERM);
    let home = pty.home();
    let mut before: Vec<Step> = Vec::new();
    let mut resumed = 0;
    let mut game_id = String::new();
    let mut games = 0;
    for kill in 0..50 {
        pty.wait_for("the table", |s| s.contains("? help  q quit"));
        play_a_little(&mut pty, &mut rng);
        std::thread::sleep(Duration::from_millis(rng.random_range(0..30)));
        pty.kill();
        let Some(saved) = the_save(&pty) else {
            // The game ended between two kills: a new one begins.
            pty = Pty::start_at(
                home.clone(),
                &["--new", "--speed", "instant", "--ascii"],
                TERM,
            );
            continue;
        };
        if saved.header.id != game_id {
            // A game ended and the player began another.
            game_id = saved.header.id.clone();
            games += 1;
            before.clear();
        }
        assert!(
            saved.steps.starts_with(&before),
            "kill {kill}: steps lost ({} before, {} now)",
            before.len(),
            saved.steps.len()
        );
        before = saved.steps.clone();
        eprintln!("kill {kill}: {} steps saved", before.len());

        pty = Pty::start_at(
            home.clone(),
            &["resume", "--speed", "instant", "--ascii"],
            TERM,
        );
        pty.wait_for("the resumed table", |s| s.contains("? help  q quit"));
        resumed += 1;
        if let Some(mine) = cards_after(&saved).filter(|c| !c.is_empty()) {
            // A frame may still be on its way: wait for the hand to show.
            pty.wait_for("the player's cards as saved", |s| {
                s.lines().any(|line| cards_in(line) == mine)
            });
        }
    }
    pty.kill();
    eprintln!("{resumed} kills resumed, over {games} games");
    assert!(
        resumed >= 40,
        "only {resumed} of 50 kills left a game to resume"
    );
    // The records, written on across every kill, hold games that follow
    // the rules; each finished one proves its deals.
    for record in pty.records() {
        let text = std::fs::read_to_string(&record).unwrap();
        for verdict in spades::verify::verify(&text).expect("a record that reads") {
            assert!(
                !matches!(verdict.outcome, spades::verify::Outcome::Failed(_)),
                "{record:?}: {verdict:?}"
            );
            if verdict.winner.is_some() {
                assert!(verdict.is_verified(), "{record:?}: {verdict:?}");
            }
        }
    }
}

/// A waiting game is offered on start, one key away; n starts a new one
/// and keeps the old one waiting.
#[test]
fn a_waiting_game_is_offered_on_start() {
    let mut pty = Pty::start(&["--seed", "4", "--speed", "instant", "--ascii"], TERM);
    pty.wait_for("the bidding", |s| s.contains("Your bid"));
    pty.quit();
    let home = pty.home();

    let mut pty = Pty::start_at(home.clone(), &["--speed", "instant", "--ascii"], TERM);
    pty.wait_for("the offer", |s| s.contains("A game is waiting"));
    pty.send(b"\r");
    pty.wait_for("the resumed game", |s| s.contains("Deals known: seed 4"));
    pty.quit();

    let mut pty = Pty::start_at(home.clone(), &["--speed", "instant", "--ascii"], TERM);
    pty.wait_for("the offer", |s| s.contains("A game is waiting"));
    pty.send(b"n");
    pty.wait_for("a new game", |s| s.contains("Deals sealed #"));
    pty.quit();
    assert_eq!(pty.saves().len(), 2, "both games wait");
}

/// A game open in another window is not offered (taking it up would fail:
/// that spades holds it), only named; Enter starts a new game.
#[test]
fn a_game_open_in_another_window_is_named_not_offered() {
    let mut first = Pty::start(&["--seed", "4", "--speed", "instant", "--ascii"], TERM);
    first.wait_for("the bidding", |s| s.contains("Your bid"));
    let mut second = Pty::start_at(first.home(), &["--speed", "instant", "--ascii"], TERM);
    second.wait_for("the offer", |s| s.contains("Open in another window"));
    let offer = second.text();
    assert!(!offer.contains("A game is waiting"), "{offer}");
    assert!(offer.contains("partnership, to 500, hand 1"), "{offer}");
    second.send(b"\r");
    second.wait_for("a new game", |s| s.contains("Deals sealed #"));
    second.quit();
    first.quit();
    assert_eq!(first.saves().len(), 2, "both games wait");
}

/// `spades resume` with a game another process holds (its lock taken by
/// another file handle, as a second spades takes it): the list says it is
/// open in another window, and taking it up or giving it up is refused
/// with exit 2 before the terminal is touched.
#[test]
fn resume_names_a_game_open_elsewhere_and_leaves_it_alone() {
    let mut pty = Pty::start(&["--seed", "4", "--speed", "instant", "--ascii"], TERM);
    pty.wait_for("the bidding", |s| s.contains("Your bid"));
    pty.quit();
    let home = pty.home();
    let save = the_save(&pty).expect("the game waits");
    let id = save.header.id.clone();
    let lock = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(save.path.with_extension("lock"))
        .unwrap();
    lock.try_lock().unwrap();
    let spades = |args: &[&str]| support::game::spades(&home).args(args).assert();
    spades(&["resume", "--list"])
        .success()
        .stdout(predicates::str::contains(format!("{id}  partnership")))
        .stdout(predicates::str::contains("(open in another window)"));
    spades(&["resume"])
        .code(2)
        .stderr(predicates::str::contains(
            "no game is waiting to be resumed here",
        ));
    for args in [
        &["resume", id.as_str()][..],
        &["resume", id.as_str(), "--abandon"],
    ] {
        spades(args)
            .code(2)
            .stderr(predicates::str::contains("is open in another window"));
    }
    drop(lock);
    spades(&["resume", "--list"])
        .success()
        .stdout(predicates::str::contains("open in another window").not());
    assert!(the_save(&pty).is_some(), "the game still waits");
}

/// How the table looks is the player's choice now: flags given to plain
/// `spades` apply to the game it resumes.
#[test]
fn look_flags_apply_to_a_game_resumed_from_the_offer() {
    let mut pty = Pty::start(&["--seed", "4", "--speed", "instant", "--ascii"], TERM);
    pty.wait_for("the bidding", |s| s.contains("Your bid"));
    pty.quit();
    let args = ["--speed", "fast", "--no-auto-play", "--ascii"];
    let mut pty = Pty::start_at(pty.home(), &args, TERM);
    pty.wait_for("the offer", |s| s.contains("A game is waiting"));
    pty.send(b"\r");
    pty.wait_for("the resumed game", |s| s.contains("Deals known: seed 4"));
    pty.send(b"r");
    pty.wait_for("the rules window", |s| s.contains("Rules in force"));
    let rules = pty.text();
    assert!(rules.contains("Speed      fast"), "{rules}");
    assert!(rules.contains("auto-play off"), "{rules}");
    pty.send(b"r");
    pty.quit();
}

/// A game keeps its own look: one begun with `--speed fast --no-auto-play
/// --ascii` and resumed from plain `spades` looks and moves as it did,
/// and a flag given now wins over what it kept.
#[test]
fn a_resumed_game_keeps_the_look_it_was_played_with() {
    let args = [
        "--seed",
        "4",
        "--speed",
        "fast",
        "--no-auto-play",
        "--ascii",
    ];
    let mut pty = Pty::start(&args, TERM);
    pty.wait_for("the bidding", |s| s.contains("Your bid"));
    pty.quit();
    let rules_window = |pty: &mut Pty| {
        pty.wait_for("the offer", |s| s.contains("A game is waiting"));
        pty.send(b"\r");
        pty.wait_for("the resumed game", |s| s.contains("Deals known: seed 4"));
        pty.send(b"r");
        pty.wait_for("the rules window", |s| s.contains("Rules in force"));
        let rules = pty.text();
        pty.send(b"r");
        rules
    };
    let mut pty = Pty::start_at(pty.home(), &[], TERM);
    let rules = rules_window(&mut pty);
    assert!(rules.contains("Speed      fast"), "{rules}");
    assert!(rules.contains("auto-play off"), "{rules}");
    // Plain letters and lines: nothing drawn with the box-drawing set.
    assert!(!rules.contains('─') && !rules.contains('♠'), "{rules}");
    pty.quit();
    let mut pty = Pty::start_at(pty.home(), &["--speed", "slow"], TERM);
    let rules = rules_window(&mut pty);
    assert!(rules.contains("Speed      slow"), "{rules}");
    assert!(rules.contains("auto-play off"), "{rules}");
    pty.quit();
}

/// Saves that cannot be used say why, are set aside as `.bad`, and a new
/// game is offered: an empty one, a cut-off header, another version's,
/// rules this version refuses, a broken step, a huge one.
#[test]
fn unreadable_saves_are_set_aside_with_word_of_why() {
    let home = std::sync::Arc::new(tempfile::tempdir().unwrap());
    let saves = home.path().join("data/spades/saves");
    std::fs::create_dir_all(&saves).unwrap();
    let header = r#"{"save":1,"version":"0.1.0","id":"g","started":1,"rules":{},"name":"You","difficulty":"easy","rules_source":"x","seed":1,"salt":null,"record":null}"#;
    let bad = [
        ("empty.save", String::new()),
        ("cut.save", header[..40].to_string()),
        (
            "newer.save",
            r#"{"save":7,"version":"9.9.9"}"#.to_string() + "\n",
        ),
        (
            "rules.save",
            header.replace(r#""rules":{}"#, r#""rules":{"target_score":-40}"#) + "\n",
        ),
        (
            "id.save",
            header
                .replace(r#""id":"g""#, r#""id":"../../g""#)
                .replace(r#""record":null"#, r#""record":"../../g.jsonl""#)
                + "\n",
        ),
        (
            "step.save",
            format!("{header}\n{{\"step\":\"act\",\"seat\":0,\"action\":{{\"play\":\"AS\"}}}}\n"),
        ),
    ];
    for (name, text) in &bad {
        std::fs::write(saves.join(name), text).unwrap();
    }
    let huge = std::fs::File::create(saves.join("huge.save")).unwrap();
    huge.set_len(spades::save::MAX_BYTES + 1).unwrap();

    let mut pty = Pty::start_at(home.clone(), &["--speed", "instant", "--ascii"], TERM);
    pty.wait_for("word of the bad saves", |s| s.contains("cannot be resumed"));
    let text = pty.text();
    for what in [
        "huge.save: it is 16777217 bytes",
        "cut.save: line 1: not JSON",
        "empty.save: it is empty",
        "newer.save: it is save format 7",
        "step.save: line 2: the rules refuse this step",
        "rules.save: line 1: ",
        "id.save: line 1: its `id` is not one spades makes",
        "Each is kept as NAME.bad in ~/data/spades/saves",
        "start a new game",
    ] {
        assert!(text.contains(what), "{what}: {text}");
    }
    pty.send(b"\r");
    pty.wait_for("a new game", |s| {
        s.contains("Your bid") || s.contains("Blind nil?")
    });
    pty.quit();
    for (name, _) in &bad {
        assert!(
            saves.join(format!("{name}.bad")).exists(),
            "{name} kept aside"
        );
        assert!(!saves.join(name).exists(), "{name} not offered again");
    }
    assert!(saves.join("huge.save.bad").exists());
}

/// With no folder to save in, the game plays and says it cannot be saved.
#[test]
fn a_game_that_cannot_be_saved_says_so_and_plays() {
    let home = std::sync::Arc::new(tempfile::tempdir().unwrap());
    // A data folder under a file cannot be made, even by root.
    std::fs::write(home.path().join("data"), "a file").unwrap();
    let mut pty = Pty::start_at(home, &["--speed", "instant", "--ascii"], TERM);
    pty.wait_for("the notice", |s| s.contains("Saving is off"));
    pty.send(b"q");
    pty.wait_for("the question", |s| s.contains("It cannot be saved"));
    pty.send(b"y");
    let status = pty.exit_status();
    assert!(status.success(), "{status:?}");
}

/// A save is a file anyone could have written: one whose header points
/// its `record` at another file cannot make spades write there. Resumed
/// and played on, or given up, the game's record goes to its own file in
/// the records folder, named by its id, and the other file is untouched.
#[test]
fn a_save_pointing_its_record_elsewhere_cannot_write_there() {
    let mut pty = Pty::start(&["--seed", "4", "--speed", "instant", "--ascii"], TERM);
    pty.wait_for("the bidding", |s| s.contains("Your bid"));
    pty.quit();
    let home = pty.home();
    let own = pty.record_path();
    let victim = home.path().join("precious.txt");
    let precious = "not a record, and not spades' to write\n";
    std::fs::write(&victim, precious).unwrap();
    let save = the_save(&pty).expect("the game waits");
    let text = std::fs::read_to_string(&save.path).unwrap();
    let (first, steps) = text.split_once('\n').unwrap();
    let mut header: serde_json::Value = serde_json::from_str(first).unwrap();
    header["record"] = serde_json::json!(victim);
    std::fs::write(&save.path, format!("{header}\n{steps}")).unwrap();

    let mut pty = Pty::start_at(home.clone(), &["--speed", "instant", "--ascii"], TERM);
    pty.wait_for("the offer", |s| s.contains("A game is waiting"));
    pty.send(b"\r");
    pty.wait_for("the resumed game", |s| s.contains("Deals known: seed 4"));
    pty.send(b"c2\r");
    pty.quit();
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), precious);

    let id = save.header.id.clone();
    support::game::spades(&home)
        .args(["resume", &id, "--abandon"])
        .assert()
        .success()
        .stdout(predicates::str::contains(own.display().to_string()));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), precious);
    let record = std::fs::read_to_string(&own).unwrap();
    assert!(record.contains("abandoned"), "{record}");
    assert_eq!(pty.records(), vec![own]);
}

/// A game waiting in `home`'s saves folder, written as the table writes
/// one (no moves yet, no record), left `days` days ago.
fn waiting_game(home: &tempfile::TempDir, id: &str, rules: spades::engine::Rules, days: u64) {
    use spades::save::{FORMAT, Journal, SaveHeader};
    let dir = home.path().join("data").join("spades").join("saves");
    let header = SaveHeader {
        save: FORMAT,
        version: "test".into(),
        id: id.into(),
        started: 1_700_000_000,
        rules,
        name: "You".into(),
        difficulty: spades::bots::BotSpec::DEFAULT,
        rules_source: "test".into(),
        practice: false,
        seed: 4,
        salt: None,
        record: None,
        look: None,
    };
    let journal = Journal::create(&dir, &header).unwrap();
    let left = std::time::SystemTime::now() - Duration::from_secs(days * 24 * 60 * 60);
    let file = std::fs::File::options()
        .write(true)
        .open(journal.path())
        .unwrap();
    file.set_modified(left).unwrap();
}

/// `spades resume --list` names each game's preset (or its own rules) and
/// when it was left; `--abandon-older-than DAYS` gives up the old ones
/// and keeps the others; a bad DAYS is refused with exit 2, naming it.
#[test]
fn old_games_are_listed_with_their_preset_and_can_be_given_up() {
    use spades::engine::Rules;
    let home = tempfile::tempdir().unwrap();
    let quick = spades::presets::find("quick").unwrap().rules().unwrap();
    let own = Rules::default().with(|r| r.bags.limit = 7).unwrap();
    waiting_game(&home, "game-1-old", quick, 40);
    waiting_game(&home, "game-2-new", own, 0);
    let spades = |args: &[&str]| support::game::spades(&home).args(args).assert();
    spades(&["resume", "--list"])
        .success()
        .stdout(predicates::str::contains(
            "game-1-old  partnership, Quick Play, preset quick, hand 1",
        ))
        .stdout(predicates::str::contains("left 40 days ago"))
        .stdout(predicates::str::contains(
            "game-2-new  partnership, to 500, own rules, hand 1",
        ))
        .stdout(predicates::str::contains("left today"));
    for (bad, says) in [
        (
            &["resume", "--abandon-older-than", "-3"][..],
            "--abandon-older-than",
        ),
        (
            &["resume", "--abandon-older-than", "soon"],
            "--abandon-older-than",
        ),
        (&["resume", "--abandon-older-than", "3", "--list"], "--list"),
        (
            &["resume", "game-1", "--abandon-older-than", "3"],
            "--abandon-older-than",
        ),
    ] {
        spades(bad).code(2).stderr(predicates::str::contains(says));
    }
    spades(&["resume", "--abandon-older-than", "30"])
        .success()
        .stdout(predicates::str::contains("Gave up game-1-old."))
        .stdout(predicates::str::contains("game-2-new").not());
    spades(&["resume", "--list"])
        .success()
        .stdout(predicates::str::contains("game-1-old").not())
        .stdout(predicates::str::contains("game-2-new"));
    spades(&["resume", "--abandon-older-than", "30"])
        .success()
        .stdout(predicates::str::contains(
            "No game waiting was left 30 or more days ago.",
        ));
}
