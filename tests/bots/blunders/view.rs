//! The seat's view of a blunder case, built from its fields and checked
//! step by step that it could arise at a real table: the bids in turn, the
//! hand the right size, every card once, each trick led by the last one's
//! winner, spades led only once broken.

use spades::engine::play::beats;
use spades::engine::score::deficit;
use spades::engine::{
    Auction, Bid, Card, CardSet, ExchangeView, FirstLead, Mode, PerSeat, PerSide, Phase,
    PlayerView, PublicPlay, Rules, Seat, Shown, SideTotals, SpadesLead, Suit, TrickDone,
};

use super::case::{Ask, Case, card, cards, parse_bid, seat_no};

/// Builds the seat's view of the situation, checking that it could arise.
pub(super) fn build_view(case: &Case, ask: Ask) -> Result<PlayerView, String> {
    let rules = rules_of(case)?;
    let mode = rules.mode;
    let seat = seat_no(case.need("seat:")?, mode.seats())?;
    let dealer = seat_no(case.need("dealer:")?, mode.seats())?;
    let totals = totals_of(case, mode)?;
    let bids = Bids::of(case, mode, dealer)?;
    let hand = match case.one("hand:") {
        Some(h) => Some(cards(h)?),
        None if ask == Ask::BlindNil => None,
        None => return Err("missing `hand:`".into()),
    };
    let not_dealt = hand.unwrap_or_default().minus(rules.deck());
    if !not_dealt.is_empty() {
        return Err(format!("hand: {not_dealt} is not in this game's deck"));
    }
    let mut view = bidding_view(rules, seat, dealer, hand, totals);
    view.replay_bids(&bids.made)?;
    match ask {
        Ask::BlindNil | Ask::Bid => at_bidding(view, ask),
        Ask::Exchange => at_exchange(view, &bids),
        Ask::Play => {
            bids.all_made()?;
            Play::new(case, &view)?.replay(case, view)
        }
    }
}

fn rules_of(case: &Case) -> Result<Rules, String> {
    let mode: Mode = case.one("mode:").unwrap_or("partnership").parse()?;
    let rules: Rules = match case.one("rules:") {
        Some(r) => toml::from_str(&r.replace(';', "\n")).map_err(|e| format!("rules: {e}"))?,
        None => Rules::default(),
    };
    rules.with(|r| r.mode = mode).map_err(|e| e.to_string())
}

/// `scores:`, a score/bags per side; none is a game's start.
fn totals_of(case: &Case, mode: Mode) -> Result<PerSide<SideTotals>, String> {
    let mut totals = PerSide::filled(mode, SideTotals::default());
    let Some(s) = case.one("scores:") else {
        return Ok(totals);
    };
    let parts: Vec<&str> = s.split_whitespace().collect();
    if parts.len() != mode.sides() {
        return Err(format!(
            "scores: give one score/bags per side ({})",
            mode.sides()
        ));
    }
    for (side, p) in mode.each_side().zip(&parts) {
        let (score, bags) = p.split_once('/').ok_or("scores: write score/bags")?;
        totals[side] = SideTotals {
            score: score.parse().map_err(|_| format!("bad score `{score}`"))?,
            bags: bags.parse().map_err(|_| format!("bad bags `{bags}`"))?,
        };
    }
    Ok(totals)
}

/// The case's `bids:`, one word per seat (`-` for a seat yet to bid).
struct Bids {
    by_seat: PerSeat<Option<Bid>>,
    /// The players in bidding order, from the dealer's left.
    order: Vec<Seat>,
    /// The bids made so far, in that order.
    made: Vec<Bid>,
}

