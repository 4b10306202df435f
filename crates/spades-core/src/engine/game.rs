//! A whole game: hands dealt, bid, exchanged, played and scored until a side
//! wins. Every change goes through `Game::apply`, which checks the rules and
//! reports what happened as events.

use std::collections::VecDeque;

use super::auction::Auction;
use super::bid::Bid;
use super::card::Card;
use super::cards::CardSet;
use super::deal::{Deal, first_dealer};
use super::event::{Event, SideRecord};
use super::play::{HandState, TrickDone};
use super::quick;
use super::rules::Rules;
use super::score::{SideTotals, boston_winner, deficit, game_end, score_dummy_hand, score_hand};
use super::seat::{Mode, PerSeat, PerSide, Seat, Side, Teams};
use super::view::{ExchangeView, PlayerView, PublicView, Shown};

pub use super::score::HandResult;
pub use super::turn::{Action, Decision, Phase, RuleError, Turn};

#[derive(Debug, Clone)]
enum DealSource {
    Seeded(u64),
    Given(VecDeque<Deal>),
}

/// A whole game of Spades: the deal from a seed, the auction, the tricks and the
/// score, hand after hand, until a side wins. It holds every card: give a seat
/// only its `PlayerView` (`Game::view`).
#[derive(Debug, Clone)]
pub struct Game {
    rules: Rules,
    deals: DealSource,
    hand_no: u32,
    dealer: Seat,
    dealt: Deal,
    phase: Phase,
    auction: Auction,
    /// Seat -> partner it owes exchange cards to, this hand.
    exchange_with: PerSeat<Option<Seat>>,
    /// How many cards each seat passes (the blind-nil exchange or the nil pass).
    exchange_count: PerSeat<u8>,
    exchange_given: PerSeat<Option<CardSet>>,
    play: HandState,
    tricks: Vec<TrickDone>,
    totals: PerSide<SideTotals>,
    results: Vec<HandResult>,
    winner: Option<Side>,
}

impl Game {
    /// A new game whose deals (and first dealer) come from `seed`.
    pub fn new(rules: Rules, seed: u64) -> Game {
        let dealer = first_dealer(seed, rules.mode);
        Game::start(rules, DealSource::Seeded(seed), dealer)
    }

    /// A game played on given deals, for replaying a record.
    pub fn with_deals(rules: Rules, first_dealer: Seat, deals: Vec<Deal>) -> Game {
        Game::start(rules, DealSource::Given(deals.into()), first_dealer)
    }

    fn start(rules: Rules, deals: DealSource, dealer: Seat) -> Game {
        let mode = rules.mode;
        let dealer = mode.after(dealer, 0);
        // The dummy never deals: a record naming it is read as the next player.
        let dealer = if mode.is_player(dealer) {
            dealer
        } else {
            mode.next_player(dealer)
        };
        let no_cards = PerSeat::filled(mode, CardSet::EMPTY);
        let mut game = Game {
            rules,
            deals,
            hand_no: 0,
            dealer,
            dealt: Deal {
                hands: no_cards,
                out: CardSet::EMPTY,
            },
            phase: Phase::AwaitingDeal,
            auction: Auction::new(rules, dealer, PerSide::filled(mode, 0)),
            exchange_with: PerSeat::filled(mode, None),
            exchange_count: PerSeat::filled(mode, 0),
            exchange_given: PerSeat::filled(mode, None),
            play: HandState::new(no_cards, dealer),
            tricks: Vec::with_capacity(17),
            totals: PerSide::filled(mode, SideTotals::default()),
            results: Vec::new(),
            winner: None,
        };
        game.deal_next();
        game
    }

    /// Deals hand `hand_no + 1` with the current dealer.
    fn deal_next(&mut self) -> bool {
        let mode = self.rules.mode;
        let hand = self.hand_no + 1;
        let deal = match &mut self.deals {
            DealSource::Seeded(seed) => Some(Deal::from_seed_in(
                self.rules.deck.jokers,
                *seed,
                hand,
                mode,
                self.dealer,
            )),
            DealSource::Given(deals) => deals.pop_front(),
        };
        let Some(deal) = deal else {
            self.phase = Phase::AwaitingDeal;
            return false;
        };
        self.hand_no = hand;
        self.dealt = deal;
        let scores = self.totals.map(|t| t.score);
        let deficits = PerSide::from_fn(mode, |side| deficit(mode, &scores, side));
        self.auction = Auction::new(self.rules, self.dealer, deficits);
        self.auction.deal(&deal.hands);
        self.exchange_with = PerSeat::filled(mode, None);
        self.exchange_count = PerSeat::filled(mode, 0);
        self.exchange_given = PerSeat::filled(mode, None);
        // Who leads is settled when the play begins: under two_of_clubs it
        // would tell the bidders where the lowest club lies.
        self.play =
            HandState::new(deal.hands, mode.next_player(self.dealer)).under(self.rules.play);
        self.tricks.clear();
        self.phase = Phase::Bidding;
        true
    }

