//! What happens at the table, said in short sentences: the deal, each bid
//! and card, who won the trick and the tricks so far, the hand's score,
//! the game's end, and what the player is asked now. The wording follows
//! the verbosity: brief ("West: queen of hearts."), normal ("West plays
//! the queen of hearts.") or full (normal, and who leads). Nothing here
//! decides anything: it words the events the table told and the engine's
//! own figures.

use crate::config::preferences::Verbosity;
use crate::engine::{
    Bid, Card, CardSet, Decision, HandResult, Mode, PerSeat, PerSide, PlayerView, PublicPlay,
    Rules, Seat, SeatEvent, Side, SideTotals,
};
use crate::naming::Names;

use super::super::summary::hand_summary;
use super::{LINE_MAX, Speech, words};

/// Says a game's events as the player's seat was told them, keeping the
/// little it needs between them: the trick's cards, to name the winning
/// one, and the tricks each seat took this hand.
pub struct Teller {
    pub speech: Speech,
    names: Names,
    /// The player's seat; `None` for a spectator, who sits nowhere.
    you: Option<Seat>,
    mode: Mode,
    trick: PerSeat<Option<Card>>,
    taken: PerSeat<u8>,
}

impl Teller {
    pub fn new(speech: Speech, names: Names, you: Seat, mode: Mode) -> Teller {
        Teller {
            you: Some(you),
            ..Teller::spectator(speech, names, mode)
        }
    }

    /// The teller of a table watched from no seat: every seat by its name.
    pub fn spectator(speech: Speech, names: Names, mode: Mode) -> Teller {
        Teller {
            speech,
            names,
            you: None,
            mode,
            trick: PerSeat::filled(mode, None),
            taken: PerSeat::filled(mode, 0),
        }
    }

    fn brief(&self) -> bool {
        self.speech.verbosity == Verbosity::Brief
    }

    /// A seat as a sentence's subject: "You", "West".
    pub fn who(&self, seat: Seat) -> String {
        if Some(seat) == self.you {
            "You".to_string()
        } else {
            self.names.seat(seat).to_string()
        }
    }

    /// A seat with its verb agreeing: "You play", "West plays".
    fn does(&self, seat: Seat, verb: &str) -> String {
        if Some(seat) == self.you {
            format!("You {verb}")
        } else {
            // "plays", "passes".
            let ending = if verb.ends_with('s') { "es" } else { "s" };
            format!("{} {verb}{ending}", self.names.seat(seat))
        }
    }

    /// A card as a sentence's object: "the queen of hearts", or "QH".
    fn the(&self, card: Card) -> String {
        let named = words::card(card, &self.speech);
        if self.speech.short_cards {
            named
        } else {
            format!("the {named}")
        }
    }

    /// Where the tally of a hand in progress starts, when the game is
    /// taken up in the middle of one.
    pub fn start_from(&mut self, play: &PublicPlay) {
        self.taken = play.tricks_won;
        self.trick = play.trick;
    }

    /// The sentence for one event, if it has one. (`Dealt` is said by
    /// `deal`, with the cards.)
    pub fn event(&mut self, event: &SeatEvent) -> Option<String> {
        match *event {
            SeatEvent::Dealt { .. } => {
                self.trick = self.trick.map(|_| None);
                self.taken = self.taken.map(|_| 0);
                None
            }
            SeatEvent::Bid { seat, bid, .. } => Some(self.bid(seat, bid)),
            SeatEvent::Exchange {
                from, to, cards, ..
            } => self.exchange(from, to, cards),
            SeatEvent::Play { seat, card, .. } => {
                let leads = self.trick.iter().all(Option::is_none);
                self.trick[seat] = Some(card);
                Some(self.play(seat, card, leads))
            }
            SeatEvent::Trick { winner, .. } => {
                self.taken[winner] = self.taken[winner].saturating_add(1);
                let card = self.trick[winner];
                self.trick = self.trick.map(|_| None);
                Some(self.trick_won(winner, card))
            }
            // Said from the engine's result, with the summary.
            SeatEvent::Score { .. } => None,
            SeatEvent::End { winner, ref scores } => Some(self.end(winner, scores)),
        }
    }

    fn bid(&self, seat: Seat, bid: Bid) -> String {
        if self.brief() {
            format!("{}: {bid}.", self.who(seat))
        } else {
            format!("{} {bid}.", self.does(seat, "bid"))
        }
    }