impl Bids {
    fn of(case: &Case, mode: Mode, dealer: Seat) -> Result<Bids, String> {
        let n = mode.seats();
        let words: Vec<&str> = case.need("bids:")?.split_whitespace().collect();
        if words.len() != n {
            return Err(format!("bids: give one per seat ({n})"));
        }
        let by_seat: Vec<Option<Bid>> = words
            .iter()
            .map(|w| parse_bid(w))
            .collect::<Result<_, _>>()?;
        let by_seat = PerSeat::from_slice(&by_seat).ok_or("bids: none given")?;
        if mode
            .each_seat()
            .any(|s| !mode.is_player(s) && by_seat[s].is_some())
        {
            return Err("bids: the dummy never bids: write `-` for it".into());
        }
        // Bids are made clockwise from the dealer's left: replay that order,
        // which must be a run of bids followed only by seats yet to bid. The
        // dummy (written `-`) never bids.
        let order: Vec<Seat> = (1..=n)
            .map(|k| mode.after(dealer, k))
            .filter(|&s| mode.is_player(s))
            .collect();
        let made: Vec<Bid> = order.iter().map_while(|&s| by_seat[s]).collect();
        if order[made.len()..].iter().any(|&s| by_seat[s].is_some()) {
            return Err("bids: a seat has bid before one to its right".into());
        }
        Ok(Bids {
            by_seat,
            order,
            made,
        })
    }

    fn all_made(&self) -> Result<(), String> {
        if self.made.len() == self.order.len() {
            Ok(())
        } else {
            Err("bids: every seat must have bid".into())
        }
    }
}

/// The view at the hand's first bid, before the case's bids are replayed.
fn bidding_view(
    rules: Rules,
    seat: Seat,
    dealer: Seat,
    hand: Option<CardSet>,
    totals: PerSide<SideTotals>,
) -> PlayerView {
    let mode = rules.mode;
    let scores = totals.map(|t| t.score);
    let deficits = PerSide::from_fn(mode, |side| deficit(mode, &scores, side));
    PlayerView {
        seat,
        rules,
        hand_no: 1,
        dealer,
        phase: Phase::Bidding,
        turn: Some(seat),
        hand,
        shown: None,
        auction: Auction::new(rules, dealer, deficits),
        exchange: None,
        play: PublicPlay {
            leader: mode.next_player(dealer),
            turn: mode.next_player(dealer),
            trick: PerSeat::filled(mode, None),
            led: None,
            winning: None,
            spades_broken: false,
            tricks_won: PerSeat::filled(mode, 0),
            tricks_done: 0,
            played: CardSet::EMPTY,
            rules: rules.play,
        },
        tricks: Vec::new(),
        totals,
        last_hand: None,
        winner: None,
        lives_left: None,
    }
}

/// The seat is next to bid, its cards face down exactly when blind nil is
/// on offer.
fn at_bidding(view: PlayerView, ask: Ask) -> Result<PlayerView, String> {
    let seat = view.seat;
    if view.auction.next_bidder() != Some(seat) {
        return Err(format!("bids: seat {seat} is not the next to bid"));
    }
    let hidden = view.auction.cards_hidden(seat);
    if (ask == Ask::BlindNil) != hidden {
        return Err(if hidden {
            "blind nil is on offer here: the cards are face down, drop `hand:`".into()
        } else {
            "blind nil is not on offer here: give the `hand:`".into()
        });
    }
    full_hand(&view)?;
    Ok(view)
}

fn full_hand(view: &PlayerView) -> Result<(), String> {
    let size = view.rules.mode.hand_size();
    match view.hand {
        Some(h) if h.len() as usize != size => Err(format!("hand: a full hand has {size} cards")),
        _ => Ok(()),
    }
}

/// Every seat has bid, and this side passes cards.
fn at_exchange(mut view: PlayerView, bids: &Bids) -> Result<PlayerView, String> {
    bids.all_made()?;
    let (mode, seat) = (view.rules.mode, view.seat);
    let partner = mode.partner(seat).ok_or("no exchange without a partner")?;
    let bid = |s: Seat| bids.by_seat[s].unwrap_or(Bid::Nil);
    let count = view.rules.swap_size(bid(seat), bid(partner));
    if count == 0 {
        return Err(
            "an exchange needs one blind nil (or a nil pass) on this side and cards to swap".into(),
        );
    }
    if view.hand.is_none() {
        return Err(format!("hand: a full hand has {} cards", mode.hand_size()));
    }
    full_hand(&view)?;
    view.phase = Phase::Exchange;
    view.exchange = Some(ExchangeView {
        partner,
        count,
        given: None,
        received: None,
    });
    Ok(view)
}

