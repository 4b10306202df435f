//! A typed line read as what the player wants: a question on a key, or a
//! command in words (`bid 4`, `play queen of hearts`, `pass 7c 3d`).
//! Only the words are read here; whether the game allows what they ask is
//! for the engine to say.

use crate::engine::{Bid, Card, CardSet, Rank, Suit};

use super::super::theme::{CardNames, Theme, card_in_words, rank_in_words};
use super::ask::Query;

/// What a typed line asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// An empty line: say again what is asked now (and go on from a
    /// hand's summary, which waits for Enter).
    Again,
    /// A question on a key (`w`, `m`, ...).
    Ask(Query),
    /// `h` or `hint`.
    Hint,
    /// `?` or `help`: the keys and commands.
    Keys,
    /// `v`: the next verbosity.
    Verbosity,
    /// `bid 4`, a bare `4`, `nil`, `blind nil`, `blind 6`.
    Bid(Bid),
    /// `look`: turn the cards up, giving up the blind offer.
    Look,
    /// `pass 7c 3d`.
    Pass(CardSet),
    /// `play qh`, `play queen of hearts`, a bare `qh`.
    Play(Card),
    /// `chat hello`.
    Chat(String),
    /// `quit`, `q`.
    Quit,
    /// `yes` or `no`, to "leave this game?" (and to the offer to resume).
    Yes,
    No,
    /// `undo`: take the last move back, in practice.
    Undo,
    /// `claim`: the rest of the tricks.
    Claim,
    /// `new`: another game; `resume`: the saved one.
    New,
    Resume,
    /// `replay` and `review`: the game just played, read hand by hand.
    Replay,
    Review,
}

/// The longest typed line quoted back when it is not understood, so a
/// long line never makes a long answer.
const QUOTED_MAX: usize = 40;

/// Reads `line`; the error is one sentence saying what was not understood.
pub fn parse(line: &str) -> Result<Command, String> {
    let line = line.trim();
    if line.is_empty() {
        return Ok(Command::Again);
    }
    if let Some(query) = Query::from_line(line) {
        return Ok(Command::Ask(query));
    }
    let lower = line.to_lowercase();
    let mut words = lower.split_whitespace();
    let first = words.next().unwrap_or_default();
    let rest: Vec<&str> = words.collect();
    let rest_text = rest.join(" ");
    let alone = |command: Command| {
        if rest.is_empty() {
            Ok(command)
        } else {
            Err(not_understood(line))
        }
    };
    match first {
        "h" | "hint" => alone(Command::Hint),
        "?" | "help" | "keys" => alone(Command::Keys),
        "v" | "verbosity" => alone(Command::Verbosity),
        "look" => alone(Command::Look),
        "nil" => alone(Command::Bid(Bid::Nil)),
        "q" | "quit" | "exit" | "leave" => alone(Command::Quit),
        "y" | "yes" => alone(Command::Yes),
        "n" | "no" => alone(Command::No),
        "u" | "undo" => alone(Command::Undo),
        "claim" => alone(Command::Claim),
        "new" => alone(Command::New),
        "resume" => alone(Command::Resume),
        "replay" => alone(Command::Replay),
        "review" => alone(Command::Review),
        "bid" => bid(&rest).ok_or_else(|| {
            format!(
                "`{}` is not a bid: say bid 4, nil or blind nil.",
                quoted(&rest_text)
            )
        }),
        "blind" => blind(&rest)
            .ok_or_else(|| "Say blind nil, or blind and a number, as blind 6.".to_string()),
        "play" | "p" if rest.is_empty() => Err("Play which card? Say play qh, for one.".into()),
        "play" | "p" => card(&rest_text).map(Command::Play),
        "pass" => pass(&rest),
        // The chat keeps the player's own case: taken from the line itself.
        "chat" | "say" => {
            let text = line[first.len()..].trim();
            if text.is_empty() {
                Err("Chat what? Say chat and your words, as chat hello.".into())
            } else {
                Ok(Command::Chat(text.to_string()))
            }
        }
        _ => bid(&[first])
            .filter(|_| rest.is_empty())
            .or_else(|| card(&lower).ok().map(Command::Play))
            .ok_or_else(|| not_understood(line)),
    }
}

/// "Not understood: `xyz`. ? lists the keys and commands."
fn not_understood(line: &str) -> String {
    format!(
        "Not understood: `{}`. Type ? for the keys and commands.",
        quoted(line)
    )
}