    fn exchange(&self, from: Seat, to: Seat, cards: Option<CardSet>) -> Option<String> {
        // What the player was passed is the app's own notice.
        if Some(to) == self.you {
            return None;
        }
        Some(match cards {
            Some(cards) if Some(from) == self.you => format!(
                "You pass {} to {}.",
                words::cards(cards, &self.speech),
                self.names.seat(to)
            ),
            Some(cards) => format!(
                "{} {} to {}.",
                self.does(from, "pass"),
                words::count(cards.len() as usize, "card"),
                self.names.seat(to)
            ),
            None => format!(
                "{} cards to {}.",
                self.does(from, "pass"),
                self.names.seat(to)
            ),
        })
    }

    fn play(&self, seat: Seat, card: Card, leads: bool) -> String {
        match self.speech.verbosity {
            Verbosity::Brief => format!("{}: {}.", self.who(seat), words::card(card, &self.speech)),
            Verbosity::Full if leads => format!("{} {}.", self.does(seat, "lead"), self.the(card)),
            _ => format!("{} {}.", self.does(seat, "play"), self.the(card)),
        }
    }

    fn trick_won(&self, winner: Seat, card: Option<Card>) -> String {
        let tally = self.tally();
        if self.brief() {
            return format!(
                "{} {}. Tricks {tally}.",
                self.who(winner),
                wins(Some(winner) == self.you)
            );
        }
        let with = card.map_or(String::new(), |c| format!(" with {}", self.the(c)));
        let mut said = format!(
            "{} the trick{with}. Tricks: {tally}.",
            self.does(winner, "win")
        );
        if self.speech.verbosity == Verbosity::Full && self.taken.iter().sum::<u8>() > 0 {
            let next = if Some(winner) == self.you {
                "You lead next.".to_string()
            } else {
                format!("{} leads next.", self.names.seat(winner))
            };
            said = format!("{said} {next}");
        }
        said
    }