    /// The rules the game is played under.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The table's mode.
    pub fn mode(&self) -> Mode {
        self.rules.mode
    }

    /// The seed the hands are dealt from; `None` for deals given whole.
    pub fn seed(&self) -> Option<u64> {
        match self.deals {
            DealSource::Seeded(seed) => Some(seed),
            DealSource::Given(_) => None,
        }
    }

    /// Where the game stands.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The latest hand dealt, from 1 (0 before the first deal).
    pub fn hand_no(&self) -> u32 {
        self.hand_no
    }

    /// This hand's dealer.
    pub fn dealer(&self) -> Seat {
        self.dealer
    }

    /// The cards as dealt this hand (before any exchange).
    pub fn dealt(&self) -> &Deal {
        &self.dealt
    }

    /// This hand's bidding.
    pub fn auction(&self) -> &Auction {
        &self.auction
    }

    /// This hand's play: the hands left, the trick, the tricks won.
    pub fn hand_state(&self) -> &HandState {
        &self.play
    }

    /// Who plays with whom this hand (with a dummy: once the bids are in).
    pub fn teams(&self) -> Teams {
        Teams::new(self.rules.mode, self.auction.declarer())
    }

    /// The other hand `seat` may see now, if any. With a dummy: the
    /// declarer sees the dummy's cards from the end of the bidding (it
    /// picks them up), everyone else from the opening lead on (they lie
    /// face up); and the dummy's seat, played by the declarer, sees the
    /// declarer's cards.
    pub fn shown(&self, seat: Seat) -> Option<Shown> {
        let dummy = self.rules.mode.dummy()?;
        let declarer = self.auction.declarer()?;
        if !matches!(
            self.phase,
            Phase::Playing | Phase::AwaitingDeal | Phase::Over
        ) {
            return None;
        }
        let opened = self.play.played() != super::cards::CardSet::EMPTY || self.play.is_over();
        let of = if seat == dummy {
            declarer
        } else if seat == declarer || opened {
            dummy
        } else {
            return None;
        };
        Some(Shown {
            seat: of,
            cards: self.play.hands[of],
        })
    }

    /// Each side's score and bags.
    pub fn totals(&self) -> &PerSide<SideTotals> {
        &self.totals
    }

    /// Each side's score, in side order.
    pub fn scores(&self) -> Vec<i32> {
        self.totals.iter().map(|t| t.score).collect()
    }

    /// Every hand scored so far, in order.
    pub fn results(&self) -> &[HandResult] {
        &self.results
    }

    /// The side that won, once the game is over.
    pub fn winner(&self) -> Option<Side> {
        self.winner
    }

    /// Quick Play: the player's side's lives left (`None` in a game to a
    /// target).
    pub fn lives_left(&self) -> Option<u8> {
        let start = self.rules.is_quick().then_some(self.rules.game.lives);
        self.results.last().map_or(start, |last| last.lives_left)
    }

    /// The event that opens the current hand, for a record's writer.
    pub fn deal_event(&self) -> Event {
        Event::Deal {
            hand: self.hand_no,
            dealer: self.dealer,
            hands: self.dealt.hands.to_vec(),
            out: self.dealt.out,
        }
    }

    /// Who must act next, and how. During the exchange several seats owe
    /// cards at once; this names the first of them.
    pub fn to_act(&self) -> Option<Turn> {
        let (seat, decision) = match self.phase {
            Phase::Bidding => {
                let seat = self.auction.next_bidder()?;
                let decision = if self.auction.cards_hidden(seat) {
                    Decision::BlindNil
                } else {
                    Decision::Bid
                };
                (seat, decision)
            }
            Phase::Exchange => (self.owes_exchange_first()?, Decision::Exchange),
            Phase::Playing => (self.play.turn(), Decision::Play),
            Phase::AwaitingDeal | Phase::Over => return None,
        };
        Some(Turn { seat, decision })
    }

    /// Does `seat` still owe exchange cards?
    pub fn owes_exchange(&self, seat: Seat) -> bool {
        self.phase == Phase::Exchange
            && self.exchange_with[seat].is_some()
            && self.exchange_given[seat].is_none()
    }

