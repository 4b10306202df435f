//! Every reason's claim checked against the seat's view, over thousands of
//! positions of seeded games between `normal`, `easy` and `random` seats in
//! every mode: each phrase a reason may use names the facts it claims, and
//! each fact is checked here from the raw view, by checks of its own (not
//! `CardFacts`), so a wording chosen on a wrong fact fails.

use std::collections::BTreeMap;

use crate::bots::normal::{BidRule, Tuning, bid_and_rule, card_and_rule};
use rand::RngExt;

use crate::bots::{Bot, BotRng, Effort, Level, bot_rng, decide};
use crate::engine::play::{beats, trick_power};
use crate::engine::score::side_contract;
use crate::engine::{
    Action, Bid, Card, CardSet, Decision, Game, Mode, PlayerView, Rules, Seat, Suit,
};

use super::super::hard::Weighing;
use super::{Reason, reason};

/// A fact a reason may claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Claim {
    OnlyCard,
    /// The card takes the trick whatever the others hold.
    Winner,
    NotWinner,
    /// Every legal card is a winner.
    EveryWinner,
    TopLeft,
    NotTopLeft,
    EveryLegalTopLeft,
    /// The lowest of its suit held, and not the top card left.
    Low,
    Lowest,
    /// As high as the seat's highest of its suit.
    High,
    TopSpade,
    SpadesOut,
    NoSpadesOut,
    Beats,
    Loses,
    /// The lowest-playing legal card that beats the trick.
    Cheapest,
    /// The lowest-playing legal winner.
    CheapestWinner,
    /// The lowest-playing legal card.
    CheapestLegal,
    /// The highest legal card of the suit led that loses.
    HighestLoser,
    CanWin,
    NothingWins,
    EveryBeats,
    Ruff,
    SecondHand,
    ThirdHand,
    Last,
    NotLast,
    PartnerToPlay,
    PartnerWinning,
    PartnerHolds,
    PartnerVoid,
    PartnerMayRuff,
    PartnerNil,
    NilSafe,
    OwnNil,
    NilHunted,
    NilBidderWinning,
    NilBidderNotWinning,
    NilBidderToPlay,
    NilBidderNotVoid,
    Made,
    Lost,
    NoContract,
    SetOpen,
}

use Claim::*;