    /// The tricks so far, the player's side first: "you and North 3, East
    /// and West 2", or briefly "3 to 2".
    fn tally(&self) -> String {
        let sides = self.sides();
        if self.brief() && sides.len() == 2 {
            return format!("{} to {}", sides[0].1, sides[1].1);
        }
        sides
            .iter()
            .map(|(name, n)| format!("{name} {n}"))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Each side's name and tricks, the player's first.
    fn sides(&self) -> Vec<(String, u8)> {
        let yours = self.you.map(|you| self.mode.side_of(you));
        let mut sides: Vec<Side> = self.mode.each_side().collect();
        sides.sort_by_key(|&s| Some(s) != yours);
        sides
            .into_iter()
            .map(|side| {
                let seats: Vec<Seat> = self.mode.side_seats(side).collect();
                let name: Vec<String> = seats
                    .iter()
                    .map(|&s| {
                        if Some(s) == self.you {
                            "you".to_string()
                        } else {
                            self.names.seat(s).to_string()
                        }
                    })
                    .collect();
                let n = seats.iter().map(|&s| self.taken[s]).sum();
                (name.join(" and "), n)
            })
            .collect()
    }

    /// The deal: "Hand 3. You hold 13 cards: spades: ace, ten; ...", or
    /// while the cards lie face down, that they do.
    pub fn deal(&self, hand: u32, dealer: Seat, cards: Option<CardSet>) -> String {
        let deals = match self.speech.verbosity {
            Verbosity::Full if Some(dealer) == self.you => ", you deal".to_string(),
            Verbosity::Full => format!(", {} deals", self.names.seat(dealer)),
            _ => String::new(),
        };
        match (cards, self.brief()) {
            (Some(cards), true) => format!("Hand {hand}: {}.", words::by_suit(cards, &self.speech)),
            (Some(cards), false) => format!("Hand {hand}{deals}. {}", self.holding(cards)),
            (None, true) => format!("Hand {hand}: cards face down."),
            (None, false) => format!("Hand {hand}{deals}. Your cards are face down."),
        }
    }

    /// "You hold 13 cards: spades: ace, ten; hearts: queen."
    pub fn holding(&self, cards: CardSet) -> String {
        if self.brief() {
            return format!("You hold {}.", words::by_suit(cards, &self.speech));
        }
        format!(
            "You hold {}: {}.",
            words::count(cards.len() as usize, "card"),
            words::by_suit(cards, &self.speech)
        )
    }

    /// The game's end: "Game over. You and North win, 512 to 310."
    fn end(&self, winner: Side, scores: &[i32]) -> String {
        let yours = self.you.map(|you| self.mode.side_of(you).index());
        let mut order: Vec<usize> = (0..scores.len()).collect();
        order.sort_by_key(|&i| Some(i) != yours);
        let scores: Vec<String> = order.iter().map(|&i| scores[i].to_string()).collect();
        format!(
            "Game over. {}, {}.",
            self.winners(winner),
            scores.join(" to ")
        )
    }

    /// Who won, as a subject and its verb: "You and North win"; for a
    /// spectator each seat by its name ("Ann and Cy win", "Bo wins").
    fn winners(&self, side: Side) -> String {
        if self.you.is_some() {
            return self.names.winners(side);
        }
        let seats: Vec<&str> = self
            .mode
            .side_seats(side)
            .map(|s| self.names.seat(s))
            .collect();
        let verb = if seats.len() > 1 { "win" } else { "wins" };
        format!("{} {verb}", seats.join(" and "))
    }

    /// The names the seats are told by, when a spectator learns them late.
    pub fn rename(&mut self, names: Names) {
        self.names = names;
    }

    /// The hand's score, a line a side (its contract, nils, bags and
    /// penalties, and its new total), as the summary window words it; or
    /// briefly each side's total.
    pub fn score(
        &self,
        result: &HandResult,
        before: &PerSide<SideTotals>,
        rules: &Rules,
    ) -> Vec<String> {
        if self.brief() {
            let totals: Vec<String> = result
                .sides
                .pairs()
                .map(|(side, s)| format!("{} {}", self.names.side(side), s.score))
                .collect();
            return vec![format!(
                "Hand {} scored: {}.",
                result.hand,
                totals.join(", ")
            )];
        }
        let theme = self.speech.theme();
        let mut said = vec![format!("Hand {} scored.", result.hand)];
        for side in hand_summary(result, before, rules, &self.names, &theme) {
            let line = format!("{}: {}.", side.title, side.lines.join("; "));
            said.push(aloud(&line));
        }
        said
    }

    /// What the player is asked now, at their turn: the options with it.
    pub fn turn(&self, decision: Decision, view: &PlayerView) -> Vec<String> {
        let brief = self.brief();
        match decision {
            Decision::BlindNil => {
                let mut options = words::bid_runs(&view.blind_bids());
                options.push("look".to_string());
                let options = words::list(&options, "or");
                vec![if brief {
                    format!("Cards face down: {options}?")
                } else {
                    format!("Your turn. Your cards are face down: say {options}.")
                }]
            }
            Decision::Bid => {
                let options = words::bids(&view.allowed_bids());
                vec![if brief {
                    format!("Bid: {options}.")
                } else {
                    format!("Your turn to bid: {options}.")
                }]
            }
            Decision::Exchange => {
                let (count, partner) = view
                    .exchange
                    .map_or((0, view.seat), |e| (e.count, e.partner));
                let to = self.names.seat(partner);
                let cards = words::count(usize::from(count), "card");
                let ask = if brief {
                    format!("Pass {cards} to {to}.")
                } else {
                    format!(
                        "Your turn to pass {cards} to {to}: say pass and the cards, as pass 7c 3d."
                    )
                };
                vec![ask, self.holding(view.cards())]
            }
            Decision::Play => {
                let mut said = Vec::new();
                if self.speech.verbosity == Verbosity::Full {
                    said.extend(self.on_the_table(view));
                }
                said.push(self.may_play(view.legal_plays(), brief));
                said
            }
        }
    }

    /// "Your turn. You may play: queen of hearts, seven of hearts." (by
    /// suit when the list would be too long for a line).
    fn may_play(&self, legal: CardSet, brief: bool) -> String {
        let listed = words::cards(legal, &self.speech);
        let head = if brief {
            "Your turn:"
        } else {
            "Your turn. You may play:"
        };
        let line = format!("{head} {listed}.");
        if line.chars().count() <= LINE_MAX {
            return line;
        }
        format!("{head} {}.", words::by_suit(legal, &self.speech))
    }

    /// The trick so far, in play order: "On the table: West queen of
    /// hearts, North two of hearts."
    pub fn on_the_table(&self, view: &PlayerView) -> Option<String> {
        let mut seat = view.play.leader;
        let mut played = Vec::new();
        for _ in 0..self.mode.seats() {
            if let Some(card) = view.play.trick[seat] {
                played.push(format!(
                    "{} {}",
                    self.who(seat),
                    words::card(card, &self.speech)
                ));
            }
            seat = self.mode.next(seat);
        }
        (!played.is_empty()).then(|| format!("On the table: {}.", played.join(", ")))
    }
}

/// "wins", or "win" after "You".
fn wins(you: bool) -> &'static str {
    if you { "win" } else { "wins" }
}

