//! The screen-reader mode through pipes, as a script or a screen reader
//! meets it: a whole game played by reading the mode's own lines, every
//! question answered in one line, a card refused with its reason, and a
//! game left and taken up again. No escape sequence, ever, and no line
//! longer than the mode's limit.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

use spades::engine::{Card, CardSet, Suit};
use spades::tui::spoken::ask::Query;
use spades::tui::spoken::{LINE_MAX, commands};

/// How long a line may take to come, on a loaded machine.
const DEADLINE: Duration = Duration::from_secs(60);

/// The program in the mode, its lines read on a thread of their own.
struct ByEar {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Vec<u8>>,
    /// Every line said so far.
    said: Vec<String>,
}

impl ByEar {
    fn start(home: &tempfile::TempDir, args: &[&str]) -> ByEar {
        let mut child = Command::new(support::spades_bin())
            .args(args)
            .current_dir(home.path())
            .env("HOME", home.path())
            .env("XDG_CONFIG_HOME", home.path().join("config"))
            .env("XDG_DATA_HOME", home.path().join("data"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let out = child.stdout.take().unwrap();
        let (send, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(out).split(b'\n') {
                let Ok(line) = line else { return };
                if send.send(line).is_err() {
                    return;
                }
            }
        });
        ByEar {
            stdin: child.stdin.take(),
            child,
            lines,
            said: Vec::new(),
        }
    }

    /// The next line, checked: no escape, not too long. `None` once the
    /// program has closed its output.
    fn next(&mut self) -> Option<String> {
        let bytes = match self.lines.recv_timeout(DEADLINE) {
            Ok(bytes) => bytes,
            Err(RecvTimeoutError::Disconnected) => return None,
            Err(RecvTimeoutError::Timeout) => panic!("no line in time; last: {:?}", self.tail()),
        };
        assert!(!bytes.contains(&0x1b), "an escape: {bytes:?}");
        let line = String::from_utf8(bytes).unwrap();
        assert!(line.chars().count() <= LINE_MAX, "too long: {line}");
        self.said.push(line.clone());
        Some(line)
    }

    /// Reads up to the first line `wanted` picks, and returns it.
    fn until(&mut self, wanted: impl Fn(&str) -> bool) -> String {
        loop {
            match self.next() {
                Some(line) if wanted(&line) => return line,
                Some(_) => {}
                None => panic!("the output ended; last: {:?}", self.tail()),
            }
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    /// Reads every line left, and the program's exit.
    fn finish(mut self) -> (ExitStatus, Vec<String>) {
        while self.next().is_some() {}
        drop(self.stdin.take());
        let status = self.child.wait().unwrap();
        (status, self.said)
    }

    fn tail(&self) -> &[String] {
        &self.said[self.said.len().saturating_sub(8)..]
    }
}

/// The cards a list names: "queen of hearts, seven of hearts", or by suit
/// "spades: ace, ten; hearts: queen".
fn cards_named(list: &str) -> CardSet {
    let mut cards = CardSet::EMPTY;
    for part in list.trim_end_matches('.').split("; ") {
        match part.split_once(": ") {
            Some((suit, ranks)) => {
                for rank in ranks.split(", ") {
                    cards.insert(commands::card(&format!("{rank} of {suit}")).unwrap());
                }
            }
            None => {
                for card in part.split(", ") {
                    cards.insert(commands::card(card).unwrap());
                }
            }
        }
    }
    cards
}

/// The cards a "Your turn. You may play: ..." line offers.
fn offered(line: &str) -> Option<CardSet> {
    line.split_once("You may play: ")
        .map(|(_, list)| cards_named(list))
}

/// A card as a script types it: "qh", "10h".
fn typed(card: Card) -> String {
    card.to_string().replace('T', "10").to_lowercase()
}

/// What to answer to the prompts of a game played through: the lowest
/// bid offered, the first card, Enter after each hand.
fn answer(line: &str) -> Option<String> {
    if let Some(cards) = offered(line) {
        return Some(format!("play {}", typed(cards.iter().next().unwrap())));
    }
    if let Some(rest) = line.strip_prefix("Your turn to bid: ") {
        let first: String = rest.chars().take_while(char::is_ascii_digit).collect();
        return Some(format!("bid {first}"));
    }
    if line.starts_with("Your turn. Your cards are face down") {
        return Some("look".into());
    }
    if line.starts_with("Enter for") {
        return Some(String::new());
    }
    None
}

const FAST: [&str; 6] = [
    "--screen-reader",
    "--speed",
    "instant",
    "--difficulty",
    "easy",
    "--new",
];

#[test]
fn a_seeded_game_is_played_to_its_end_by_ear() {
    let home = tempfile::tempdir().unwrap();
    let mut game = ByEar::start(&home, &[&FAST[..], &["--seed", "5"]].concat());
    loop {
        let line = game.until(|_| true);
        if line.starts_with("The game is over.") {
            break;
        }
        if let Some(typed) = answer(&line) {
            game.send(&typed);
        }
    }
    // The game just played, read back hand by hand from its record.
    game.send("replay");
    let title = game.until(|l| l.starts_with("Replay of the game just played"));
    assert!(title.contains("You and North"), "{title}");
    game.until(|l| l.starts_with("Hand 1"));
    game.send("q");
    game.until(|l| l.starts_with("The game is over."));
    game.send("quit");
    let (status, said) = game.finish();
    assert!(status.success(), "{status}");
    let end = said
        .iter()
        .position(|l| l.starts_with("Game over. "))
        .unwrap();
    let hands = said.iter().filter(|l| l.ends_with(" scored.")).count();
    assert!(hands >= 3, "{hands} hands");
    // Nothing is played after the game's end: its score, the rating's
    // word, what comes next and where the record went.
    assert!(
        said[end..]
            .iter()
            .all(|l| !l.contains(" plays ") && !l.starts_with("Your turn")),
        "{:?}",
        &said[end..]
    );
    assert!(
        said.last()
            .unwrap()
            .starts_with("Check it with: spades verify")
    );
}

#[test]
fn every_question_is_answered_in_one_line() {
    let home = tempfile::tempdir().unwrap();
    let mut game = ByEar::start(&home, &[&FAST[..], &["--seed", "3"]].concat());
    let prompt = game.until(|l| l.starts_with("Your turn to bid: "));
    let keys: Vec<&str> = Query::KEYS
        .iter()
        .map(|(key, _)| *key)
        .chain(["g h"])
        .collect();
    for key in keys {
        game.send(key);
        // The empty line's answer is the prompt: the question's answer
        // is the one line between.
        game.send("");
        let answer = game.next().unwrap();
        assert_ne!(answer, prompt, "{key}: no answer");
        assert!(!answer.is_empty(), "{key}");
        assert_eq!(game.next().unwrap(), prompt, "{key}: more than one line");
    }
    game.send("?");
    game.send("");
    let help = [
        game.next().unwrap(),
        game.next().unwrap(),
        game.next().unwrap(),
    ];
    for (key, _) in Query::KEYS {
        assert!(help[0].contains(&format!(" {key} ")), "{key}: {help:?}");
    }
    assert!(help[2].contains("play qh"), "{help:?}");
    assert_eq!(game.next().unwrap(), prompt);
    game.send("hello there");
    assert!(
        game.next()
            .unwrap()
            .starts_with("Not understood: `hello there`.")
    );
    game.send("quit");
    game.send("yes");
    assert!(game.finish().0.success());
}

#[test]
fn a_card_that_may_not_be_played_is_refused_with_the_reason() {
    let home = tempfile::tempdir().unwrap();
    let mut game = ByEar::start(&home, &[&FAST[..], &["--seed", "8"]].concat());
    let dealt = game.until(|l| l.starts_with("Hand 1. You hold"));
    let mut held = cards_named(dealt.split_once(" cards: ").unwrap().1);
    loop {
        let line = game.until(|_| true);
        if let Some(card) = line
            .strip_prefix("You play the ")
            .and_then(|c| commands::card(c.trim_end_matches('.')).ok())
        {
            held.remove(card);
        }
        let Some(legal) = offered(&line) else {
            if let Some(typed) = answer(&line) {
                game.send(&typed);
            }
            continue;
        };
        // A card held of another suit than the one to follow (a spade
        // may be refused for spades not broken: not that).
        let spades = CardSet::of_suit(Suit::Spades);
        let one_suit = legal
            .iter()
            .all(|c| c.suit() == legal.lowest().unwrap().suit());
        let wrong = held.minus(legal).minus(spades).lowest();
        if let (true, Some(wrong)) = (one_suit, wrong) {
            game.send(&format!("play {}", typed(wrong)));
            let suit = legal.lowest().unwrap().suit().name();
            assert_eq!(game.next().unwrap(), format!("You must follow {suit}."));
            // A card not held is named in words, as every card is.
            let stranger = CardSet::DECK.minus(held).lowest().unwrap();
            game.send(&format!("play {}", typed(stranger)));
            let named = spades::tui::theme::card_in_words(stranger);
            assert_eq!(
                game.next().unwrap(),
                format!("You do not hold the {named}.")
            );
            break;
        }
        game.send(&answer(&line).unwrap());
    }
    game.send("quit");
    game.send("yes");
    assert!(game.finish().0.success());
}

#[test]
fn a_game_left_is_saved_and_taken_up_by_ear() {
    let home = tempfile::tempdir().unwrap();
    let mut game = ByEar::start(&home, &[&FAST[..], &["--seed", "3"]].concat());
    let prompt = game.until(|l| l.starts_with("Your turn to bid: "));
    game.send("quit");
    let asked = game.until(|l| l.starts_with("Leave this game?"));
    assert!(asked.contains("It is saved"), "{asked}");
    game.send("no");
    assert_eq!(game.next().unwrap(), "You stay.");
    game.send("");
    assert_eq!(game.next().unwrap(), prompt);
    game.send("quit");
    game.send("yes");
    let (status, said) = game.finish();
    assert!(status.success(), "{status}");
    assert!(
        said.iter()
            .any(|l| l.starts_with("The game is saved where you left it"))
    );

    let mut again = ByEar::start(&home, &["resume", "--screen-reader"]);
    again.until(|l| l.starts_with("Game taken up where it was left: hand 1"));
    assert_eq!(again.until(|l| l.starts_with("Your turn")), prompt);
    // The end of the input leaves as quitting does: saved again.
    drop(again.stdin.take());
    let (status, said) = again.finish();
    assert!(status.success(), "{status}");
    assert!(
        said.iter()
            .any(|l| l.starts_with("The game is saved where you left it"))
    );

    // And a plain `spades` offers it.
    let mut offered = ByEar::start(&home, &["--screen-reader"]);
    let waiting = offered.until(|l| l.starts_with("A game is waiting where you left it"));
    assert!(waiting.contains("hand 1"), "{waiting}");
    offered.send("resume");
    assert_eq!(offered.until(|l| l.starts_with("Your turn")), prompt);
    offered.send("quit");
    offered.send("yes");
    assert!(offered.finish().0.success());
}

#[test]
fn a_stop_signal_leaves_as_at_the_full_screen_table() {
    let home = tempfile::tempdir().unwrap();
    let mut game = ByEar::start(&home, &[&FAST[..], &["--seed", "3"]].concat());
    game.until(|l| l.starts_with("Your turn to bid: "));
    let killed = Command::new("kill")
        .args(["-TERM", &game.child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let (status, said) = game.finish();
    // 128 + 15, as a shell reports a program stopped by SIGTERM.
    assert_eq!(status.code(), Some(143), "{said:?}");
    assert!(
        said.iter()
            .any(|l| l.starts_with("The game is saved where you left it"))
    );
}