/// The phrases reasons use, and what each claims. Every reason must use
/// at least one, so a new wording cannot pass unread.
const PHRASES: &[(&str, &[Claim])] = &[
    ("only legal card", &[OnlyCard]),
    ("Cash your winner", &[Winner]),
    ("Lead a winner", &[Winner, PartnerToPlay]),
    ("A sure winner", &[Winner, TopLeft]),
    ("sure to win", &[CheapestWinner]),
    ("Win it before your partner plays", &[Winner, PartnerToPlay]),
    ("nil safe", &[NilSafe]),
    ("nil is safe", &[NilSafe]),
    ("Nil safe here", &[NilSafe]),
    ("top card left", &[TopLeft]),
    ("may be trumped", &[TopLeft, NotWinner]),
    ("only a trump beats it", &[TopLeft, NotWinner]),
    ("a higher card is out", &[NotTopLeft]),
    ("can lead is the top left", &[EveryLegalTopLeft]),
    ("low lead", &[Low]),
    ("lead low", &[Low]),
    ("Lead low", &[Low]),
    ("hand low", &[Low, PartnerToPlay]),
    ("Play low", &[Low, PartnerToPlay]),
    ("your lowest", &[Lowest]),
    ("Your lowest", &[Lowest]),
    ("Lead high", &[High]),
    ("Play high", &[High]),
    ("hand high", &[High]),
    ("top spade", &[TopSpade]),
    ("Draw their trumps", &[SpadesOut]),
    ("no spade is left", &[NoSpadesOut]),
    ("partner still plays", &[PartnerToPlay]),
    ("before your partner plays", &[PartnerToPlay]),
    ("partner can play under", &[PartnerToPlay]),
    ("partner plays under", &[PartnerToPlay]),
    ("Second hand", &[SecondHand]),
    ("Third hand", &[ThirdHand]),
    ("last to play", &[Last]),
    ("Last to play", &[Last]),
    ("the cheapest card that wins", &[Cheapest]),
    ("Win it cheaply", &[Cheapest]),
    ("cheapest card that beats theirs", &[Cheapest]),
    ("cheapest card likely", &[Beats]),
    ("best chance at the trick", &[Beats]),
    ("Likely to take the trick", &[Beats]),
    ("Little chance at the trick", &[CanWin]),
    ("Nothing wins it", &[NothingWins]),
    ("Trump it", &[Ruff, Beats]),
    ("Partner's card holds", &[PartnerHolds]),
    ("Partner is winning", &[PartnerWinning]),
    ("spend nothing", &[Loses]),
    ("beats your partner's", &[PartnerWinning, EveryBeats]),
    ("Overtake your partner", &[PartnerWinning, Beats]),
    ("duck to avoid", &[Loses]),
    ("Duck to avoid", &[Loses]),
    ("No card ducks it", &[EveryBeats]),
    ("Let it go", &[Loses]),
    ("still loses", &[Loses, HighestLoser]),
    ("while it cannot win", &[Loses]),
    ("Any card wins now", &[EveryBeats, NotLast]),
    ("Every card wins it, last", &[EveryBeats, Last]),
    ("Every card you can play wins it", &[EveryWinner, Lowest]),
    ("Every card beats it", &[EveryBeats, NotWinner]),
    ("This trick is lost", &[EveryBeats, Last, OwnNil]),
    ("For your nil", &[OwnNil]),
    ("Cover kept for the nil", &[PartnerNil]),
    ("Nil cover kept", &[PartnerNil]),
    ("Nil safe;", &[NilSafe]),
    ("Partner on nil", &[PartnerNil]),
    ("partner's nil", &[PartnerNil]),
    ("partner's void", &[PartnerVoid, PartnerMayRuff]),
    ("partner has shown out", &[PartnerVoid]),
    ("nil bidder's suit", &[NilHunted, NilBidderNotVoid]),
    (
        "nil bidder has not shown out",
        &[NilHunted, NilBidderNotVoid],
    ),
    ("Stay under the nil bidder", &[NilBidderWinning, Loses]),
    ("nil bidder is not winning", &[NilBidderNotWinning]),
    ("Keep the trick low", &[Loses, NilBidderToPlay]),
    (
        "as low as you can",
        &[EveryBeats, CheapestLegal, NilBidderToPlay],
    ),
    ("nil bidder may win", &[NilBidderToPlay]),
    ("contract is made", &[Made]),
    ("cannot be made", &[Lost]),
    ("No contract of yours", &[NoContract]),
    ("set them", &[SetOpen]),
];

/// What the view shows, worked out from the raw view.
struct Seen<'a> {
    view: &'a PlayerView,
    card: Card,
    /// Neither played nor in the seat's hand.
    out: CardSet,
    led: Suit,
    /// The card winning the trick before this one, if any.
    winning: Option<(Seat, Card)>,
}

