//! The screen-reader mode through pipes, as a script or a screen reader
//! meets it: a whole game played by reading the mode's own lines, every
//! question answered in one line, a card refused with its reason, and a
//! game left and taken up again. No escape sequence, ever, and no line
//! longer than the mode's limit.

use spades::engine::{CardSet, Suit};
use spades::tui::spoken::ask::Query;
use spades::tui::spoken::commands;
use support::by_ear::{ByEar, cards_named, typed};

/// The cards a "Your turn. You may play: ..." line offers.
fn offered(line: &str) -> Option<CardSet> {
    line.split_once("You may play: ")
        .map(|(_, list)| cards_named(list))
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

const FAST: [&str; 5] = ["--speed", "instant", "--difficulty", "easy", "--new"];

#[test]
fn a_seeded_game_is_played_to_its_end_by_ear() {
    let mut game = ByEar::start(&[&FAST[..], &["--seed", "5"]].concat());
    loop {
        let line = game.until("a line", |_| true);
        if line.starts_with("The game is over.") {
            break;
        }
        if let Some(typed) = answer(&line) {
            game.send(&typed);
        }
    }
    // The game just played, read back hand by hand from its record.
    game.send("replay");
    let title = game.until("the replay's title", |l| {
        l.starts_with("Replay of the game just played")
    });
    assert!(title.contains("You and North"), "{title}");
    game.until("hand 1", |l| l.starts_with("Hand 1"));
    game.send("q");
    game.until("the game's end again", |l| {
        l.starts_with("The game is over.")
    });
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
    let mut game = ByEar::start(&[&FAST[..], &["--seed", "3"]].concat());
    let prompt = game.until("the bid's prompt", |l| l.starts_with("Your turn to bid: "));
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
    let mut game = ByEar::start(&[&FAST[..], &["--seed", "8"]].concat());
    let dealt = game.until("the deal", |l| l.starts_with("Hand 1. You hold"));
    let mut held = cards_named(dealt.split_once(" cards: ").unwrap().1);
    loop {
        let line = game.until("a line", |_| true);
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
    let mut game = ByEar::start(&[&FAST[..], &["--seed", "3"]].concat());
    let prompt = game.until("the bid's prompt", |l| l.starts_with("Your turn to bid: "));
    game.send("quit");
    let asked = game.until("the question", |l| l.starts_with("Leave this game?"));
    assert!(asked.contains("It is saved"), "{asked}");
    game.send("no");
    assert_eq!(game.next().unwrap(), "You stay.");
    game.send("");
    assert_eq!(game.next().unwrap(), prompt);
    game.send("quit");
    game.send("yes");
    let home = game.home();
    let (status, said) = game.finish();
    assert!(status.success(), "{status}");
    assert!(
        said.iter()
            .any(|l| l.starts_with("The game is saved where you left it"))
    );

    let mut again = ByEar::start_at(home.clone(), &["resume"]);
    again.until("the game taken up", |l| {
        l.starts_with("Game taken up where it was left: hand 1")
    });
    assert_eq!(
        again.until("the turn", |l| l.starts_with("Your turn")),
        prompt
    );
    // The end of the input leaves as quitting does: saved again.
    again.close_input();
    let (status, said) = again.finish();
    assert!(status.success(), "{status}");
    assert!(
        said.iter()
            .any(|l| l.starts_with("The game is saved where you left it"))
    );

    // And a plain `spades` offers it.
    let mut offered = ByEar::start_at(home, &[]);
    let waiting = offered.until("the game offered", |l| {
        l.starts_with("A game is waiting where you left it")
    });
    assert!(waiting.contains("hand 1"), "{waiting}");
    offered.send("resume");
    assert_eq!(
        offered.until("the turn", |l| l.starts_with("Your turn")),
        prompt
    );
    offered.send("quit");
    offered.send("yes");
    assert!(offered.finish().0.success());
}

#[test]
fn a_stop_signal_leaves_as_at_the_full_screen_table() {
    let mut game = ByEar::start(&[&FAST[..], &["--seed", "3"]].concat());
    game.until("the bid's prompt", |l| l.starts_with("Your turn to bid: "));
    game.terminate();
    let (status, said) = game.finish();
    // 128 + 15, as a shell reports a program stopped by SIGTERM.
    assert_eq!(status.code(), Some(143), "{said:?}");
    assert!(
        said.iter()
            .any(|l| l.starts_with("The game is saved where you left it"))
    );
}
