//! One hand of a story in a few lines: the deal, the bids, the exchange,
//! each trick in one line and the score, one line a side.

use crate::config::preferences::Verbosity;
use crate::engine::{Card, Seat, Side};
use crate::naming::Names;
use crate::story::{HandStory, StepEvent, Story};

use super::super::super::replay::told::{mark_sentence, subject};
use super::super::super::summary::hand_summary;
use super::super::{Speech, words};

/// The seats' names as the lines say them: the person who played the
/// game is "You".
pub struct Voices {
    names: Names,
    you: Option<Seat>,
}

impl Voices {
    pub fn of(story: &Story) -> Voices {
        Voices {
            names: Names::listed(story.mode(), &story.names),
            you: story.player,
        }
    }

    /// A seat at the start of a sentence.
    pub fn seat(&self, seat: Seat) -> &str {
        if self.you == Some(seat) {
            "You"
        } else {
            self.names.seat(seat)
        }
    }

    /// A seat within a sentence.
    pub fn within(&self, seat: Seat) -> &str {
        if self.you == Some(seat) {
            "you"
        } else {
            self.names.seat(seat)
        }
    }

    /// A side's players: "hard 0 and hard 2".
    pub fn members(&self, story: &Story, side: Side) -> Vec<&str> {
        story
            .mode()
            .side_seats(side)
            .map(|s| self.seat(s))
            .collect()
    }
}

/// Hand `index` of `story`, in lines.
pub fn lines(story: &Story, index: usize, speech: &Speech) -> Vec<String> {
    let Some(hand) = story.hands.get(index) else {
        return Vec::new();
    };
    let voices = Voices::of(story);
    // "of 5" where the story holds the game's hands, not for one hand's
    // review.
    let of = match story.hands.len() {
        1 => String::new(),
        n => format!(" of {n}"),
    };
    let mut out = vec![format!(
        "Hand {}{of}. {}.",
        hand.hand,
        subject(voices.seat(hand.dealer), "deals", "deal")
    )];
    let brief = speech.verbosity == Verbosity::Brief;
    for seat in story.mode().each_seat() {
        let held = words::by_suit(hand.dealt[seat], speech);
        out.push(if brief {
            format!("{}: {held}.", voices.seat(seat))
        } else {
            format!("{} {held}.", subject(voices.seat(seat), "holds", "hold"))
        });
    }
    if let Some(out_card) = hand.out.lowest() {
        out.push(format!(
            "Out of play: the {}.",
            words::card(out_card, speech)
        ));
    }
    if !hand.bids.is_empty() {
        let bids: Vec<String> = hand
            .bids
            .iter()
            .map(|&(seat, bid)| match brief {
                true => format!("{} {bid}", voices.seat(seat)),
                false => format!("{} {bid}", subject(voices.seat(seat), "bids", "bid")),
            })
            .collect();
        out.push(format!("Bids: {}.", bids.join(", ")));
    }
    if let Some(line) = declarer(story, hand, &voices) {
        out.push(line);
    }
    if let Some(line) = exchange(hand, &voices, speech) {
        out.push(line);
    }
    for (k, plays) in tricks(story, index).into_iter().enumerate() {
        out.push(trick_line(story, hand, &voices, k + 1, &plays, speech));
    }
    out.extend(ending(story, index));
    out
}

/// Trick `k` (from 1) of hand `index`, in its line.
pub fn trick(story: &Story, index: usize, k: usize, speech: &Speech) -> Option<String> {
    let hand = story.hands.get(index)?;
    let plays = tricks(story, index).into_iter().nth(k.checked_sub(1)?)?;
    Some(trick_line(
        story,
        hand,
        &Voices::of(story),
        k,
        &plays,
        speech,
    ))
}

/// The end of hand `index`: each side's score, and after the last hand
/// who won the game; or that the record stops before the score.
pub fn ending(story: &Story, index: usize) -> Vec<String> {
    let Some(hand) = story.hands.get(index) else {
        return Vec::new();
    };
    let voices = Voices::of(story);
    let mut out = score(story, hand, &voices);
    if hand.result.is_none() {
        out.push("The record stops here, before the hand was scored.".into());
    } else if index + 1 == story.hands.len() {
        out.extend(game_won(story, &voices));
    }
    out
}

/// With a dummy: "hard 2 declares with the dummy; hard 0 and hard 1
/// defend."
fn declarer(story: &Story, hand: &HandStory, voices: &Voices) -> Option<String> {
    let declarer = hand.teams.declarer()?;
    let defenders: Vec<&str> = story
        .mode()
        .each_player()
        .filter(|&s| s != declarer)
        .map(|s| voices.within(s))
        .collect();
    Some(format!(
        "{} with the dummy; {} {}.",
        subject(voices.seat(declarer), "declares", "declare"),
        defenders.join(" and "),
        if defenders.len() == 1 {
            "defends"
        } else {
            "defend"
        }
    ))
}