/// The play so far, read card by card: the earlier tricks (`played:`),
/// then the current one (`trick:`).
struct Play {
    rules: Rules,
    seat: Seat,
    my_hand: CardSet,
    /// Every card the case names so far, to refuse one named twice.
    seen: CardSet,
    leader: Seat,
    won: PerSeat<u8>,
    broken: bool,
    /// The suits the seat has shown out of.
    my_voids: CardSet,
}

impl Play {
    fn new(case: &Case, view: &PlayerView) -> Result<Play, String> {
        let rules = view.rules;
        Ok(Play {
            rules,
            seat: view.seat,
            my_hand: view.hand.unwrap_or_default(),
            seen: view.hand.unwrap_or_default(),
            leader: first_leader(case, &rules, view.seat, view.dealer)?,
            won: PerSeat::filled(rules.mode, 0u8),
            broken: false,
            my_voids: CardSet::EMPTY,
        })
    }

    fn add(&mut self, c: Card) -> Result<(), String> {
        if self.seen.contains(c) {
            return Err(format!("{c} appears twice"));
        }
        if !self.rules.deck().contains(c) {
            return Err(format!("{c} is not in this game's deck"));
        }
        self.seen.insert(c);
        Ok(())
    }

    fn replay(mut self, case: &Case, mut view: PlayerView) -> Result<PlayerView, String> {
        view.phase = Phase::Playing;
        view.shown = self.shown(case, &view)?;
        for line in case.all("played:") {
            let trick = self.earlier_trick(line)?;
            view.tricks.push(trick);
        }
        let done = view.tricks.len();
        let (trick, winning) = self.current_trick(case)?;
        self.check_hands(&view, done, &trick)?;
        let shown = view.shown.map_or(CardSet::EMPTY, |s| s.cards);
        let played = self.seen.minus(self.my_hand).minus(shown);
        let seat = self.seat;
        view.turn = Some(seat);
        view.play = PublicPlay {
            leader: self.leader,
            turn: seat,
            trick,
            led: trick[self.leader].map(Card::suit),
            winning,
            spades_broken: self.broken,
            tricks_won: self.won,
            tricks_done: done,
            played,
            rules: self.rules.play,
        };
        Ok(view)
    }

    /// With a dummy, the hand laid face up: the dummy's, or for the
    /// dummy's seat (played by the declarer) the declarer's.
    fn shown(&mut self, case: &Case, view: &PlayerView) -> Result<Option<Shown>, String> {
        let Some(shown) = case.one("shown:") else {
            return Ok(None);
        };
        let cards = cards(shown)?;
        let mode = self.rules.mode;
        let (Some(dummy), Some(declarer)) = (mode.dummy(), view.teams().declarer()) else {
            return Err("shown: only with a dummy, once there is a declarer".into());
        };
        let of = if self.seat == dummy { declarer } else { dummy };
        if !self.seen.intersect(cards).is_empty() {
            return Err("shown: a card is also in the hand".into());
        }
        self.seen |= cards;
        Ok(Some(Shown { seat: of, cards }))
    }

