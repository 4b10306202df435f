//! Cards and hands as the mode says them: in words ("queen of hearts";
//! "spades: ace, ten, four") or short for braille ("QH"; "S: A 10 4").
//! Every line that names a card goes through here, so a card is said the
//! same way wherever it is said.

use crate::config::preferences::Verbosity;
use crate::engine::{Bid, Card, CardSet, Mode, Seat, Suit};
use crate::naming::Names;

use super::super::hand::{HAND_SUITS, hand_order};
use super::super::theme::{card_in_words, rank_in_words};
use super::{LINE_MAX, Speech};

/// One card: "queen of hearts", or "QH" (`10H` for a ten, as on its face).
pub fn card(card: Card, speech: &Speech) -> String {
    speech.theme().card(card)
}

/// Cards in the hand's order (by suit, highest first), one after another:
/// "queen of hearts, seven of hearts", or "QH 7H".
pub fn cards(set: CardSet, speech: &Speech) -> String {
    let named: Vec<String> = hand_order(set)
        .into_iter()
        .map(|c| card(c, speech))
        .collect();
    if speech.short_cards {
        named.join(" ")
    } else {
        named.join(", ")
    }
}

/// A hand by suit, suits it lacks left out: "spades: ace, ten, four;
/// hearts: queen", or "S: A 10 4; H: Q". A card whose face shows
/// another suit (the high two of diamonds) or none (a joker) is named
/// whole where it plays.
pub fn by_suit(set: CardSet, speech: &Speech) -> String {
    let mut parts = Vec::new();
    for suit in HAND_SUITS {
        let held = set.suit(suit);
        if held.is_empty() {
            continue;
        }
        let ranks: Vec<String> = held
            .iter()
            .rev()
            .map(|c| in_its_suit(c, suit, speech))
            .collect();
        parts.push(if speech.short_cards {
            format!("{}: {}", suit.letter(), ranks.join(" "))
        } else {
            format!("{}: {}", suit.name(), ranks.join(", "))
        });
    }
    if parts.is_empty() {
        "no cards".to_string()
    } else {
        parts.join("; ")
    }
}

/// A card within its suit's list: its rank, or its whole name when its
/// face says otherwise.
fn in_its_suit(card: Card, suit: Suit, speech: &Speech) -> String {
    let plain = card.printed_suit() == Some(suit) && !card.rank().is_above_ace();
    match (plain, speech.short_cards) {
        (true, true) => card.rank().face().to_string(),
        (true, false) => rank_in_words(card.rank()).to_string(),
        (false, true) => speech.theme().card(card),
        (false, false) => card_in_words(card),
    }
}

/// "1 card", "13 cards".
pub fn count(n: usize, thing: &str) -> String {
    if n == 1 {
        format!("1 {thing}")
    } else {
        format!("{n} {thing}s")
    }
}

/// A card as a sentence names it: "the queen of hearts", or "QH".
pub fn the_card(card: Card, speech: &Speech) -> String {
    if speech.short_cards {
        self::card(card, speech)
    } else {
        format!("the {}", self::card(card, speech))
    }
}

/// A card played to a trick after its lead: "the nine" when it follows
/// the suit led (the suit goes without saying), else named whole.
pub fn followed(card: Card, led: Option<Suit>, speech: &Speech) -> String {
    match led {
        Some(suit) if !speech.short_cards => format!("the {}", in_its_suit(card, suit, speech)),
        _ => the_card(card, speech),
    }
}

/// A seat as a sentence names it, from the player's seat: "you", the
/// seat's name, or "the dummy". A sentence that starts with it takes
/// `text::sentence_case`.
pub fn seat(names: &Names, mode: Mode, you: Seat, seat: Seat) -> String {
    if seat == you {
        "you".to_string()
    } else if !mode.is_player(seat) {
        "the dummy".to_string()
    } else {
        names.seat(seat).to_string()
    }
}

/// Whose: "your", "West's", "the dummy's".
pub fn possessive(named: &str) -> String {
    match named {
        "you" => "your".to_string(),
        "You" => "Your".to_string(),
        _ => format!("{named}'s"),
    }
}

/// A list as speech joins it: "a", "a or b", "a, b or c" (`last` is
/// "or" or "and").
pub fn list(items: &[String], last: &str) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., end] => format!("{} {last} {end}", rest.join(", ")),
    }
}

/// Bids a player may make, numbers in runs: "1 to 13 or nil", "blind
/// nil or blind 5 to 13".
pub fn bids(bids: &[Bid]) -> String {
    list(&bid_runs(bids), "or")
}

