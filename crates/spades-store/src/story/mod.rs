//! A game told step by step, for the replay viewer and the review of a
//! finished hand: each hand's cards as dealt, then every bid, the blind-nil
//! exchange, every card and the score, with the table as it stood after
//! each. Where each side's contract was made or set, and where a nil was
//! broken, is marked at its trick.
//!
//! Nothing here knows the rules. The cards are played through the engine's
//! `HandState`, which says who wins each trick (and must agree with the
//! events); bids and scores are the ones the engine reported; a contract is
//! the engine's `Contract`. A story comes either from a game record,
//! walked through the engine (`record::walk`), or from what one seat was
//! told of a hand (`SeatEvent`s) once the hand is over and every card is
//! known.

use crate::engine::Teams;
use crate::engine::auction::declarer_of;
use crate::engine::score::side_contract;
use crate::engine::{
    Bid, Card, CardSet, Event, HandResult, HandState, Mode, PerSeat, PerSide, Rules, Seat,
    SeatEvent, Side, SideTotals, TrickDone,
};
use crate::record::{self, RecordError, RecordedGame};

/// A game, or one hand of it, told step by step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Story {
    pub rules: Rules,
    /// One name per seat.
    pub names: Vec<String>,
    /// The seat of the person who played, when one did.
    pub player: Option<Seat>,
    pub hands: Vec<HandStory>,
    /// Every step, hand after hand.
    pub steps: Vec<Step>,
    /// The winning side and every side's final score, when the story
    /// reaches the end of the game.
    pub end: Option<(Side, Vec<i32>)>,
}

/// One hand from the deal to the score.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandStory {
    /// The hand's number in the game, from 1.
    pub hand: u32,
    pub dealer: Seat,
    /// Each seat's cards when the hand began. A seat whose exchange the
    /// story could not see (a review from a seat that was not part of it)
    /// has the cards it played with instead.
    pub dealt: PerSeat<CardSet>,
    /// The card out of play (cutthroat); empty otherwise.
    pub out: CardSet,
    /// The bids in the order they were made.
    pub bids: Vec<(Seat, Bid)>,
    /// The blind-nil exchange, one pass per direction.
    pub passes: Vec<Pass>,
    /// The tricks played, in order, as the engine completed them.
    pub tricks: Vec<TrickDone>,
    /// The hand as the engine scored it; `None` when the story stops first
    /// (a record cut short, or a game left mid-hand).
    pub result: Option<HandResult>,
    /// Every side's totals when the hand began.
    pub before: PerSide<SideTotals>,
    /// Where contracts were made or set and nils broken, trick by trick.
    pub marks: Vec<Mark>,
    /// The index of the hand's first step in `Story::steps`.
    pub first_step: usize,
    /// Who played with whom: with a dummy, its declarer once the bidding
    /// is over.
    pub teams: Teams,
}

/// Cards passed after a blind nil.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pass {
    pub from: Seat,
    pub to: Seat,
    /// `None` when the seat telling the story was not told them.
    pub cards: Option<CardSet>,
}

/// Something decided at a trick.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mark {
    /// The trick, from 1.
    pub trick: usize,
    pub side: Side,
    pub what: Reached,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reached {
    /// The side's numeric bidders have taken the tricks they bid.
    Made { bid: u8 },
    /// They can no longer take them: fewer tricks are left than they need.
    Set { bid: u8, taken: u8, left: u8 },
    /// A nil (or blind nil) bidder took a trick.
    NilBroken { seat: Seat },
}

/// What happened at a step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StepEvent {
    /// The hand is dealt: every hand as dealt, no bids yet.
    Dealt,
    Bid {
        seat: Seat,
        bid: Bid,
    },
    /// The blind-nil exchange: both directions at once.
    Exchange,
    Play {
        seat: Seat,
        card: Card,
        /// The trick's number when this card completed it.
        completes: Option<usize>,
    },
    /// The hand is scored.
    Scored,
}

/// The table after a step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    /// Which hand of `Story::hands`.
    pub hand: usize,
    pub event: StepEvent,
    /// The cards each seat holds.
    pub held: PerSeat<CardSet>,
    pub bids: PerSeat<Option<Bid>>,
    /// The cards on the table: the trick in play, or the one this step
    /// completed.
    pub table: PerSeat<Option<Card>>,
    /// Who is winning the trick on the table (its winner once complete).
    pub winning: Option<Seat>,
    pub tricks_won: PerSeat<u8>,
    pub tricks_done: usize,
    pub spades_broken: bool,
    /// The seat whose bid or card comes next, as the story goes on.
    pub next: Option<Seat>,
    /// Every side's totals: before the hand, and after it once scored.
    pub totals: PerSide<SideTotals>,
}