    /// One `played:` line, `leader: cards`, led by the last trick's winner.
    fn earlier_trick(&mut self, line: &str) -> Result<TrickDone, String> {
        let (mode, seat, n) = (self.rules.mode, self.seat, self.rules.mode.seats());
        let (who, rest) = line
            .split_once(':')
            .ok_or("played: write `leader: cards`")?;
        let first = seat_no(who.trim(), n)?;
        if first != self.leader {
            return Err(format!(
                "played: seat {} leads `{line}`, not seat {first}",
                self.leader
            ));
        }
        let list: Vec<Card> = rest
            .split_whitespace()
            .map(card)
            .collect::<Result<_, _>>()?;
        if list.len() != n {
            return Err(format!("played: a trick has {n} cards: `{line}`"));
        }
        let mut by_seat = PerSeat::filled(mode, None);
        let mut winner = first;
        for (k, &c) in list.iter().enumerate() {
            self.add(c)?;
            let s = mode.after(first, k);
            by_seat[s] = Some(c);
            if k > 0 && by_seat[winner].is_some_and(|w| beats(c, w)) {
                winner = s;
            }
            if s == seat && k > 0 && c.suit() != list[0].suit() {
                self.my_voids |= CardSet::of_suit(list[0].suit());
            }
            let spades_free = self.rules.play.spades_lead == SpadesLead::AnyTime;
            if k == 0 && c.suit() == Suit::Spades && !self.broken && !spades_free && s == seat {
                return Err(format!(
                    "played: seat {seat} led {c} before spades were broken"
                ));
            }
            self.broken |= c.suit() == Suit::Spades;
        }
        self.won[winner] += 1;
        self.leader = winner;
        Ok(TrickDone {
            leader: first,
            cards: by_seat,
            winner,
        })
    }

    /// The `trick:` being played, `seat:card` words in turn, up to the
    /// seat's own turn: its cards and who is winning it.
    fn current_trick(
        &mut self,
        case: &Case,
    ) -> Result<(PerSeat<Option<Card>>, Option<Seat>), String> {
        let mode = self.rules.mode;
        let mut trick = PerSeat::filled(mode, None);
        let mut winning = None;
        let mut next = self.leader;
        if let Some(t) = case.one("trick:") {
            for (k, word) in t.split_whitespace().enumerate() {
                let (who, c) = word.split_once(':').ok_or("trick: write seat:card")?;
                let s = seat_no(who, mode.seats())?;
                if s != next {
                    return Err(format!("trick: seat {next} plays next, not seat {s}"));
                }
                let c = card(c)?;
                self.add(c)?;
                trick[s] = Some(c);
                if k == 0
                    || winning
                        .and_then(|w: Seat| trick[w])
                        .is_some_and(|w| beats(c, w))
                {
                    winning = Some(s);
                }
                self.broken |= c.suit() == Suit::Spades;
                next = mode.next(s);
            }
        }
        if next != self.seat {
            return Err(format!(
                "it is seat {next}'s turn, not seat {}'s",
                self.seat
            ));
        }
        Ok((trick, winning))
    }

    /// The seat's hand (and the one shown) hold what is left after `done`
    /// tricks, and no suit the seat has shown out of.
    fn check_hands(
        &self,
        view: &PlayerView,
        done: usize,
        trick: &PerSeat<Option<Card>>,
    ) -> Result<(), String> {
        let expected = self.rules.mode.hand_size() - done;
        if self.my_hand.len() as usize != expected {
            return Err(format!(
                "hand: after {done} tricks the seat holds {expected} cards"
            ));
        }
        if !self.my_hand.intersect(self.my_voids).is_empty() {
            return Err("hand: holds a suit the seat has shown out of".into());
        }
        if let Some(shown) = view.shown {
            let held = expected - usize::from(trick[shown.seat].is_some());
            if shown.cards.len() as usize != held {
                return Err(format!("shown: seat {} holds {held} cards now", shown.seat));
            }
        }
        Ok(())
    }
}

/// The seat that led the first trick: the dealer's left, or under
/// `first_lead = "two_of_clubs"` the holder of the lowest club, which the
/// case shows by the first trick it gives (or, with none, the seat itself).
fn first_leader(case: &Case, rules: &Rules, seat: Seat, dealer: Seat) -> Result<Seat, String> {
    let mode = rules.mode;
    if rules.play.first_lead != FirstLead::TwoOfClubs {
        return Ok(mode.next_player(dealer));
    }
    let first = case
        .all("played:")
        .first()
        .and_then(|line| line.split_once(':').map(|(who, _)| who.trim().to_string()))
        .or_else(|| {
            case.one("trick:")
                .and_then(|t| t.split_whitespace().next())
                .and_then(|w| w.split_once(':').map(|(who, _)| who.to_string()))
        });
    match first {
        Some(who) => seat_no(&who, mode.seats()),
        None => Ok(seat),
    }
}