impl Seen<'_> {
    fn void(&self, s: Seat, suit: Suit) -> bool {
        self.view.void_in(suit)[s]
    }

    fn power(&self, c: Card) -> u8 {
        trick_power(c, self.led as u8)
    }

    /// The other seats still to play to the trick.
    fn still_to_play(&self) -> Vec<Seat> {
        let v = self.view;
        v.mode()
            .each_seat()
            .filter(|&s| s != v.seat && v.play.trick[s].is_none())
            .collect()
    }

    fn opponent(&self, s: Seat) -> bool {
        s != self.view.seat && Some(s) != self.view.partner()
    }

    fn out_above(&self, c: Card) -> bool {
        self.out.iter().any(|o| higher(o, c))
    }

    fn beats_down(&self, c: Card) -> bool {
        self.winning.is_none_or(|(_, w)| beats(c, w))
    }

    /// No opponent still to play can beat `c`.
    fn unbeaten(&self, c: Card) -> bool {
        let v = self.view;
        let spades_out = self.out.iter().filter(|o| o.suit() == Suit::Spades).count();
        let trumping_allowed = v.rules.play.trump_first_trick
            || v.play.tricks_done > 0
            || spades_out >= v.mode().hand_size();
        self.still_to_play().into_iter().all(|s| {
            if !self.opponent(s) {
                return true;
            }
            let over = (c.suit() == self.led || c.suit() == Suit::Spades)
                && !self.void(s, c.suit())
                && self.out_above(c);
            let ruff = c.suit() == self.led
                && self.led != Suit::Spades
                && trumping_allowed
                && spades_out > 0
                && !self.void(s, Suit::Spades);
            let discard = c.suit() != self.led && c.suit() != Suit::Spades;
            !(over || ruff || discard)
        })
    }

    fn winner(&self, c: Card) -> bool {
        self.beats_down(c) && self.unbeaten(c)
    }

    fn legal(&self) -> CardSet {
        self.view.legal_plays()
    }

    fn held(&self, suit: Suit) -> impl Iterator<Item = Card> + '_ {
        self.view.cards().iter().filter(move |c| c.suit() == suit)
    }

    fn partner_live_nil(&self) -> bool {
        let v = self.view;
        v.partner()
            .is_some_and(|p| v.bids()[p].is_some_and(Bid::is_nil) && v.play.tricks_won[p] == 0)
    }

    /// An opponent bidding nil who has not taken a trick.
    fn hunted(&self) -> Option<Seat> {
        let v = self.view;
        v.mode().each_seat().find(|&s| {
            self.opponent(s) && v.bids()[s].is_some_and(Bid::is_nil) && v.play.tricks_won[s] == 0
        })
    }

    /// With the card down, the partner on nil cannot be made to win the
    /// trick (see `facts::nil_safe`).
    fn nil_safe(&self) -> bool {
        let v = self.view;
        let Some(p) = v.partner().filter(|_| self.partner_live_nil()) else {
            return false;
        };
        let (seat, w) = match self.winning {
            Some((s, w)) if !beats(self.card, w) => (s, w),
            _ => (v.seat, self.card),
        };
        if v.play.trick[p].is_some() {
            return seat != p;
        }
        self.void(p, self.led)
            || (w.suit() == Suit::Spades && self.led != Suit::Spades)
            || !self.out_above(w)
    }

    fn contract_need(&self) -> Option<(i32, i32)> {
        let v = self.view;
        let c = side_contract(&v.rules, v.teams(), v.side(), &v.bids(), &v.play.tricks_won)?;
        let left = (v.mode().hand_size() - v.play.tricks_done) as i32;
        Some((i32::from(c.bid) - i32::from(c.taken), left))
    }

    fn holds(&self, claim: Claim) -> bool {
        let v = self.view;
        let c = self.card;
        let legal = self.legal();
        let partner = v.partner();
        let down = v.play.trick.iter().flatten().count();
        match claim {
            OnlyCard => legal.len() == 1,
            Winner => self.winner(c),
            NotWinner => !self.winner(c),
            EveryWinner => legal.iter().all(|l| self.winner(l)),
            TopLeft => !self.out_above(c),
            NotTopLeft => self.out_above(c),
            EveryLegalTopLeft => legal.iter().all(|l| !self.out_above(l)),
            Low => self.holds(Lowest) && self.out_above(c),
            Lowest => !self.held(c.suit()).any(|h| higher(c, h)),
            High => {
                let top = self
                    .held(c.suit())
                    .find(|&h| !self.held(c.suit()).any(|o| higher(o, h)));
                let top = top.unwrap_or(c);
                !self.out.iter().any(|o| higher(o, c) && higher(top, o))
            }
            TopSpade => {
                c.suit() == Suit::Spades
                    && !self.out_above(c)
                    && !self.held(Suit::Spades).any(|h| higher(h, c))
            }
            SpadesOut => self.out.iter().any(|o| o.suit() == Suit::Spades),
            NoSpadesOut => !self.holds(SpadesOut),
            Beats => self.beats_down(c),
            Loses => !self.beats_down(c),
            Cheapest => {
                self.beats_down(c)
                    && legal
                        .iter()
                        .all(|l| !self.beats_down(l) || self.power(l) >= self.power(c))
            }
            CheapestWinner => {
                self.winner(c)
                    && legal
                        .iter()
                        .all(|l| !self.winner(l) || self.power(l) >= self.power(c))
            }
            CheapestLegal => legal.iter().all(|l| self.power(l) >= self.power(c)),
            HighestLoser => {
                !self.beats_down(c)
                    && c.suit() == self.led
                    && legal
                        .iter()
                        .all(|l| l.suit() != self.led || self.beats_down(l) || !higher(l, c))
            }
            CanWin => legal.iter().any(|l| self.beats_down(l)),
            NothingWins => !self.holds(CanWin),
            EveryBeats => legal.iter().all(|l| self.beats_down(l)),
            Ruff => c.suit() == Suit::Spades && self.led != Suit::Spades,
            SecondHand => down == 1,
            ThirdHand => down == 2,
            Last => self.still_to_play().is_empty(),
            NotLast => !self.holds(Last),
            PartnerToPlay => partner.is_some_and(|p| v.play.trick[p].is_none()),
            PartnerWinning => partner.is_some_and(|p| self.winning.is_some_and(|(s, _)| s == p)),
            PartnerHolds => {
                self.holds(PartnerWinning) && self.winning.is_some_and(|(_, w)| self.unbeaten(w))
            }
            PartnerVoid => partner.is_some_and(|p| self.void(p, c.suit())),
            PartnerMayRuff => partner.is_some_and(|p| {
                self.void(p, c.suit())
                    && c.suit() != Suit::Spades
                    && !self.void(p, Suit::Spades)
                    && self.holds(SpadesOut)
            }),
            PartnerNil => self.partner_live_nil(),
            NilSafe => self.nil_safe(),
            OwnNil => v.bids()[v.seat].is_some_and(Bid::is_nil),
            NilHunted => self.hunted().is_some(),
            NilBidderWinning => self
                .hunted()
                .is_some_and(|n| self.winning.is_some_and(|(s, _)| s == n)),
            NilBidderNotWinning => self
                .hunted()
                .is_some_and(|n| self.winning.is_none_or(|(s, _)| s != n)),
            NilBidderToPlay => self.hunted().is_some_and(|n| v.play.trick[n].is_none()),
            NilBidderNotVoid => self.hunted().is_some_and(|n| !self.void(n, c.suit())),
            Made => self.contract_need().is_some_and(|(need, _)| need <= 0),
            Lost => self.contract_need().is_some_and(|(need, left)| need > left),
            NoContract => self.contract_need().is_none(),
            SetOpen => {
                let mine = v.side();
                let partner_side = partner.map(|p| v.teams().scoring_side(p));
                v.mode().each_side().any(|side| {
                    side != mine
                        && Some(side) != partner_side
                        && side_contract(&v.rules, v.teams(), side, &v.bids(), &v.play.tricks_won)
                            .is_some_and(|k| k.need() > 0)
                })
            }
        }
    }
}