impl Step {
    /// The first step of hand `index`: every hand as dealt, nothing bid or
    /// played yet, every side's totals as the hand began.
    fn dealt(index: usize, mode: Mode, facts: &HandFacts) -> Step {
        Step {
            hand: index,
            event: StepEvent::Dealt,
            held: facts.dealt,
            bids: PerSeat::filled(mode, None),
            table: PerSeat::filled(mode, None),
            winning: None,
            tricks_won: PerSeat::filled(mode, 0),
            tricks_done: 0,
            spades_broken: false,
            next: None,
            totals: facts.before,
        }
    }

    /// Is this a place to stop when going a trick at a time? The deal, the
    /// end of the bidding, the exchange, each completed trick and the score.
    pub fn is_stop(&self, next: Option<&Step>) -> bool {
        match self.event {
            StepEvent::Dealt | StepEvent::Exchange | StepEvent::Scored => true,
            StepEvent::Play { completes, .. } => completes.is_some(),
            StepEvent::Bid { .. } => {
                !matches!(next, Some(s) if s.hand == self.hand && matches!(s.event, StepEvent::Bid { .. }))
            }
        }
    }

    /// The seat that acted at this step.
    fn actor(&self) -> Option<Seat> {
        match self.event {
            StepEvent::Bid { seat, .. } | StepEvent::Play { seat, .. } => Some(seat),
            _ => None,
        }
    }
}

/// One hand's facts, as a record or a seat's events give them.
struct HandFacts {
    hand: u32,
    dealer: Seat,
    dealt: PerSeat<CardSet>,
    out: CardSet,
    bids: Vec<(Seat, Bid)>,
    passes: Vec<Pass>,
    plays: Vec<(Seat, Card)>,
    /// The winner of each trick, as the events said.
    winners: Vec<Seat>,
    result: Option<HandResult>,
    before: PerSide<SideTotals>,
}

impl HandFacts {
    fn new(mode: Mode, hand: u32, dealer: Seat, before: PerSide<SideTotals>) -> HandFacts {
        HandFacts {
            hand,
            dealer,
            dealt: PerSeat::filled(mode, CardSet::EMPTY),
            out: CardSet::EMPTY,
            bids: Vec::new(),
            passes: Vec::new(),
            plays: Vec::new(),
            winners: Vec::new(),
            result: None,
            before,
        }
    }
}

impl Story {
    fn new(rules: Rules, names: Vec<String>, player: Option<Seat>) -> Story {
        Story {
            rules,
            names,
            player,
            hands: Vec::new(),
            steps: Vec::new(),
            end: None,
        }
    }

    pub fn mode(&self) -> Mode {
        self.rules.mode
    }

    /// A recorded game, walked through the engine (`record::walk`): a
    /// record that does not replay is refused with the line at fault.
    pub fn from_record(recorded: &RecordedGame) -> Result<Story, RecordError> {
        let header = &recorded.header;
        let rules = header.rules;
        let mode = rules.mode;
        let mut story = Story::new(rules, header.names.clone(), header.info.player_seat);
        // Each hand's facts with the line of its deal.
        let mut hands: Vec<(usize, HandFacts)> = Vec::new();
        let replayed = record::walk(recorded, |at| {
            let facts = hands.last_mut().map(|(_, facts)| facts);
            match (at.event, facts) {
                (
                    Event::Deal {
                        hand: no,
                        dealer,
                        hands: dealt,
                        out,
                    },
                    _,
                ) => {
                    let before = *at.game.totals();
                    let mut facts = HandFacts::new(mode, *no, *dealer, before);
                    facts.dealt = PerSeat::from_fn(mode, |s| dealt[s.index()]);
                    facts.out = *out;
                    hands.push((at.line, facts));
                }
                (Event::Bid { seat, bid, .. }, Some(facts)) => facts.bids.push((*seat, *bid)),
                (
                    Event::Exchange {
                        from, to, cards, ..
                    },
                    Some(facts),
                ) => facts.passes.push(Pass {
                    from: *from,
                    to: *to,
                    cards: Some(*cards),
                }),
                (Event::Play { seat, card, .. }, Some(facts)) => {
                    facts.plays.push((*seat, *card));
                }
                (Event::Trick { winner, .. }, Some(facts)) => facts.winners.push(*winner),
                (Event::End { winner, scores }, _) => story.end = Some((*winner, scores.clone())),
                _ => {}
            }
            Ok::<(), RecordError>(())
        })?;
        // A hand not scored (the last) keeps the totals it was dealt at.
        let results = replayed.game.results();
        let limit = rules.bags.limit;
        for (line, mut facts) in hands {
            facts.result = results.iter().find(|r| r.hand == facts.hand).cloned();
            if let Some(result) = &facts.result {
                facts.before = result.sides.map(|s| s.totals_before(limit));
            }
            story
                .tell(facts)
                .map_err(|message| RecordError { line, message })?;
        }
        Ok(story)
    }

