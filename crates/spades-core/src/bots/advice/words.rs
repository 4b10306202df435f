//! A reason in the game's words. Each sentence claims only what the seat's
//! view shows (`CardFacts`): where a rule fires in positions where its
//! usual words would not be true, the words follow the facts ("Lead high"
//! where "Lead a winner" would be false).

use std::fmt;

use crate::engine::{Action, Bid, Card};

use super::super::knowledge::DUMMY_TRICKS;
use super::super::nil::NilRule;
use super::super::normal::{Aim, BidRule, CardRule, Moved};
use super::facts::{CardFacts, ContractState};
use super::{Edge, Gain, Reason};

/// The reason for a card `normal` plays by `rule`, a sentence of at most
/// `width` characters: with the partner on a live nil, how the card bears
/// on the nil first, said shorter or left out where the line has no room.
pub(super) fn card_words(
    rule: CardRule,
    aim: Option<Aim>,
    nil: (bool, bool),
    facts: &CardFacts,
    width: usize,
) -> String {
    let (partner_nil, kept_cover) = nil;
    let covers = matches!(
        rule,
        CardRule::Nil(NilRule::CoverLead | NilRule::CoverOvertake | NilRule::CoverAbove)
            | CardRule::SaveCover
    );
    let words = rule_words(rule, aim, facts);
    let prefixes: &[&str] = match (partner_nil && !covers, kept_cover, facts.partner.nil_safe) {
        (false, ..) => return words,
        (true, true, _) => &["Cover kept for the nil; ", "Nil cover kept; "],
        (true, false, true) => &["Nil safe here; ", "Nil safe; "],
        (true, false, false) => &["Partner on nil; "],
    };
    let mut chars = words.chars();
    let first = chars.next().map(|c| c.to_lowercase().to_string());
    let rest = format!("{}{}", first.unwrap_or_default(), chars.as_str());
    prefixes
        .iter()
        .map(|prefix| format!("{prefix}{rest}"))
        .find(|said| said.chars().count() <= width)
        .unwrap_or(words)
}

/// `normal`'s rule in a player's words, true of `f`.
fn rule_words(rule: CardRule, aim: Option<Aim>, f: &CardFacts) -> String {
    let set = aim == Some(Aim::Set) && f.set_open;
    let pick = |plain: &'static str, setting: &'static str| if set { setting } else { plain };
    let words = match rule {
        CardRule::Only => "Your only legal card.",
        CardRule::Nil(nil) => nil_words(nil, f),
        CardRule::Cash if f.winner => pick(
            "Cash your winner before they can trump it.",
            "Cash your winner before they can trump it: set them.",
        ),
        CardRule::Cash if f.top_left => {
            "The top card left of its suit: cash it before they can trump it."
        }
        CardRule::Cash => "Likely to take the trick, though a higher card is out.",
        CardRule::DrawTrumps if f.spades_out => "Draw their trumps with your top spade.",
        CardRule::DrawTrumps => "Your top spade: no spade is left against it.",
        CardRule::LowLead {
            partners_void: true,
        } if f.partner.may_ruff => "Lead to your partner's void: they can trump it.",
        CardRule::LowLead { .. } => low_lead_words(f),
        CardRule::PartnerHolds if f.beats => {
            "Every card you can play beats your partner's: the least useful."
        }
        CardRule::PartnerHolds if f.partner.holds => {
            "Partner's card holds the trick: spend nothing."
        }
        CardRule::PartnerHolds => "Partner is winning the trick: spend nothing on it.",
        CardRule::CheapestWinner => pick(
            "Last to play: the cheapest card that wins.",
            "Win it cheaply, last to play: set them.",
        ),
        CardRule::SureWinner if f.winner => pick(
            "The cheapest card sure to win the trick.",
            "The cheapest card sure to win: set them.",
        ),
        CardRule::SureWinner => pick(
            "The cheapest card likely to take the trick.",
            "The cheapest card likely to take it: set them.",
        ),
        CardRule::SecondHandLow => match (f.low(), f.down == 1) {
            (true, true) => "Second hand low: your partner still plays.",
            (true, false) => "Play low: your partner still plays.",
            (false, _) => "Your partner still plays: your lowest of the suit.",
        },
        CardRule::ThirdHandHigh => third_hand_words(f),
        CardRule::CannotWin if f.can_win => "Little chance at the trick: your least useful card.",
        CardRule::CannotWin => "Nothing wins it: throw your least useful card.",
        CardRule::ShedLead | CardRule::Duck => return shed_words(rule, f),
        CardRule::SaveCover if f.beats => {
            "No card ducks it: keep your high cards to cover partner's nil."
        }
        CardRule::SaveCover => "Let it go: keep your high cards to cover partner's nil.",
        CardRule::CannotDuck if f.last => {
            "Every card wins it, last to play: the likeliest to win later."
        }
        CardRule::CannotDuck => "Any card wins now: the one likeliest to be beaten.",
    };
    words.to_string()
}