/// At most `QUOTED_MAX` characters of what was typed.
fn quoted(text: &str) -> String {
    let mut cut: String = text.chars().take(QUOTED_MAX).collect();
    if text.chars().count() > QUOTED_MAX {
        cut.push_str("...");
    }
    cut
}

/// `4`, `nil`, `blind nil`, `blind 6`.
fn bid(words: &[&str]) -> Option<Command> {
    match words {
        ["nil"] => Some(Command::Bid(Bid::Nil)),
        ["blind", rest @ ..] => blind(rest),
        [n] => number(n).map(|n| Command::Bid(Bid::Tricks(n))),
        _ => None,
    }
}

fn blind(words: &[&str]) -> Option<Command> {
    match words {
        ["nil"] => Some(Command::Bid(Bid::BlindNil)),
        [n] => number(n).map(|n| Command::Bid(Bid::Blind(n))),
        _ => None,
    }
}

/// A number of tricks: 1 to 99 (the engine says which it takes).
fn number(word: &str) -> Option<u8> {
    word.parse::<u8>().ok().filter(|n| (1..100).contains(n))
}

/// `pass 7c 3d` (or `pass 7c, 3d`): each card short.
fn pass(words: &[&str]) -> Result<Command, String> {
    if words.is_empty() {
        return Err("Pass which cards? Say pass and the cards, as pass 7c 3d.".into());
    }
    let mut cards = CardSet::EMPTY;
    for word in words.iter().flat_map(|w| w.split(',')) {
        if word.is_empty() {
            continue;
        }
        let card = short_card(word).ok_or_else(|| {
            format!(
                "`{}` is not a card: name each short, as pass 7c 3d.",
                quoted(word)
            )
        })?;
        cards.insert(card);
    }
    Ok(Command::Pass(cards))
}

/// A card short (`qh`, `10h`, `th`, `bj`) or in words (`queen of hearts`,
/// `big joker`).
pub fn card(text: &str) -> Result<Card, String> {
    let text = text.trim().to_lowercase();
    let words: Vec<&str> = text.split_whitespace().collect();
    let found = match words.as_slice() {
        [one] => short_card(one),
        _ => in_words(&words.join(" ")),
    };
    found.ok_or_else(|| {
        format!(
            "`{}` is not a card: say qh, 10h or queen of hearts.",
            quoted(&text)
        )
    })
}

/// `qh`, `10h`, `th`, `q♥`: as the engine writes cards, or as their faces
/// are printed.
fn short_card(word: &str) -> Option<Card> {
    if let Ok(card) = word.to_uppercase().parse::<Card>() {
        return Some(card);
    }
    let faces = Theme {
        card_names: CardNames::Faces,
        ..Theme::PLAIN
    };
    CardSet::ANY
        .iter()
        .find(|&c| faces.card(c).eq_ignore_ascii_case(word))
}