    /// One finished hand as `seat` was told it, with the engine's result.
    /// Once a hand is over every card has been played, so each seat's
    /// cards are the ones it played (and in cutthroat the card out is the
    /// one nobody played); the hand as dealt follows from the exchange,
    /// where the seat saw it.
    pub fn of_hand(
        rules: Rules,
        names: Vec<String>,
        seat: Seat,
        events: &[SeatEvent],
        result: &HandResult,
    ) -> Result<Story, String> {
        let mode = rules.mode;
        let no = result.hand;
        let before = result.sides.map(|s| s.totals_before(rules.bags.limit));
        let mut facts = HandFacts::new(mode, no, result.dealer, before);
        facts.result = Some(result.clone());
        let mut held = PerSeat::filled(mode, CardSet::EMPTY);
        for event in events {
            match *event {
                SeatEvent::Dealt { hand, dealer } if hand == no => facts.dealer = dealer,
                SeatEvent::Bid { hand, seat, bid } if hand == no => facts.bids.push((seat, bid)),
                SeatEvent::Exchange {
                    hand,
                    from,
                    to,
                    cards,
                } if hand == no => facts.passes.push(Pass { from, to, cards }),
                SeatEvent::Play { hand, seat, card } if hand == no => {
                    held[seat].insert(card);
                    facts.plays.push((seat, card));
                }
                SeatEvent::Trick { hand, winner, .. } if hand == no => facts.winners.push(winner),
                _ => {}
            }
        }
        if facts.plays.len() != mode.seats() * mode.hand_size() {
            return Err(format!(
                "hand {no} is not over: {} cards were played",
                facts.plays.len()
            ));
        }
        let mut dealt = held;
        for pass in &facts.passes {
            if let Some(cards) = pass.cards {
                dealt[pass.from] |= cards;
                dealt[pass.to] = dealt[pass.to].minus(cards);
            }
        }
        facts.dealt = dealt;
        facts.out = held.iter().fold(rules.deck(), |left, &h| left.minus(h));
        let mut story = Story::new(rules, names, Some(seat));
        story.tell(facts)?;
        Ok(story)
    }

    /// Plays one hand's facts through the engine, step by step.
    fn tell(&mut self, facts: HandFacts) -> Result<(), String> {
        let mode = self.rules.mode;
        let first_step = self.steps.len();
        let mut step = Step::dealt(self.hands.len(), mode, &facts);
        self.steps.push(step);
        self.tell_bidding(&mut step, &facts);
        let (play, tricks) = self.tell_play(&mut step, &facts)?;
        if let Some(result) = &facts.result {
            self.tell_score(&mut step, &play, result, facts.hand)?;
        }
        self.link_next(first_step);
        let bids = step.bids;
        let teams = Teams::new(mode, declarer_of(mode, facts.dealer, &bids));
        self.hands.push(HandStory {
            hand: facts.hand,
            dealer: facts.dealer,
            dealt: facts.dealt,
            out: facts.out,
            bids: facts.bids,
            passes: facts.passes,
            marks: marks(&self.rules, teams, &bids, &tricks),
            tricks,
            result: facts.result,
            before: facts.before,
            first_step,
            teams,
        });
        Ok(())
    }

    /// A step for each bid, then one for the blind-nil exchange when there
    /// was one.
    fn tell_bidding(&mut self, step: &mut Step, facts: &HandFacts) {
        for &(seat, bid) in &facts.bids {
            step.bids[seat] = Some(bid);
            step.event = StepEvent::Bid { seat, bid };
            self.steps.push(*step);
        }
        if !facts.passes.is_empty() {
            // Each gives from the hand it was dealt, both at once.
            for pass in &facts.passes {
                if let Some(cards) = pass.cards {
                    step.held[pass.from] = step.held[pass.from].minus(cards);
                    step.held[pass.to] |= cards;
                }
            }
            step.event = StepEvent::Exchange;
            self.steps.push(*step);
        }
    }