/// A low card led from the suit that costs least, or the top card left
/// when that is the lowest the seat holds of it.
fn low_lead_words(f: &CardFacts) -> &'static str {
    if f.low() {
        "A low lead, from the suit that costs least."
    } else if f.winner {
        "A sure winner, from the suit that costs least to lead."
    } else if f.top_left {
        "The top card left of the suit that costs least, but it may be trumped."
    } else {
        "Your lowest of the suit that costs least to lead."
    }
}

/// Third hand high, or what the card is where that is not so.
fn third_hand_words(f: &CardFacts) -> &'static str {
    if f.ruff {
        "Trump it: your best chance at the trick."
    } else if f.high && f.down == 2 {
        "Third hand high: your best chance at the trick."
    } else if f.high {
        "Play high: your best chance at the trick."
    } else if f.cheapest {
        "The cheapest card that beats theirs."
    } else {
        "Your best chance at the trick."
    }
}

/// Letting a trick go, as the side's contract stands.
fn shed_words(rule: CardRule, f: &CardFacts) -> String {
    let (contract, why) = match f.contract {
        ContractState::Made => ("Your contract is made: ", " to avoid a bag"),
        ContractState::Lost => ("Your contract cannot be made now: ", ""),
        ContractState::NoContract => ("No contract of yours to make: ", ""),
        // (`normal` sheds only when the contract needs nothing more.)
        ContractState::Needs => ("", ""),
    };
    let play = match rule {
        CardRule::Duck => "duck",
        _ if f.low() => "lead low",
        _ => "lead the card least likely to win",
    };
    let said = format!("{contract}{play}{why}.");
    let mut chars = said.chars();
    let first = chars.next().map(|c| c.to_uppercase().to_string());
    format!("{}{}", first.unwrap_or_default(), chars.as_str())
}

fn nil_words(rule: NilRule, f: &CardFacts) -> &'static str {
    match rule {
        NilRule::OwnLead if f.top_left => "For your nil: every card you can lead is the top left.",
        NilRule::OwnLead => "For your nil: a lead someone else must beat.",
        NilRule::OwnDuck if f.follows => "For your nil: the highest card that still loses.",
        NilRule::OwnDuck => "For your nil: shed a dangerous card while it cannot win.",
        NilRule::OwnUnload => "This trick is lost: shed your most dangerous card.",
        NilRule::OwnHope if f.winner => "Every card you can play wins it: your lowest.",
        NilRule::OwnHope => "Every card beats it: your lowest, hoping to be overtaken.",
        NilRule::CoverLead => cover_lead_words(f),
        NilRule::CoverOvertake => "Overtake your partner's card: their nil is safe.",
        NilRule::CoverAbove => cover_above_words(f),
        NilRule::BustLead if f.low() => "Lead low into the nil bidder's suit to set the nil.",
        NilRule::BustLead => "Lead a suit the nil bidder has not shown out of, to set the nil.",
        NilRule::BustUnder if f.nil_bidder_winning => {
            "Stay under the nil bidder: let them take the trick."
        }
        NilRule::BustUnder => "The nil bidder is not winning it: keep your low cards for later.",
        NilRule::BustLow if f.beats => {
            "Keep the trick as low as you can: the nil bidder may win it."
        }
        NilRule::BustLow => "Keep the trick low: the nil bidder may win it.",
    }
}

/// A lead the partner on nil can play under.
fn cover_lead_words(f: &CardFacts) -> &'static str {
    if f.winner && f.partner.nil_safe {
        "Lead a winner: your partner plays under it, nil safe."
    } else if f.winner {
        "Lead a winner: your partner can play under it."
    } else if f.partner.void {
        "Lead a suit your partner has shown out of: they throw off under it."
    } else if f.top_left {
        "Lead the top card left: your partner can play under it."
    } else if f.high {
        "Lead high: your partner can play under it."
    } else {
        "Lead it: your partner can play under it."
    }
}

/// A card over the trick before the partner on nil plays.
fn cover_above_words(f: &CardFacts) -> &'static str {
    if f.winner && f.partner.nil_safe {
        "Win it before your partner plays: their nil is safe."
    } else if f.winner {
        "Win it before your partner plays: they can go under it."
    } else if f.ruff {
        "Trump it before your partner plays: they can go under it."
    } else if f.top_left {
        "The top card left, before your partner plays: only a trump beats it."
    } else if f.high {
        "Play high before your partner plays: they can go under it."
    } else {
        "Over the trick before your partner plays: they can go under it."
    }
}