    fn owes_exchange_first(&self) -> Option<Seat> {
        self.rules.mode.each_seat().find(|&s| self.owes_exchange(s))
    }

    /// What `seat` may know now, and nothing more.
    pub fn view(&self, seat: Seat) -> PlayerView {
        let hand = match self.phase {
            // Nobody holds the dummy's cards until there is a declarer.
            _ if !self.rules.mode.is_player(seat) && self.auction.declarer().is_none() => None,
            Phase::Bidding if self.auction.cards_hidden(seat) => None,
            Phase::Bidding | Phase::Exchange => Some(self.dealt.hands[seat]),
            _ => Some(self.play.hands[seat]),
        };
        let exchange = self.exchange_with[seat].map(|partner| ExchangeView {
            partner,
            count: self.exchange_count[seat],
            given: self.exchange_given[seat],
            received: match self.phase {
                Phase::Exchange => None,
                _ => self.exchange_given[partner],
            },
        });
        PlayerView {
            seat,
            rules: self.rules,
            hand_no: self.hand_no,
            dealer: self.dealer,
            phase: self.phase,
            turn: self.to_act().map(|t| t.seat),
            hand,
            shown: self.shown(seat),
            auction: self.auction.seen_by(seat),
            exchange,
            play: self.play.public(),
            tricks: self.tricks.clone(),
            totals: self.totals,
            last_hand: self.results.last().cloned(),
            winner: self.winner,
            lives_left: self.lives_left(),
        }
    }

    /// What anyone may know now, a spectator of the table.
    pub fn public_view(&self) -> PublicView {
        self.view(Seat::new(0)).public()
    }

    /// Checks `action` by `seat` against the rules and carries it out,
    /// returning what happened.
    pub fn apply(&mut self, seat: Seat, action: Action) -> Result<Vec<Event>, RuleError> {
        if !self.rules.mode.has_seat(seat) {
            return Err(RuleError::NoSuchSeat(seat));
        }
        let mut events = Vec::new();
        match (self.phase, action) {
            (Phase::Bidding, Action::Look) => {
                if self.auction.bids()[seat].is_none() {
                    self.auction.look(seat);
                }
            }
            (Phase::Bidding, Action::Bid(bid)) => {
                self.bid(seat, bid, &mut events)?;
            }
            (Phase::Exchange, Action::Exchange(cards)) => {
                self.exchange(seat, cards, &mut events)?
            }
            (Phase::Playing, Action::Play(card)) => self.play_card(seat, card, &mut events)?,
            (phase, action) => {
                let action = match action {
                    Action::Look => "look at your cards",
                    Action::Bid(_) => "bid",
                    Action::Exchange(_) => "pass cards",
                    Action::Play(_) => "play a card",
                };
                return Err(RuleError::NotNow { action, phase });
            }
        }
        Ok(events)
    }

    fn check_turn(&self, seat: Seat) -> Result<(), RuleError> {
        match self.to_act() {
            Some(turn) if turn.seat == seat => Ok(()),
            Some(turn) => Err(RuleError::NotYourTurn { turn: turn.seat }),
            None => Err(RuleError::NotNow {
                action: "act",
                phase: self.phase,
            }),
        }
    }

    fn bid(&mut self, seat: Seat, bid: Bid, events: &mut Vec<Event>) -> Result<(), RuleError> {
        self.check_turn(seat)?;
        self.auction.check(seat, bid)?;
        self.auction.record(seat, bid);
        events.push(Event::Bid {
            hand: self.hand_no,
            seat,
            bid,
        });
        if self.auction.is_complete() {
            self.begin_exchange_or_play();
        }
        Ok(())
    }

    /// After the bids: partners swap cards as `Rules::swap_size` says (a
    /// lone blind nil's exchange, or the nil pass).
    fn begin_exchange_or_play(&mut self) {
        let mode = self.rules.mode;
        let bids = self.auction.bids();
        for seat in mode.each_seat() {
            let (Some(partner), Some(bid)) = (mode.partner(seat), bids[seat]) else {
                continue;
            };
            let count = self.rules.swap_size(bid, bids[partner].unwrap_or(Bid::Nil));
            if count > 0 {
                self.exchange_with[seat] = Some(partner);
                self.exchange_count[seat] = count;
            }
        }
        if self.exchange_with.iter().any(Option::is_some) {
            self.phase = Phase::Exchange;
        } else {
            self.begin_play(self.dealt.hands);
        }
    }