/// The bids as a prompt lists them, runs of numbers as ranges: `[1 to 13,
/// nil]`, `[blind nil, blind 5 to 7]`.
pub fn bid_runs(bids: &[Bid]) -> Vec<String> {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < bids.len() {
        let first = bids[i];
        if !first.is_numeric() {
            parts.push(first.to_string());
            i += 1;
            continue;
        }
        // The run of the same kind of number, each one more.
        let mut end = i;
        while bids.get(end + 1).is_some_and(|&next| {
            next.is_numeric()
                && next.is_blind() == first.is_blind()
                && next.tricks() == bids[end].tricks() + 1
        }) {
            end += 1;
        }
        parts.push(if end == i {
            first.to_string()
        } else {
            format!("{first} to {}", bids[end].tricks())
        });
        i = end + 1;
    }
    parts
}

/// Points as a screen reader should say them: "240", "minus 40" (a
/// hyphen is read as "dash" by some).
pub fn points(n: i32) -> String {
    if n < 0 {
        format!("minus {}", n.unsigned_abs())
    } else {
        n.to_string()
    }
}

/// The line `say` makes, said shorter when it is longer than a line may
/// be: cards short, then briefly too; cut at a word if even that is long.
pub fn fitted(speech: &Speech, say: impl Fn(&Speech) -> String) -> String {
    let fits = |line: &String| line.chars().count() <= LINE_MAX;
    let line = say(speech);
    if fits(&line) {
        return line;
    }
    let short = Speech {
        short_cards: true,
        ..*speech
    };
    let line = say(&short);
    if fits(&line) {
        return line;
    }
    let brief = Speech {
        verbosity: Verbosity::Brief,
        ..short
    };
    cut(&say(&brief))
}

/// `line` cut to `LINE_MAX` characters at a space, "..." marking the cut.
pub fn cut(line: &str) -> String {
    if line.chars().count() <= LINE_MAX {
        return line.to_string();
    }
    let kept: String = line.chars().take(LINE_MAX - 3).collect();
    let at_space = kept.rfind(' ').unwrap_or(kept.len());
    format!("{}...", kept[..at_space].trim_end_matches([',', ';', ':']))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(cards: &str) -> CardSet {
        cards
            .split_whitespace()
            .map(|c| c.parse::<Card>().unwrap())
            .collect()
    }

    const WORDS: Speech = Speech::NORMAL;
    const SHORT: Speech = Speech::SHORT;

    #[test]
    fn a_hand_is_said_by_suit_highest_first() {
        let hand = set("4S AS TS QH 2C KC");
        assert_eq!(
            by_suit(hand, &WORDS),
            "spades: ace, ten, four; hearts: queen; clubs: king, two"
        );
        assert_eq!(by_suit(hand, &SHORT), "S: A 10 4; H: Q; C: K 2");
        assert_eq!(by_suit(CardSet::EMPTY, &WORDS), "no cards");
    }

    #[test]
    fn cards_are_named_in_words_or_short() {
        let two = set("QH 7H");
        assert_eq!(cards(two, &WORDS), "queen of hearts, seven of hearts");
        assert_eq!(cards(two, &SHORT), "QH 7H");
        assert_eq!(count(1, "card"), "1 card");
        assert_eq!(count(13, "card"), "13 cards");
    }

    #[test]
    fn bids_run_as_ranges_and_lists_end_with_or() {
        let numbers: Vec<Bid> = (1..=13).map(Bid::Tricks).chain([Bid::Nil]).collect();
        assert_eq!(bids(&numbers), "1 to 13 or nil");
        let blind = [Bid::BlindNil, Bid::Blind(5), Bid::Blind(6), Bid::Blind(7)];
        assert_eq!(bids(&blind), "blind nil or blind 5 to 7");
        assert_eq!(bids(&[Bid::Tricks(3)]), "3");
        let gap = [Bid::Tricks(1), Bid::Tricks(2), Bid::Tricks(4), Bid::Nil];
        assert_eq!(bids(&gap), "1 to 2, 4 or nil");
        assert_eq!(list(&["a".into(), "b".into()], "and"), "a and b");
    }

    #[test]
    fn a_long_line_is_said_short_then_cut_at_a_word() {
        let long = |s: &Speech| {
            if s.short_cards {
                "short".to_string()
            } else {
                "x ".repeat(LINE_MAX)
            }
        };
        assert_eq!(fitted(&WORDS, long), "short");
        let cut_line = fitted(&WORDS, |_| "word ".repeat(LINE_MAX));
        assert!(cut_line.chars().count() <= LINE_MAX, "{cut_line}");
        assert!(cut_line.ends_with("word..."), "{cut_line}");
        assert_eq!(points(-40), "minus 40");
        assert_eq!(
            followed("9C".parse().unwrap(), Some(Suit::Clubs), &WORDS),
            "the nine"
        );
        assert_eq!(
            followed("9C".parse().unwrap(), Some(Suit::Clubs), &SHORT),
            "9C"
        );
        assert_eq!(
            followed("AS".parse().unwrap(), Some(Suit::Clubs), &WORDS),
            "the ace of spades"
        );
    }

    #[test]
    fn trumps_above_the_ace_keep_their_own_names() {
        let hand = set("BJ DD AS");
        assert_eq!(
            by_suit(hand, &WORDS),
            "spades: big joker, high two of diamonds, ace"
        );
    }
}