/// `normal`'s bid in a player's words, a sentence.
pub(super) fn bid_words(rule: BidRule) -> String {
    let BidRule::Count { count, moved } = rule else {
        return match rule {
            BidRule::SuicideNil => "Suicide: one of you bids nil, and it is you.",
            _ => "Few tricks and safe low cards: a nil.",
        }
        .to_string();
    };
    if moved == Some(Moved::Dummy) {
        return format!("Your cards count about {count:.1} tricks, the dummy's {DUMMY_TRICKS:.1}.");
    }
    let why = match moved {
        None | Some(Moved::Dummy) => "",
        Some(Moved::CoverNil) => ", less for covering partner's nil",
        Some(Moved::Push) => ", pushed up: they are close to winning",
        Some(Moved::Safe) => ", kept safe: a made contract wins",
        Some(Moved::Overbid) => ", shaded: the table has bid the tricks",
        Some(Moved::Bags) => ", rounded down: bags are near the limit",
    };
    format!("Your cards count about {count:.1} tricks{why}.")
}

impl Reason {
    /// The reason, with cards named by `card` (the table's way of showing
    /// them; `Display` uses the game's notation), in at most `width`
    /// characters where words that add to it can give way.
    pub fn said(&self, card: &dyn Fn(Card) -> String, width: usize) -> String {
        match *self {
            Reason::Edge(edge) => edge.said(card),
            Reason::Rule {
                rule,
                aim,
                partner_nil,
                kept_cover,
                facts,
            } => card_words(rule, aim, (partner_nil, kept_cover), &facts, width),
            Reason::Bid(rule) => bid_words(rule),
            Reason::BlindNil(why) => why.to_string(),
            Reason::Usual => "Nothing else is clearly better.".to_string(),
        }
    }
}

impl Edge {
    /// The edge, with the next best choice named and its cards named by
    /// `card`.
    pub fn said(&self, card: &dyn Fn(Card) -> String) -> String {
        let pc = |p: f64| (100.0 * p).round();
        let next = named(self.next, card);
        match self.gain {
            Gain::Nil(a, b) => format!("The nil holds {}%, against {}% for {next}.", pc(a), pc(b)),
            Gain::Contract(a, b) => format!(
                "Makes the contract {}%, against {}% for {next}.",
                pc(a),
                pc(b)
            ),
            Gain::Set(a, b) => format!("Sets them {}%, against {}% for {next}.", pc(a), pc(b)),
            Gain::Bags(a, b) => format!("Fewer bags: {a:.1} a hand, against {b:.1} for {next}."),
            Gain::Points(a, b) => format!("More points: {a:+.0}, against {b:+.0} for {next}."),
            Gain::Tricks(a, b) if a >= b => format!(
                "Takes {} more: {a:.1} against {b:.1} for {next}.",
                about_tricks(a - b)
            ),
            Gain::Tricks(a, b) => format!(
                "Fewer bags: {} less, {a:.1} against {b:.1} for {next}.",
                about_tricks(b - a)
            ),
            Gain::Even => {
                let mut chars = next.chars();
                let first = chars.next().map(|c| c.to_uppercase().to_string());
                format!(
                    "{}{} is about as good.",
                    first.unwrap_or_default(),
                    chars.as_str()
                )
            }
        }
    }
}

impl fmt::Display for Edge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.said(&|c: Card| c.to_string()))
    }
}

/// The next best choice named in a sentence ("... for the 4♠"). A pass of
/// more than two cards is named "the next best" (the choice it stands
/// against): its cards would not fit the line.
fn named(choice: Action, card: &dyn Fn(Card) -> String) -> String {
    match choice {
        Action::Play(c) => format!("the {}", card(c)),
        Action::Bid(Bid::Tricks(n)) => format!("bidding {n}"),
        Action::Bid(bid) => bid.to_string(),
        Action::Look => "looking".to_string(),
        Action::Exchange(cards) if cards.len() <= 2 => {
            let cards: Vec<String> = cards.iter().map(card).collect();
            format!("passing {}", cards.join(" "))
        }
        Action::Exchange(_) => "the next best".to_string(),
    }
}

/// A difference in average tricks as a player would say it.
fn about_tricks(by: f64) -> String {
    match by {
        ..0.75 => "about half a trick".to_string(),
        ..1.5 => "about a trick".to_string(),
        _ => format!("about {by:.0} tricks"),
    }
}
