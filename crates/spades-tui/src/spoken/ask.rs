//! The questions a player may ask at any time, each on a single key and
//! answered in one line: whose turn, the hand, the cards that may be
//! played, the trick, the bids, the score, the last trick, the cards gone
//! in a suit, the rules. (`h`, the hint, and `?`, the keys, are answered
//! by the table's loop: the hint is worked out on a thread of its own.)

use crate::config;
use crate::config::preferences::Verbosity;
use crate::engine::{Card, Decision, Memory, PerSeat, Phase, PlayerView, Seat, Side, Suit, Turn};

use super::super::App;
use super::super::hand::HAND_SUITS;
use super::super::standing::{bid_and_took, spades_state};
use super::super::text::sentence_case;
use super::{LINE_MAX, Speech, words};

/// A question on a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Query {
    /// `w`: whose turn it is, and what for.
    Turn,
    /// `m`: my hand, by suit.
    Hand,
    /// `o`: the cards I may play now (or the bids I may make).
    Options,
    /// `t`: the trick on the table.
    Trick,
    /// `b`: every seat's bid and tricks taken.
    Bids,
    /// `s`: the score, bags and the target.
    Score,
    /// `l`: the last trick.
    LastTrick,
    /// `g`: the cards gone so far, by suit; `g h` (or `gh`) in one suit.
    Gone(Option<Suit>),
    /// `r`: the rules in force.
    Rules,
}

impl Query {
    /// Every question with its key and what it asks, for `?`.
    pub const KEYS: [(&'static str, &'static str); 9] = [
        ("w", "whose turn"),
        ("m", "my hand"),
        ("o", "what I may play or bid"),
        ("t", "the trick"),
        ("b", "bids and tricks"),
        ("s", "score, bags and target"),
        ("l", "the last trick"),
        ("g", "cards gone, g h for hearts"),
        ("r", "the rules"),
    ];

    /// The question a typed line asks, if it is one: a key alone, or `g`
    /// with a suit's letter.
    pub fn from_line(line: &str) -> Option<Query> {
        let line = line.trim().to_ascii_lowercase();
        let compact: String = line.split_whitespace().collect();
        Some(match compact.as_str() {
            "w" => Query::Turn,
            "m" => Query::Hand,
            "o" => Query::Options,
            "t" => Query::Trick,
            "b" => Query::Bids,
            "s" => Query::Score,
            "l" => Query::LastTrick,
            "r" => Query::Rules,
            "g" => Query::Gone(None),
            "gs" => Query::Gone(Some(Suit::Spades)),
            "gh" => Query::Gone(Some(Suit::Hearts)),
            "gd" => Query::Gone(Some(Suit::Diamonds)),
            "gc" => Query::Gone(Some(Suit::Clubs)),
            _ => return None,
        })
    }
}

/// The one-line answer to `query` at the table as `app` shows it: what
/// the player's seat may see, never longer than a line may be.
pub fn answer(query: Query, app: &App, speech: &Speech) -> String {
    let view = app.view();
    words::fitted(speech, |speech| {
        let asked = Asked {
            app,
            view: &view,
            speech,
        };
        match query {
            Query::Turn => asked.turn(),
            Query::Hand => asked.hand(),
            Query::Options => asked.options(),
            Query::Trick => asked.trick(),
            Query::Bids => asked.bids(),
            Query::Score => asked.score(),
            Query::LastTrick => asked.last_trick(),
            Query::Gone(suit) => asked.gone(suit),
            Query::Rules => asked.rules(),
        }
    })
}

/// The keys and the commands, for `?`: a line each, at most four.
pub fn help_lines(speech: &Speech) -> Vec<String> {
    let questions: Vec<String> = Query::KEYS
        .iter()
        .map(|(key, what)| format!("{key} {what}"))
        .collect();
    vec![
        format!("Questions: {}.", questions.join("; ")),
        format!(
            "h a hint; v verbosity, now {}; ? these keys; Enter alone says again what is asked.",
            speech.verbosity.name()
        ),
        "Commands: bid 4, nil, blind nil, blind 6, look, pass 7c 3d, play qh (or qh, or play \
         queen of hearts), hint, chat hello, claim, undo in practice, quit."
            .to_string(),
    ]
}

/// The room a line of the rules keeps to say how many house rules did
/// not fit ("And 2 more house rules.").
const UNSAID_ROOM: usize = 25;