/// "queen of hearts", "queen hearts", "ten of spades", "big joker".
fn in_words(text: &str) -> Option<Card> {
    let text = text.replace(" of ", " ");
    let text = text.trim();
    if let Some(card) = CardSet::ANY
        .iter()
        .find(|&c| card_in_words(c).replace(" of ", " ") == text)
    {
        return Some(card);
    }
    // A rank in figures or letters with the suit in words: "10 hearts",
    // "q hearts"; a suit's name in the singular: "queen heart".
    let (rank, suit) = text.split_once(' ')?;
    let suit = Suit::ALL
        .into_iter()
        .find(|s| suit == s.name() || suit == s.name().trim_end_matches('s'))?;
    let rank = match rank {
        "10" => "T".to_string(),
        one if one.chars().count() == 1 => one.to_string(),
        word => (0..13)
            .filter_map(Rank::from_index)
            .find(|&r| rank_in_words(r) == word)?
            .letter()
            .to_string(),
    };
    format!("{rank}{}", suit.letter())
        .to_uppercase()
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(s: &str) -> Card {
        s.parse().unwrap()
    }

    #[test]
    fn bids_in_every_form() {
        assert_eq!(parse("bid 4"), Ok(Command::Bid(Bid::Tricks(4))));
        assert_eq!(parse("4"), Ok(Command::Bid(Bid::Tricks(4))));
        assert_eq!(parse(" 13 "), Ok(Command::Bid(Bid::Tricks(13))));
        assert_eq!(parse("nil"), Ok(Command::Bid(Bid::Nil)));
        assert_eq!(parse("bid nil"), Ok(Command::Bid(Bid::Nil)));
        assert_eq!(parse("Blind Nil"), Ok(Command::Bid(Bid::BlindNil)));
        assert_eq!(parse("bid blind nil"), Ok(Command::Bid(Bid::BlindNil)));
        assert_eq!(parse("blind 6"), Ok(Command::Bid(Bid::Blind(6))));
        assert_eq!(parse("look"), Ok(Command::Look));
        for bad in [
            "bid", "bid four", "bid 0", "bid 400", "0", "bid 4 5", "blind",
        ] {
            let said = parse(bad).unwrap_err();
            assert!(said.ends_with('.'), "{bad}: {said}");
        }
    }

    #[test]
    fn cards_short_with_a_ten_or_in_words() {
        for said in [
            "play qh",
            "play QH",
            "qh",
            "play queen of hearts",
            "play Queen Hearts",
            "play q hearts",
            "p qh",
        ] {
            assert_eq!(parse(said), Ok(Command::Play(c("QH"))), "{said}");
        }
        for ten in [
            "play 10h",
            "play th",
            "10h",
            "play ten of hearts",
            "play 10 hearts",
        ] {
            assert_eq!(parse(ten), Ok(Command::Play(c("TH"))), "{ten}");
        }
        assert_eq!(parse("play big joker"), Ok(Command::Play(Card::BIG_JOKER)));
        assert_eq!(parse("play bj"), Ok(Command::Play(Card::BIG_JOKER)));
        assert_eq!(
            parse("play high two of diamonds"),
            Ok(Command::Play(Card::HIGH_TWO_OF_DIAMONDS))
        );
    }

    #[test]
    fn bad_cards_are_named_in_the_answer() {
        for bad in [
            "play 1h",
            "play zz",
            "play queen of stars",
            "play 11h",
            "xh",
        ] {
            let said = parse(bad).unwrap_err();
            assert!(said.contains('`'), "{bad}: {said}");
        }
        assert!(parse("play").unwrap_err().contains("which card"));
        assert!(parse("play 1h").unwrap_err().contains("is not a card"));
    }

    #[test]
    fn passes_take_cards_short() {
        let both: CardSet = [c("7C"), c("3D")].into_iter().collect();
        assert_eq!(parse("pass 7c 3d"), Ok(Command::Pass(both)));
        assert_eq!(parse("pass 7c, 3d"), Ok(Command::Pass(both)));
        assert!(parse("pass 7c 3x").unwrap_err().contains("`3x`"));
        assert!(parse("pass").is_err());
    }

    #[test]
    fn keys_and_words() {
        assert_eq!(parse(""), Ok(Command::Again));
        assert_eq!(parse("   "), Ok(Command::Again));
        assert_eq!(parse("w"), Ok(Command::Ask(Query::Turn)));
        assert_eq!(
            parse("g h"),
            Ok(Command::Ask(Query::Gone(Some(Suit::Hearts))))
        );
        assert_eq!(parse("h"), Ok(Command::Hint));
        assert_eq!(parse("hint"), Ok(Command::Hint));
        assert_eq!(parse("?"), Ok(Command::Keys));
        assert_eq!(parse("v"), Ok(Command::Verbosity));
        assert_eq!(parse("quit"), Ok(Command::Quit));
        assert_eq!(parse("yes"), Ok(Command::Yes));
        assert_eq!(parse("no"), Ok(Command::No));
        assert_eq!(parse("undo"), Ok(Command::Undo));
        assert_eq!(parse("claim"), Ok(Command::Claim));
        assert_eq!(parse("new"), Ok(Command::New));
        assert_eq!(parse("replay"), Ok(Command::Replay));
        assert_eq!(parse("review"), Ok(Command::Review));
        assert_eq!(
            parse("chat Hello There"),
            Ok(Command::Chat("Hello There".into()))
        );
        assert!(parse("chat").is_err());
        assert!(parse("quit now").is_err());
    }

    #[test]
    fn hostile_lines_get_one_short_answer() {
        let long = "x".repeat(5000);
        let said = parse(&long).unwrap_err();
        assert!(said.len() < 120, "{said}");
        let said = parse(&format!("play {long}")).unwrap_err();
        assert!(said.len() < 120, "{said}");
        let said = parse(&format!("bid {long}")).unwrap_err();
        assert!(said.len() < 120, "{said}");
        for odd in ["play \u{0}", "\u{202e}qh", "bid -1", "bid 4.5", "pass ,,,"] {
            let _ = parse(odd);
        }
        assert!(parse("pass ,,,").is_ok_and(|c| c == Command::Pass(CardSet::EMPTY)));
        let unicode = "ж".repeat(300);
        assert!(parse(&unicode).unwrap_err().chars().count() < 120);
    }
}