    /// A step for each card, played through the engine, which must find
    /// each card legal and each trick won by the seat the facts say. The
    /// hand as the cards leave it, and its tricks, for the score and the
    /// marks.
    fn tell_play(
        &mut self,
        step: &mut Step,
        facts: &HandFacts,
    ) -> Result<(HandState, Vec<TrickDone>), String> {
        let no = facts.hand;
        let leader = self.rules.mode.next_player(facts.dealer);
        let mut play = HandState::dealt(step.held, leader, self.rules.play);
        let mut tricks = Vec::new();
        for &(seat, card) in &facts.plays {
            let done = play_checked(&mut play, no, seat, card)?;
            if let Some(done) = done {
                tricks.push(done);
                let said = facts.winners.get(tricks.len() - 1);
                if said != Some(&done.winner) {
                    return Err(format!(
                        "hand {no}: trick {} is seat {}'s, not {said:?}",
                        tricks.len(),
                        done.winner
                    ));
                }
            }
            step.event = StepEvent::Play {
                seat,
                card,
                completes: done.map(|_| tricks.len()),
            };
            step.held = play.hands;
            step.table = done.map_or(play.trick_cards(), |d| d.cards);
            step.winning = done.map(|d| d.winner).or(play.winning());
            step.tricks_won = play.tricks_won();
            step.tricks_done = play.tricks_done();
            step.spades_broken = play.spades_broken();
            self.steps.push(*step);
        }
        Ok((play, tricks))
    }

    /// The step of the score, once the engine's count of the tricks agrees
    /// with the cards: every side's new totals, the table cleared.
    fn tell_score(
        &mut self,
        step: &mut Step,
        play: &HandState,
        result: &HandResult,
        no: u32,
    ) -> Result<(), String> {
        if !play.is_over() || result.tricks != play.tricks_won() {
            return Err(format!(
                "hand {no}: the score counts tricks {:?}, the cards {:?}",
                result.tricks,
                play.tricks_won()
            ));
        }
        step.event = StepEvent::Scored;
        step.table = PerSeat::filled(self.rules.mode, None);
        step.winning = None;
        step.totals = result.sides.map(|s| SideTotals {
            score: s.score,
            bags: s.bags,
        });
        self.steps.push(*step);
        Ok(())
    }

    /// Gives each step of the hand from `first_step` on its `next`: who
    /// acts next is who acts at the following step of the hand.
    fn link_next(&mut self, first_step: usize) {
        let mut next = None;
        for s in self.steps[first_step..].iter_mut().rev() {
            s.next = next;
            next = s.actor().or(next);
        }
    }

    /// The marks of a hand reached by a step: those of tricks done by then.
    pub fn marks_by(&self, step: usize) -> Vec<Mark> {
        let Some(s) = self.steps.get(step) else {
            return Vec::new();
        };
        self.hands[s.hand]
            .marks
            .iter()
            .copied()
            .filter(|m| m.trick <= s.tricks_done)
            .collect()
    }
}

/// Plays `card` from `seat` in hand `no`, when it is that seat's turn and
/// the engine finds the card legal; the trick it completes, if it does.
fn play_checked(
    play: &mut HandState,
    no: u32,
    seat: Seat,
    card: Card,
) -> Result<Option<TrickDone>, String> {
    if play.turn() != seat {
        return Err(format!(
            "hand {no}: seat {seat} played the {card} when seat {} was to play",
            play.turn()
        ));
    }
    if let Some(error) = play.check(card) {
        return Err(format!("hand {no}: seat {seat} played the {card}: {error}"));
    }
    Ok(play.play_unchecked(card))
}

/// Where each side's contract was made or became impossible, and where each
/// nil was broken, from the bids and the tricks in order, contracts
/// counted as `rules` count them.
pub fn marks(
    rules: &Rules,
    teams: Teams,
    bids: &PerSeat<Option<Bid>>,
    tricks: &[TrickDone],
) -> Vec<Mark> {
    let mode = teams.mode();
    let total = mode.hand_size();
    let mut won = PerSeat::filled(mode, 0u8);
    let mut decided = PerSide::filled(mode, false);
    let mut marks = Vec::new();
    for (i, trick) in tricks.iter().enumerate() {
        let k = i + 1;
        let winner = trick.winner;
        won[winner] += 1;
        if won[winner] == 1 && bids[winner].is_some_and(Bid::is_nil) {
            marks.push(Mark {
                trick: k,
                side: teams.scoring_side(winner),
                what: Reached::NilBroken { seat: winner },
            });
        }
        let left = total.saturating_sub(k);
        for side in mode.each_side() {
            if decided[side] {
                continue;
            }
            let Some(contract) = side_contract(rules, teams, side, bids, &won) else {
                continue;
            };
            let what = if contract.need() == 0 {
                Reached::Made { bid: contract.bid }
            } else if usize::from(contract.need()) > left {
                Reached::Set {
                    bid: contract.bid,
                    taken: contract.taken,
                    left: left as u8,
                }
            } else {
                continue;
            };
            decided[side] = true;
            marks.push(Mark {
                trick: k,
                side,
                what,
            });
        }
    }
    marks
}

#[cfg(test)]
mod tests;