    /// The play begins with these hands, the seat the rules name leading.
    fn begin_play(&mut self, hands: PerSeat<CardSet>) {
        self.play = HandState::dealt(
            hands,
            self.rules.mode.next_player(self.dealer),
            self.rules.play,
        );
        self.phase = Phase::Playing;
    }

    fn exchange(
        &mut self,
        seat: Seat,
        cards: CardSet,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        if self.exchange_with[seat].is_none() {
            return Err(RuleError::NoExchange);
        }
        if self.exchange_given[seat].is_some() {
            return Err(RuleError::AlreadyExchanged);
        }
        let expected = self.exchange_count[seat];
        if cards.len() != u32::from(expected) {
            return Err(RuleError::ExchangeCount {
                expected,
                got: cards.len(),
            });
        }
        if let Some(missing) = cards.minus(self.dealt.hands[seat]).lowest() {
            return Err(RuleError::ExchangeNotHeld(missing));
        }
        self.exchange_given[seat] = Some(cards);
        if self.owes_exchange_first().is_some() {
            return Ok(());
        }
        // Both directions at once: each gives from the hand it was dealt.
        let mut hands = self.dealt.hands;
        for from in self.rules.mode.each_seat() {
            if let (Some(to), Some(given)) = (self.exchange_with[from], self.exchange_given[from]) {
                hands[from] = hands[from].minus(given);
                hands[to] |= given;
                events.push(Event::Exchange {
                    hand: self.hand_no,
                    from,
                    to,
                    cards: given,
                });
            }
        }
        self.begin_play(hands);
        Ok(())
    }

    fn play_card(
        &mut self,
        seat: Seat,
        card: Card,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        self.check_turn(seat)?;
        if let Some(err) = self.play.check(card) {
            return Err(err.into());
        }
        let hand = self.hand_no;
        let done = self.play.play_unchecked(card);
        events.push(Event::Play { hand, seat, card });
        if let Some(done) = done {
            self.tricks.push(done);
            events.push(Event::Trick {
                hand,
                trick: self.tricks.len() as u32,
                winner: done.winner,
            });
            if self.play.is_over() {
                self.finish_hand(events);
            }
        }
        Ok(())
    }

    fn finish_hand(&mut self, events: &mut Vec<Event>) {
        // The hand is over only once every player has bid.
        let declarer = self.auction.declarer();
        let mut bids = self.auction.bids().map(|b| b.unwrap_or(Bid::Nil));
        let tricks = self.play.tricks_won();
        let sides = match (declarer, self.rules.mode.dummy()) {
            (Some(declarer), Some(dummy)) => {
                bids[dummy] = bids[declarer];
                let bid = bids[declarer].tricks();
                score_dummy_hand(&self.rules, declarer, bid, &tricks, &self.totals)
            }
            _ => score_hand(&self.rules, &bids, &tricks, &self.totals),
        };
        self.totals = sides.map(|s| SideTotals {
            score: s.score,
            bags: s.bags,
        });
        let run_side = quick::run_side(self.rules.mode);
        let lives_left = self
            .lives_left()
            .map(|left| quick::lives_after(left, quick::lives_lost(&self.rules, &sides[run_side])));
        events.push(Event::Score {
            hand: self.hand_no,
            tricks: tricks.to_vec(),
            sides: sides.iter().map(SideRecord::from).collect(),
            lives: lives_left,
            declarer,
        });
        self.results.push(HandResult {
            hand: self.hand_no,
            dealer: self.dealer,
            bids,
            declarer,
            tricks,
            sides,
            lives_left,
        });
        let scores = self.scores();
        let winner = boston_winner(&self.rules, &sides)
            .or_else(|| game_end(&self.rules, &scores, self.hand_no, lives_left));
        if let Some(winner) = winner {
            self.winner = Some(winner);
            self.phase = Phase::Over;
            events.push(Event::End { winner, scores });
            return;
        }
        self.phase = Phase::AwaitingDeal;
    }

    /// Deals the next hand once the last one is over, returning its `deal`
    /// event; `None` when no hand is awaited (or given deals ran out).
    pub fn deal_next_hand(&mut self) -> Option<Event> {
        if self.phase != Phase::AwaitingDeal {
            return None;
        }
        // The deal passes to the left.
        let dealer = self.dealer;
        self.dealer = self.rules.mode.next_player(dealer);
        if !self.deal_next() {
            self.dealer = dealer;
            return None;
        }
        Some(self.deal_event())
    }
}