/// A line drawn for the eye made to be read aloud: arrows and signs said
/// as words.
fn aloud(line: &str) -> String {
    line.replace(" -> ", " to ")
        .replace(" >= ", " at least ")
        .replace(" = ", " equals ")
        .replace(" + ", " plus ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::score::score_side;

    fn c(s: &str) -> Card {
        s.parse().unwrap()
    }

    fn teller(verbosity: Verbosity, short_cards: bool) -> Teller {
        let speech = Speech {
            verbosity,
            short_cards,
        };
        let names = Names::new(Mode::Partnership, "You");
        Teller::new(speech, names, Seat::new(0), Mode::Partnership)
    }

    const WEST: Seat = Seat::new(1);
    const NORTH: Seat = Seat::new(2);

    fn play(seat: Seat, card: &str) -> SeatEvent {
        SeatEvent::Play {
            hand: 1,
            seat,
            card: c(card),
        }
    }

    #[test]
    fn bids_and_cards_in_each_verbosity() {
        let bid = SeatEvent::Bid {
            hand: 1,
            seat: WEST,
            bid: Bid::Tricks(4),
        };
        let mine = SeatEvent::Bid {
            hand: 1,
            seat: Seat::new(0),
            bid: Bid::Nil,
        };
        let mut brief = teller(Verbosity::Brief, false);
        let mut normal = teller(Verbosity::Normal, false);
        let mut full = teller(Verbosity::Full, false);
        let mut short = teller(Verbosity::Brief, true);
        assert_eq!(brief.event(&bid).unwrap(), "West: 4.");
        assert_eq!(normal.event(&bid).unwrap(), "West bids 4.");
        assert_eq!(normal.event(&mine).unwrap(), "You bid nil.");
        assert_eq!(full.event(&bid).unwrap(), "West bids 4.");
        let card = play(WEST, "QH");
        assert_eq!(brief.event(&card).unwrap(), "West: queen of hearts.");
        assert_eq!(short.event(&card).unwrap(), "West: QH.");
        assert_eq!(
            normal.event(&card).unwrap(),
            "West plays the queen of hearts."
        );
        assert_eq!(
            full.event(&card).unwrap(),
            "West leads the queen of hearts."
        );
        let yours = play(Seat::new(0), "TH");
        assert_eq!(normal.event(&yours).unwrap(), "You play the ten of hearts.");
        assert_eq!(full.event(&yours).unwrap(), "You play the ten of hearts.");
    }

    #[test]
    fn passed_cards_are_said_to_those_who_see_them() {
        let two: CardSet = ["7C", "3D"].iter().map(|s| c(s)).collect();
        let pass = |from, to, cards| SeatEvent::Exchange {
            hand: 1,
            from,
            to,
            cards,
        };
        let you = Seat::new(0);
        let mut t = teller(Verbosity::Normal, false);
        assert_eq!(
            t.event(&pass(you, NORTH, Some(two))).unwrap(),
            "You pass seven of clubs, three of diamonds to North."
        );
        // What the player is passed, the app's own notice says.
        assert_eq!(t.event(&pass(NORTH, you, Some(two))), None);
        assert_eq!(
            t.event(&pass(WEST, Seat::new(3), None)).unwrap(),
            "West passes cards to East."
        );
        let mut short = teller(Verbosity::Brief, true);
        assert_eq!(
            short.event(&pass(you, NORTH, Some(two))).unwrap(),
            "You pass 7C 3D to North."
        );
    }

    #[test]
    fn a_trick_names_its_winner_card_and_the_tally() {
        let mut normal = teller(Verbosity::Normal, false);
        let mut brief = teller(Verbosity::Brief, false);
        let mut full = teller(Verbosity::Full, false);
        let won = SeatEvent::Trick {
            hand: 1,
            trick: 1,
            winner: NORTH,
        };
        for t in [&mut normal, &mut brief, &mut full] {
            for (seat, card) in [(1, "2S"), (2, "AS"), (3, "3S"), (0, "4S")] {
                t.event(&play(Seat::new(seat), card));
            }
        }
        assert_eq!(
            normal.event(&won).unwrap(),
            "North wins the trick with the ace of spades. Tricks: you and North 1, West and East 0."
        );
        assert_eq!(brief.event(&won).unwrap(), "North wins. Tricks 1 to 0.");
        assert!(full.event(&won).unwrap().ends_with("North leads next."));
        let dealt = SeatEvent::Dealt {
            hand: 2,
            dealer: WEST,
        };
        assert_eq!(normal.event(&dealt), None);
        normal.event(&play(WEST, "5D"));
        let again = normal.event(&SeatEvent::Trick {
            hand: 2,
            trick: 1,
            winner: WEST,
        });
        assert!(
            again
                .unwrap()
                .ends_with("you and North 0, West and East 1.")
        );
    }

    #[test]
    fn the_deal_and_the_end() {
        let hand: CardSet = ["AS", "TS", "4S", "QH"].iter().map(|s| c(s)).collect();
        let normal = teller(Verbosity::Normal, false);
        assert_eq!(
            normal.deal(3, WEST, Some(hand)),
            "Hand 3. You hold 4 cards: spades: ace, ten, four; hearts: queen."
        );
        assert_eq!(
            teller(Verbosity::Brief, true).deal(3, WEST, Some(hand)),
            "Hand 3: S: A 10 4; H: Q."
        );
        assert_eq!(
            teller(Verbosity::Full, false).deal(3, Seat::new(0), None),
            "Hand 3, you deal. Your cards are face down."
        );
        let mut t = teller(Verbosity::Normal, false);
        let end = SeatEvent::End {
            winner: Side::new(1),
            scores: vec![310, 512],
        };
        assert_eq!(
            t.event(&end).unwrap(),
            "Game over. West and East win, 310 to 512."
        );
    }

    #[test]
    fn a_hands_score_in_words_with_bags() {
        let rules = Rules::classic(Mode::Partnership);
        let before = PerSide::filled(rules.mode, SideTotals { score: 90, bags: 9 });
        let seat = Seat::new;
        // You bid 6 and took 8, North nil and took 1; West 3 and East 1
        // took 4 together.
        let ours = score_side(
            &rules,
            &[(seat(0), Bid::Tricks(6), 8), (seat(2), Bid::Nil, 1)],
            before[Side::new(0)],
        );
        let theirs = score_side(
            &rules,
            &[(seat(1), Bid::Tricks(3), 3), (seat(3), Bid::Tricks(1), 1)],
            before[Side::new(1)],
        );
        let result = HandResult {
            hand: 1,
            dealer: seat(3),
            bids: PerSeat::from_slice(&[Bid::Tricks(6), Bid::Tricks(3), Bid::Nil, Bid::Tricks(1)])
                .unwrap(),
            declarer: None,
            tricks: PerSeat::from_slice(&[8, 3, 1, 1]).unwrap(),
            sides: PerSide::from_slice(&[ours, theirs]).unwrap(),
            lives_left: None,
        };
        let normal = teller(Verbosity::Normal, false).score(&result, &before, &rules);
        assert_eq!(normal[0], "Hand 1 scored.");
        assert_eq!(normal.len(), 3);
        assert_eq!(
            normal[1],
            "Us (You & North): Nil (North): took 1 trick: -100; \
             Contract 6, took 8: 60 plus 2 bags equals 62; \
             Bags 9 plus 3 equals 12 at least 10: -100, 2 carried; Hand -138, score 90 to -48."
        );
        for line in &normal {
            assert!(
                !line.contains("->") && line.chars().count() <= LINE_MAX,
                "{line}"
            );
        }
        let brief = teller(Verbosity::Brief, false).score(&result, &before, &rules);
        assert_eq!(brief.len(), 1);
        assert_eq!(brief[0], "Hand 1 scored: Us -48, Them 130.");
    }

    #[test]
    fn prompts_list_the_options() {
        let t = teller(Verbosity::Normal, false);
        let legal: CardSet = ["QH", "7H"].iter().map(|s| c(s)).collect();
        assert_eq!(
            t.may_play(legal, false),
            "Your turn. You may play: queen of hearts, seven of hearts."
        );
        let short = teller(Verbosity::Brief, true);
        assert_eq!(short.may_play(legal, true), "Your turn: QH 7H.");
        // Thirteen cards in words would pass the line's limit: by suit.
        let all: CardSet = "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S"
            .split(' ')
            .map(c)
            .collect();
        let said = t.may_play(all, false);
        assert!(said.chars().count() <= LINE_MAX, "{said}");
        assert!(said.starts_with("Your turn. You may play: spades: ace, king"));
    }
}