/// "Exchange: East passes the two of clubs to West; ...", when there was one.
fn exchange(hand: &HandStory, voices: &Voices, speech: &Speech) -> Option<String> {
    if hand.passes.is_empty() {
        return None;
    }
    let passes: Vec<String> = hand
        .passes
        .iter()
        .map(|p| {
            let from = subject(voices.seat(p.from), "passes", "pass");
            let to = voices.within(p.to);
            match p.cards {
                Some(cards) => format!("{from} {} to {to}", words::cards(cards, speech)),
                None => format!("{from} cards to {to} unseen"),
            }
        })
        .collect();
    Some(format!("Exchange: {}.", passes.join("; ")))
}

/// Each trick's cards in the order played, and who won it: from the
/// story's steps, which the engine checked.
pub fn tricks(story: &Story, index: usize) -> Vec<(Vec<(Seat, Card)>, Seat)> {
    let mut done = Vec::new();
    let mut playing = Vec::new();
    for step in story.steps.iter().filter(|s| s.hand == index) {
        if let StepEvent::Play {
            seat,
            card,
            completes,
        } = step.event
        {
            playing.push((seat, card));
            if completes.is_some() {
                let winner = step.winning.unwrap_or(seat);
                done.push((std::mem::take(&mut playing), winner));
            }
        }
    }
    done
}

/// "Trick 1: West led the four of clubs, North the nine, East the king,
/// you the two; East won." (brief: "Trick 1: West four of clubs, North
/// nine, ..."). A card of the suit led is said by its rank alone; the
/// marks the trick reached follow.
fn trick_line(
    story: &Story,
    hand: &HandStory,
    voices: &Voices,
    k: usize,
    (plays, winner): &(Vec<(Seat, Card)>, Seat),
    speech: &Speech,
) -> String {
    let led = plays.first().and_then(|&(_, c)| c.printed_suit());
    let said: Vec<String> = plays
        .iter()
        .enumerate()
        .map(|(i, &(seat, card))| {
            let same_suit = i > 0 && card.printed_suit() == led && !card.rank().is_above_ace();
            let name = if same_suit && !speech.short_cards {
                super::super::super::theme::rank_in_words(card.rank()).to_string()
            } else {
                words::card(card, speech)
            };
            let brief = speech.verbosity == Verbosity::Brief;
            let the = if speech.short_cards || brief {
                ""
            } else {
                "the "
            };
            if i == 0 && brief {
                format!("{} {name}", voices.seat(seat))
            } else if i == 0 {
                format!("{} led {the}{name}", voices.seat(seat))
            } else {
                format!("{} {the}{name}", voices.within(seat))
            }
        })
        .collect();
    let mut line = format!(
        "Trick {k}: {}; {} won.",
        said.join(", "),
        voices.seat(*winner)
    );
    for mark in hand.marks.iter().filter(|m| m.trick == k) {
        line.push(' ');
        line.push_str(&mark_sentence(
            mark,
            &voices.members(story, mark.side),
            |s| voices.seat(s),
        ));
    }
    line
}

/// Each side's score for the hand in one line: "hard 0 and hard 2:
/// Contract 9, took 9: 90; Bags 0 + 0 = 0; Hand +90, score 0 to 90."
fn score(story: &Story, hand: &HandStory, voices: &Voices) -> Vec<String> {
    let Some(result) = &hand.result else {
        return Vec::new();
    };
    let theme = crate::Theme::PLAIN;
    let sides = hand_summary(result, &hand.before, &story.rules, &voices.names, &theme);
    sides
        .iter()
        .enumerate()
        .filter_map(|(i, summary)| {
            let side = Side::from_index(i)?;
            let who = voices.members(story, side).join(" and ");
            // The plain theme's arrow is read out as "dash greater than".
            let said = summary.lines.join("; ").replace(" -> ", " to ");
            Some(format!("Score, {who}: {said}."))
        })
        .collect()
}

/// Who won the game and the final scores, the winners' first: "hard 1
/// and hard 3 win the game, 256 to 145."; `None` before the game's end.
pub fn game_won(story: &Story, voices: &Voices) -> Option<String> {
    let (winner, scores) = story.end.as_ref()?;
    let who = voices.members(story, *winner);
    let verb = if who.len() > 1 || who == ["You"] {
        "win"
    } else {
        "wins"
    };
    let first = scores.get(winner.index()).map(i32::to_string);
    let others = scores
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != winner.index())
        .map(|(_, s)| s.to_string());
    let scores: Vec<String> = first.into_iter().chain(others).collect();
    Some(format!(
        "{} {verb} the game, {}.",
        who.join(" and "),
        scores.join(" to ")
    ))
}