/// `a` outranks `b` in their suit.
fn higher(a: Card, b: Card) -> bool {
    a.suit() == b.suit() && beats(a, b)
}

/// Checks every claim `said` makes of `card` in `view`; the claims read.
fn check(view: &PlayerView, card: Card, said: &str) -> Vec<Claim> {
    let winning = view
        .play
        .winning
        .and_then(|s| view.play.trick[s].map(|c| (s, c)));
    let seen = Seen {
        view,
        card,
        out: view
            .rules
            .deck()
            .minus(view.play.played)
            .minus(view.cards()),
        led: view.play.led.unwrap_or(card.suit()),
        winning,
    };
    let claims: Vec<Claim> = PHRASES
        .iter()
        .filter(|(phrase, _)| said.contains(phrase))
        .flat_map(|(_, claims)| claims.iter().copied())
        .collect();
    assert!(!claims.is_empty(), "no claim read in {said:?}");
    for &claim in &claims {
        assert!(
            seen.holds(claim),
            "{said:?} claims {claim:?}, false for {card} in {view:#?}"
        );
    }
    claims
}

/// A level's bot that bids nil one time in three where it may: games
/// with many nils to play, cover and hunt.
struct NilOften(Box<dyn Bot>);

impl Bot for NilOften {
    fn name(&self) -> &'static str {
        "nil-often"
    }
    fn fresh(&self) -> Box<dyn Bot> {
        Box::new(NilOften(self.0.fresh()))
    }
    fn blind_nil(&mut self, view: &PlayerView, rng: &mut BotRng) -> bool {
        self.0.blind_nil(view, rng)
    }
    fn bid(&mut self, view: &PlayerView, rng: &mut BotRng) -> Bid {
        if view.check_bid(Bid::Nil).is_ok() && rng.random_bool(1.0 / 3.0) {
            return Bid::Nil;
        }
        self.0.bid(view, rng)
    }
    fn exchange(&mut self, view: &PlayerView, rng: &mut BotRng) -> CardSet {
        self.0.exchange(view, rng)
    }
    fn play(&mut self, view: &PlayerView, rng: &mut BotRng) -> Card {
        self.0.play(view, rng)
    }
}