/// One question being answered: the table as the player's seat sees it,
/// and how to say it.
struct Asked<'a> {
    app: &'a App,
    view: &'a PlayerView,
    speech: &'a Speech,
}

/// Whom the table waits for, and for what.
enum Waiting {
    You(Turn),
    Other { player: Seat, seat: Seat },
    HandOver,
    GameOver,
}

impl Asked<'_> {
    fn brief(&self) -> bool {
        self.speech.verbosity == Verbosity::Brief
    }

    fn full(&self) -> bool {
        self.speech.verbosity == Verbosity::Full
    }

    /// "you", "West", "the dummy".
    fn who(&self, seat: Seat) -> String {
        let app = self.app;
        words::seat(app.names(), self.view.mode(), app.you(), seat)
    }

    fn waiting(&self) -> Waiting {
        let phase = self.view.phase;
        if phase == Phase::Over {
            return Waiting::GameOver;
        }
        if let Some(turn) = self.app.human_turn() {
            return Waiting::You(turn);
        }
        match self.app.waiting_for() {
            Some(seat) if phase != Phase::AwaitingDeal => Waiting::Other {
                player: self.view.teams().player_for(seat),
                seat,
            },
            _ => Waiting::HandOver,
        }
    }

    /// What another seat is deciding: "bid", "play from the dummy".
    fn their_decision(&self, player: Seat, seat: Seat) -> &'static str {
        match self.view.phase {
            Phase::Bidding => "bid",
            Phase::Exchange => "pass cards",
            _ if player != seat => "play from the dummy",
            _ => "play",
        }
    }

    /// `w`: whose turn, and what for.
    fn turn(&self) -> String {
        match self.waiting() {
            Waiting::You(turn) => self.your_turn(turn),
            Waiting::Other { player, seat } => {
                let what = self.their_decision(player, seat);
                let who = self.who(player);
                if self.brief() {
                    format!("{} to {what}.", sentence_case(&who))
                } else {
                    format!(
                        "{} turn to {what}.",
                        sentence_case(&words::possessive(&who))
                    )
                }
            }
            Waiting::HandOver => "No one's: the hand is over.".to_string(),
            Waiting::GameOver => "No one's: the game is over.".to_string(),
        }
    }

    /// "Your turn to bid.", "Your turn to play from the dummy."
    fn your_turn(&self, turn: Turn) -> String {
        let view = self.view;
        let what = match turn.decision {
            Decision::BlindNil if view.blind_numbers().is_empty() => {
                "bid blind nil or look at your cards".to_string()
            }
            Decision::BlindNil => "bid blind or look at your cards".to_string(),
            Decision::Bid => "bid".to_string(),
            Decision::Exchange => {
                let (count, partner) = self.exchange();
                format!("pass {} to {partner}", words::count(count, "card"))
            }
            Decision::Play => {
                let lead = if view.led_suit().is_none() {
                    "lead"
                } else {
                    "play"
                };
                format!("{lead}{}", self.dummy_words(turn))
            }
        };
        let mut line = if self.brief() {
            format!("You to {what}.")
        } else {
            format!("Your turn to {what}.")
        };
        if let (true, Decision::Play, Some(led)) = (self.full(), turn.decision, view.led_suit()) {
            line.push_str(&format!(" {} led.", sentence_case(led.name())));
        }
        line
    }

    /// " from the dummy" when the turn is the dummy's, played by the
    /// player who declared.
    fn dummy_words(&self, turn: Turn) -> &'static str {
        if turn.seat == self.app.you() {
            ""
        } else {
            " from the dummy"
        }
    }

    /// How many cards the exchange asks of the player, and to whom.
    fn exchange(&self) -> (usize, String) {
        self.view
            .exchange
            .map_or((0, "your partner".to_string()), |e| {
                (usize::from(e.count), self.who(e.partner))
            })
    }

    /// `m`: the player's hand by suit, and a hand laid face up (the
    /// dummy's) after it.
    fn hand(&self) -> String {
        let view = self.view;
        let speech = self.speech;
        let Some(cards) = view.hand else {
            return "Your cards are face down until you bid blind or look at them.".to_string();
        };
        let held = words::count(cards.len() as usize, "card");
        let mut line = if cards.is_empty() {
            "You hold no cards.".to_string()
        } else if self.brief() {
            format!("{held}: {}.", words::by_suit(cards, speech))
        } else {
            format!("You hold {held}: {}.", words::by_suit(cards, speech))
        };
        if self.full() {
            line = format!("Hand {}. {line}", view.hand_no);
        }
        if let Some(shown) = view
            .shown
            .filter(|s| s.seat != view.seat && !s.cards.is_empty())
        {
            line.push_str(&format!(
                " {} holds {}: {}.",
                sentence_case(&self.who(shown.seat)),
                words::count(shown.cards.len() as usize, "card"),
                words::by_suit(shown.cards, speech)
            ));
        }
        line
    }

    /// `o`: exactly what the player may do now.
    fn options(&self) -> String {
        let view = self.view;
        let speech = self.speech;
        let turn = match self.waiting() {
            Waiting::You(turn) => turn,
            _ => return format!("Nothing to choose now: {}", self.nobody_asks_you()),
        };
        match turn.decision {
            Decision::Play => {
                let legal = self.app.hand_view().legal_plays();
                let from = self.dummy_words(turn);
                let mut line = if self.brief() {
                    format!("Play{from}: {}.", words::cards(legal, speech))
                } else {
                    format!("You may play{from}: {}.", words::cards(legal, speech))
                };
                if self.app.card_played_for_you().is_some() {
                    line.push_str(" It is played for you.");
                }
                line
            }
            Decision::Bid => format!("You may bid {}.", words::bids(&view.allowed_bids())),
            Decision::BlindNil => format!(
                "You may bid {}, or look at your cards.",
                words::bids(&view.blind_bids())
            ),
            Decision::Exchange => {
                let (count, partner) = self.exchange();
                format!("You may pass any {count} of your cards to {partner}: pass and the cards.")
            }
        }
    }

    /// Whose turn it is when it is not the player's, as the end of a
    /// sentence: "West's turn to bid.", "the hand is over."
    fn nobody_asks_you(&self) -> String {
        match self.waiting() {
            Waiting::Other { player, seat } => format!(
                "{} turn to {}.",
                words::possessive(&self.who(player)),
                self.their_decision(player, seat)
            ),
            Waiting::GameOver => "the game is over.".to_string(),
            Waiting::You(_) | Waiting::HandOver => "the hand is over.".to_string(),
        }
    }

    /// "West led the four of clubs, North played the nine": a trick's
    /// cards from its lead, clockwise.
    fn trick_cards(&self, leader: Seat, cards: &PerSeat<Option<Card>>) -> String {
        let mode = self.view.mode();
        let led = cards[leader].map(Card::suit);
        let played: Vec<String> = (0..mode.seats())
            .map(|k| mode.after(leader, k))
            .filter_map(|seat| {
                let card = cards[seat]?;
                let who = self.who(seat);
                Some(match (self.brief(), seat == leader) {
                    (true, _) => format!("{who} {}", words::card(card, self.speech)),
                    (false, true) => format!("{who} led {}", words::the_card(card, self.speech)),
                    (false, false) => {
                        format!("{who} played {}", words::followed(card, led, self.speech))
                    }
                })
            })
            .collect();
        played.join(", ")
    }

    /// `t`: the trick on the table, and who plays next (or took it).
    fn trick(&self) -> String {
        let view = self.view;
        let play = &view.play;
        let held = self.app.held_trick().map(|h| h.trick);
        if held.is_none() && view.phase != Phase::Playing {
            let why = match view.phase {
                Phase::Bidding => "the bidding is on",
                Phase::Exchange => "the cards are being exchanged",
                Phase::Over => "the game is over",
                Phase::Playing | Phase::AwaitingDeal => "the hand is over",
            };
            return format!("No trick on the table: {why}.");
        }
        let (number, leader, cards) = match held {
            Some(trick) => (play.tricks_done, trick.leader, trick.cards),
            None => (play.tricks_done + 1, play.leader, play.trick),
        };
        let said = self.trick_cards(leader, &cards);
        let next = match held {
            Some(trick) => self.took_it(trick.winner, false),
            None if said.is_empty() => format!("{} to lead", self.who(play.turn)),
            None => format!("{} to play", self.who(play.turn)),
        };
        let mut line = if said.is_empty() {
            format!("Trick {number}: {next}.")
        } else {
            format!("Trick {number}: {said}; {next}.")
        };
        if self.full() {
            let spades = spades_state(play.spades_broken, view.rules.play.spades_lead);
            line.push_str(&format!(" {}.", sentence_case(spades)));
        }
        line
    }

    /// "North takes it", "you take it"; once over, "North took it".
    fn took_it(&self, seat: Seat, over: bool) -> String {
        let verb = match (over, seat == self.app.you()) {
            (true, _) => "took",
            (false, true) => "take",
            (false, false) => "takes",
        };
        format!("{} {verb} it", self.who(seat))
    }

    /// `l`: the last trick of this hand and who took it.
    fn last_trick(&self) -> String {
        let tricks = &self.view.tricks;
        let Some(trick) = tricks.last() else {
            return "No trick played yet this hand.".to_string();
        };
        let said = self.trick_cards(trick.leader, &trick.cards);
        let took = self.took_it(trick.winner, true);
        if self.brief() {
            format!("Last trick: {said}; {took}.")
        } else {
            format!("Last trick, trick {}: {said}; {took}.", tricks.len())
        }
    }

    /// `b`: every seat's bid and tricks, from the player round the table,
    /// then each side's where seats play together.
    fn bids(&self) -> String {
        let view = self.view;
        let mode = view.mode();
        let bids = view.bids();
        let won = &view.play.tricks_won;
        let playing = !matches!(view.phase, Phase::Bidding | Phase::Exchange);
        if bids.iter().all(Option::is_none) && !playing {
            return "No bids yet.".to_string();
        }
        let you = self.app.you();
        let seats: Vec<String> = (0..mode.seats())
            .map(|k| mode.after(you, k))
            // The dummy bids nothing: it is named once it takes tricks.
            .filter(|&seat| playing || mode.is_player(seat))
            .map(|seat| {
                let who = self.who(seat);
                let took = match (playing, self.brief()) {
                    (false, _) => String::new(),
                    (true, true) => format!(" {}", won[seat]),
                    (true, false) => format!(", took {}", won[seat]),
                };
                match bids[seat] {
                    _ if !mode.is_player(seat) => format!("{who} took {}", won[seat]),
                    Some(bid) if seat == you && !self.brief() => format!("{who} bid {bid}{took}"),
                    Some(bid) => format!("{who} {bid}{took}"),
                    None => format!("{who} yet to bid"),
                }
            })
            .collect();
        let mut line = if self.brief() && playing {
            format!("Bid and took: {}.", seats.join("; "))
        } else if self.brief() {
            format!("Bids: {}.", seats.join("; "))
        } else {
            format!("{}.", sentence_case(&seats.join("; ")))
        };
        // Where seats play together, their side's count as the score bar
        // has it once all have bid: partners, or the dummy's team.
        let teams = view.teams();
        if playing && (mode.has_partners() || teams.declarer().is_some()) {
            let sides: Vec<String> = self
                .sides_from_yours()
                .into_iter()
                .map(|side| {
                    let count = bid_and_took(teams, side, &bids, won, ", ");
                    format!("{}: {count}", self.side_name(side))
                })
                .collect();
            line.push_str(&format!(" {}.", sentence_case(&sides.join("; "))));
        }
        line
    }

    /// The table's sides, the player's first, then round the table.
    fn sides_from_yours(&self) -> Vec<Side> {
        let mode = self.view.mode();
        let ours = self.view.side();
        let mut sides: Vec<Side> = mode.each_side().collect();
        let at = sides.iter().position(|&s| s == ours).unwrap_or(0);
        sides.rotate_left(at);
        sides
    }

    /// "you and North", "West and East", "West".
    fn side_name(&self, side: Side) -> String {
        let mode = self.view.mode();
        let you = self.app.you();
        let mut seats: Vec<Seat> = mode
            .side_seats(side)
            .filter(|&s| mode.is_player(s))
            .collect();
        // The player first in their own side's name.
        seats.sort_by_key(|&s| s != you);
        let named: Vec<String> = seats.into_iter().map(|s| self.who(s)).collect();
        words::list(&named, "and")
    }

    /// `s`: each side's score and bags, and what ends the game.
    fn score(&self) -> String {
        let view = self.view;
        let rules = &view.rules;
        let named = !(self.brief() && view.mode().has_partners());
        let sides: Vec<String> = self
            .sides_from_yours()
            .into_iter()
            .map(|side| {
                let totals = view.totals[side];
                let points = words::points(totals.score);
                let bags = words::count(totals.bags.max(0) as usize, "bag");
                if named {
                    format!("{} {points}, {bags}", self.side_name(side))
                } else {
                    format!("{points}, {bags}")
                }
            })
            .collect();
        let course = match view.lives_left {
            Some(1) => "Quick Play: your last life".to_string(),
            Some(left) => format!("Quick Play: {left} of {} lives left", rules.game.lives),
            None if rules.is_quick() => "Quick Play".to_string(),
            None => format!("game to {}", rules.target_score),
        };
        if self.brief() {
            let course = course.replacen("game to", "to", 1);
            return format!("Score: {}; {course}.", sides.join("; "));
        }
        let mut line = format!(
            "{}. {}.",
            sentence_case(&sides.join("; ")),
            sentence_case(&course)
        );
        if self.full() {
            line.push_str(&format!(
                " Each {} bags cost {}.",
                rules.bags.limit, rules.bags.penalty
            ));
        }
        line
    }

    /// `g`: the cards played this hand, in every suit or in one, and the
    /// suits seats have shown out of.
    fn gone(&self, suit: Option<Suit>) -> String {
        let memory = Memory::of(self.view);
        let played = match suit {
            Some(suit) => memory.played_in(suit),
            None => memory.played,
        };
        let mut line = match (suit, played.is_empty()) {
            (Some(suit), true) => format!("No {} played yet.", suit.name()),
            (None, true) => "No card played yet this hand.".to_string(),
            (_, false) => format!("Played so far: {}.", words::by_suit(played, self.speech)),
        };
        let brief = self.brief();
        let voids: Vec<String> = self
            .view
            .mode()
            .each_seat()
            .filter_map(|seat| {
                let suits: Vec<String> = memory
                    .voids_of(seat, HAND_SUITS)
                    .into_iter()
                    .filter(|&s| suit.is_none_or(|asked| asked == s))
                    .map(|s| match (brief, self.speech.short_cards) {
                        (true, true) => s.letter().to_string(),
                        _ => s.name().to_string(),
                    })
                    .collect();
                if suits.is_empty() {
                    return None;
                }
                let who = self.who(seat);
                Some(if brief {
                    format!("{who} {}", suits.join(" "))
                } else {
                    let has = if seat == self.app.you() {
                        "have"
                    } else {
                        "has"
                    };
                    format!("{who} {has} shown out of {}", words::list(&suits, "and"))
                })
            })
            .collect();
        match (voids.is_empty(), brief) {
            (true, _) => {}
            (false, true) => line.push_str(&format!(" Out: {}.", voids.join("; "))),
            (false, false) => {
                line.push_str(&format!(" {}.", sentence_case(&voids.join("; "))));
            }
        }
        line
    }

    /// `r`: the rules in force, as a table's line says them, then the
    /// house rules as far as the line has room.
    fn rules(&self) -> String {
        let rules = &self.view.rules;
        let mut said = format!(
            "Rules: {}, {}.",
            rules.mode,
            config::in_a_line(rules).replace(" · ", ", ")
        );
        if self.brief() {
            return said;
        }
        // The house rules that fit, in order; a long one (a deck's
        // ranks) is left for those after it, and the line says how many
        // went unsaid. Room is kept for that.
        let house = config::house_rules(rules);
        let all = house
            .iter()
            .fold(said.clone(), |line, rule| format!("{line} {rule}."));
        if all.chars().count() <= LINE_MAX {
            return all;
        }
        let mut unsaid = 0;
        for rule in &house {
            let next = format!("{said} {rule}.");
            if next.chars().count() + UNSAID_ROOM > LINE_MAX {
                unsaid += 1;
            } else {
                said = next;
            }
        }
        let left = words::count(unsaid, "more house rule");
        said.push_str(&format!(" And {left}."));
        said
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_listed_is_a_question_and_words_are_not() {
        for (key, _) in Query::KEYS {
            assert!(Query::from_line(key).is_some(), "{key}");
        }
        assert_eq!(
            Query::from_line(" g H "),
            Some(Query::Gone(Some(Suit::Hearts)))
        );
        for word in [
            "bid 4", "nil", "look", "play qh", "hint", "quit", "h", "?", "",
        ] {
            assert_eq!(Query::from_line(word), None, "{word}");
        }
    }
}