/// The reason `normal`'s card gets at `view` when the search keeps it.
fn rule_reason(view: &PlayerView) -> (Card, Reason) {
    let usual = card_and_rule(view);
    let kept = Weighing {
        chosen: Action::Play(usual.card),
        ranked: Vec::new(),
    };
    (usual.card, reason(view, Decision::Play, &kept))
}

/// The reason for `normal`'s bid at `view`: a bid said to be moved off
/// the hand's count went that way. 1 when a move was told.
fn check_bid_reason(view: &PlayerView) -> usize {
    let (bid, rule) = bid_and_rule(view);
    let kept = Weighing {
        chosen: Action::Bid(bid),
        ranked: Vec::new(),
    };
    let said = reason(view, Decision::Bid, &kept).to_string();
    let BidRule::Count { count, .. } = rule else {
        return 0;
    };
    let plain = (count + Tuning::default().round_up).floor().max(1.0) as i32;
    let went = i32::from(bid.tricks()) - plain;
    let up = said.contains("pushed up");
    let down = ["less for covering", "kept safe", "shaded", "rounded down"]
        .iter()
        .any(|w| said.contains(w));
    assert!(
        !up || went > 0,
        "{said:?} for a bid of {bid}, {plain} by the count"
    );
    assert!(
        !down || went < 0,
        "{said:?} for a bid of {bid}, {plain} by the count"
    );
    usize::from(up || down)
}

/// Thousands of card decisions of seeded games, every seat's, in every
/// mode: every claim of every reason holds.
#[test]
fn every_reason_claims_only_what_the_view_shows() {
    let levels = [Level::Normal, Level::Easy, Level::Random];
    let mut rules_seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut positions = 0;
    let mut bids = 0;
    // Half the games in partnership, where nils are covered.
    let modes = [
        Mode::Partnership,
        Mode::Cutthroat,
        Mode::Partnership,
        Mode::Individual,
        Mode::Partnership,
        Mode::Dummy,
    ];
    for seed in 0..42u64 {
        let mode = modes[seed as usize % modes.len()];
        let mut game = Game::new(Rules::classic(mode), seed);
        let mut bots: Vec<NilOften> = mode
            .each_seat()
            .map(|s| NilOften(levels[(seed as usize + s.index()) % 3].bot(Effort::Usual)))
            .collect();
        let mut rngs: Vec<_> = mode.each_seat().map(|s| bot_rng(seed, s)).collect();
        while game.hand_no() <= 3 {
            let Some(turn) = game.to_act() else {
                if game.deal_next_hand().is_none() {
                    break;
                }
                continue;
            };
            let view = game.view(turn.seat);
            if turn.decision == Decision::Bid {
                bids += check_bid_reason(&view);
            }
            if turn.decision == Decision::Play {
                let (card, why) = rule_reason(&view);
                if let Reason::Rule { rule, .. } = why {
                    *rules_seen.entry(format!("{rule:?}")).or_default() += 1;
                }
                check(&view, card, &why.to_string());
                // As the hint line says it, with the least room any card's
                // face leaves.
                let said = why.said(&|c| format!("{c}*"), 76);
                assert!(said.chars().count() <= 76, "{said}");
                check(&view, card, &said);
                positions += 1;
            }
            let i = turn.seat.index();
            let action = decide(&mut bots[i], turn.decision, &view, &mut rngs[i]);
            game.apply(turn.seat, action).unwrap();
        }
    }
    assert!(positions >= 5_000, "{positions} positions");
    assert!(bids >= 20, "{bids} bids moved off the count");
    // The rules around the table, the nils' among them, all had their say.
    assert!(rules_seen.len() >= 20, "{rules_seen:#?}");
}
