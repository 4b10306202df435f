//! Guessing the deal: the cards a seat cannot see, dealt to the seats that
//! may hold them, true to everything the seat knows and leaning towards
//! what the bids and the play suggest. A search plays its tree over many
//! such guesses (determinizations) built from one `PlayerView`.
//!
//! Facts a guess never breaks: every hand's size; no card of a suit a seat
//! has shown out of, by not following it or by leading a spade before
//! spades were broken (allowed only with nothing but spades; no such fact
//! under `spades_lead = "any_time"`), or, without `trump_first_trick`, by
//! playing a spade to the first trick; played cards are gone; the cards
//! this seat passed its partner in a blind-nil exchange are in the
//! partner's hand until played; in cutthroat one unseen card is out of
//! play, and nobody knows which, unless a first lead of the 3C under
//! `first_lead = "two_of_clubs"` shows it is the 2C.
//!
//! Leanings: every card has a trick value (`TRICK_VALUE`, about one trick
//! per trick's worth of cards). A seat that still has tricks to take by its
//! bid holds each unseen card with a weight `exp(lean * value)`, the lean
//! chosen so that the cards it is expected to hold are worth about those
//! tricks: a nil bidder leans away from high cards and spades, a seat that
//! bid five towards them.
//!
//! The cards are dealt one at a time, highest first, each to a seat with
//! chance proportional to the seat's room left times its weight for the
//! card; with equal weights and no void that deals every arrangement
//! equally often. Voids can leave a suit too few places, so before each
//! card the deal keeps Hall's condition (every set of suits fits in the
//! room of the seats that may hold one of them), as one slack per set of
//! suits: a guess never fails on a view that is consistent. As the order is
//! fixed, the chance of any one deal is the product of its steps' chances
//! (`log_chance`), which is how the leanings are measured against real deals.

use rand::Rng;

use crate::engine::bid::Bid;
use crate::engine::card::{Card, Suit};
use crate::engine::cards::CardSet;
use crate::engine::deal::Deal;
use crate::engine::game::Phase;
use crate::engine::rules::{FirstLead, SpadesLead};
use crate::engine::seat::{MAX_SEATS, PerSeat, Seat};
use crate::engine::view::PlayerView;

/// Where a guessed card can go: a seat, or out of play.
const HOLDERS: usize = MAX_SEATS + 1;
/// The holder standing for the cards out of play.
const OUT: usize = MAX_SEATS;
/// All four suits, one bit each.
const ALL_SUITS: u8 = 0xF;

/// How far a seat's bid moves its expected trick value from an even share
/// (1 would aim exactly at the bid). Bids are estimates, and a seat's
/// partner or the play may take its tricks, so the lean stops short;
/// measured over `normal`'s bids (`examples/deal_guess_fit.rs`).
const BID_TRUST: f32 = 0.4;
/// The steepest lean: a weight ratio of at most `e^LEAN_LIMIT` between the
/// most and least valuable card, so no card is ever ruled out by a bid.
const LEAN_LIMIT: f32 = 5.0;
/// Weights are fixed point with this many fractional bits.
const WEIGHT_ONE: f32 = 65536.0;

/// A card's trick value: roughly its chance of taking a trick in a
/// four-handed hand, spades for their rank and length, side suits for
/// their honours. The whole deck is worth about 13.3 tricks.
const TRICK_VALUE: [f32; 52] = {
    const SIDE: [f32; 13] = [
        0.0, 0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.08, 0.11, 0.18, 0.35, 0.62, 0.88,
    ];
    const SPADE: [f32; 13] = [
        0.22, 0.24, 0.26, 0.28, 0.30, 0.33, 0.36, 0.40, 0.48, 0.58, 0.72, 0.88, 1.0,
    ];
    let mut table = [0.0; 52];
    let mut i = 0;
    while i < 52 {
        table[i] = if i / 13 == Suit::Spades as usize {
            SPADE[i % 13]
        } else {
            SIDE[i % 13]
        };
        i += 1;
    }
    table
};

/// Each card's trick value in a game dealt from `deck`: `TRICK_VALUE`'s
/// for a side card, and for a spade the value of the classic spade as many
/// places from the top of the deck's spades (so a joker deck's ace, with
/// two trumps above it, is worth a classic queen). The classic deck's
/// values are `TRICK_VALUE`'s.
fn trick_values(deck: CardSet) -> [f32; 64] {
    let mut values = [0.0; 64];
    for card in deck {
        let i = usize::from(card.index());
        values[i] = if card.suit() == Suit::Spades {
            let from_top = deck.above(card).len() as usize;
            TRICK_VALUE[51usize.saturating_sub(from_top).max(39)]
        } else {
            TRICK_VALUE[i]
        };
    }
    values
}

/// `HURT[suit][allowed]`: the sets of suits (bit `T` for set `T`) whose
/// slack a card of `suit` dealt to a holder that may hold the suits
/// `allowed` uses up: those it can fill but that do not gain from the
/// card being dealt, i.e. without `suit` and sharing a suit with `allowed`.
const HURT: [[u16; 16]; 4] = {
    let mut table = [[0u16; 16]; 4];
    let mut suit = 0;
    while suit < 4 {
        let mut allowed = 0;
        while allowed < 16 {
            let mut set = 1;
            while set < 16 {
                if set & (1 << suit) == 0 && set & allowed != 0 {
                    table[suit][allowed] |= 1 << set;
                }
                set += 1;
            }
            allowed += 1;
        }
        suit += 1;
    }
    table
};

/// Why no deal can be guessed from a view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum GuessError {
    /// The unseen cards do not fill the places left in the hands.
    #[error("the view does not add up: {unseen} unseen cards for {room} places")]
    Count {
        /// The cards the seat has not seen.
        unseen: u32,
        /// The places left for them in the other hands.
        room: u32,
    },
    /// The seats' shown voids leave some suit too little room.
    #[error("no deal fits the view: the seats that may hold some suits have too little room")]
    NoRoom,
}

/// Everything one seat knows about where the unseen cards lie, ready to
/// deal guesses fast (`sample`) without allocating.
#[derive(Debug, Clone)]
pub struct DealGuess {
    seats: u8,
    /// Cards whose holder is known: this seat's own, the cards it passed.
    known: [CardSet; HOLDERS],
    /// The unseen cards whose holder is to be guessed.
    open: CardSet,
    /// How many of the open cards each holder takes.
    room: [u8; HOLDERS],
    /// The suits (bit per suit) each holder may hold.
    suits: [u8; HOLDERS],
    /// `weight[holder][card]`, fixed point: how strongly the holder leans
    /// towards the card.
    weight: [[u32; 64]; HOLDERS],
    /// `slack[T]` for each set of suits `T` (bit per suit): the room of the
    /// holders that may hold a suit of `T`, less the open cards of `T`.
    slack: [i8; 16],
    /// Some void limits where cards go: without one no slack runs out.
    constrained: bool,
}

impl DealGuess {
    /// Guesses leaning on the bids and the play, as described above.
    pub fn new(view: &PlayerView) -> Result<DealGuess, GuessError> {
        DealGuess::leaning(view, BID_TRUST)
    }

    /// Guesses leaning on the bids with a given trust in them: 0 for none
    /// (the even guess), 1 to aim each seat's cards at exactly its bid.
    pub fn leaning(view: &PlayerView, trust: f32) -> Result<DealGuess, GuessError> {
        let mut guess = DealGuess::uniform(view)?;
        guess.lean_on_bids(view, trust);
        Ok(guess)
    }

    /// Guesses that keep to the facts only: every deal that fits them about
    /// equally likely (exactly so when no void constrains the deal).
    pub fn uniform(view: &PlayerView) -> Result<DealGuess, GuessError> {
        let mode = view.mode();
        let play = &view.play;
        let me = view.seat;
        let mut known = [CardSet::EMPTY; HOLDERS];
        let mut room = [0u8; HOLDERS];
        let mut suits = [ALL_SUITS; HOLDERS];
        if let Some(mine) = view.hand {
            known[me.index()] = mine;
        }
        let unseen = view.unseen();
        if let Some(exchange) = view.exchange
            && let Some(given) = exchange.given
        {
            // Before the exchange the cards are still in this hand.
            known[exchange.partner.index()] |= given.intersect(unseen);
        }
        let left = mode.hand_size() - play.tricks_done;
        for seat in mode.each_seat() {
            if seat == me && view.hand.is_some() {
                continue;
            }
            let held = left - usize::from(play.trick[seat].is_some());
            let placed = known[seat.index()].len() as usize;
            room[seat.index()] = held.saturating_sub(placed) as u8;
        }
        known[OUT] = clubs_out(view).intersect(unseen);
        let out = 52 - mode.seats() * mode.hand_size();
        room[OUT] = out.saturating_sub(known[OUT].len() as usize) as u8;
        for (seat, shown) in shown_out(view).pairs() {
            suits[seat.index()] &= !shown;
        }
        let open = unseen.minus(known.iter().fold(CardSet::EMPTY, |a, &k| a | k));
        let places: u32 = room.iter().map(|&r| u32::from(r)).sum();
        if places != open.len() {
            return Err(GuessError::Count {
                unseen: open.len(),
                room: places,
            });
        }
        let mut slack = [0i8; 16];
        for (set, slack) in slack.iter_mut().enumerate().skip(1) {
            let cards: u32 = (0..4)
                .filter(|&s| set & (1 << s) != 0)
                .map(|s| open.suit(Suit::from_index(s as u8)).len())
                .sum();
            let room: u32 = (0..HOLDERS)
                .filter(|&h| usize::from(suits[h]) & set != 0)
                .map(|h| u32::from(room[h]))
                .sum();
            *slack = (room as i32 - cards as i32) as i8;
        }
        if slack.iter().any(|&s| s < 0) {
            return Err(GuessError::NoRoom);
        }
        let constrained = (0..HOLDERS).any(|h| room[h] > 0 && suits[h] != ALL_SUITS);
        Ok(DealGuess {
            seats: mode.seats() as u8,
            known,
            open,
            room,
            suits,
            weight: [[WEIGHT_ONE as u32; 64]; HOLDERS],
            slack,
            constrained,
        })
    }

    /// Leans each bidder that still holds unseen cards towards the trick
    /// value its bid calls for.
    fn lean_on_bids(&mut self, view: &PlayerView, trust: f32) {
        let play = &view.play;
        let tricks_left = (view.mode().hand_size() - play.tricks_done) as f32;
        let deck = view.rules.deck();
        let values = trick_values(deck);
        let in_play = deck.minus(play.played);
        let value = |set: CardSet| set.iter().map(|c| values[c.index() as usize]).sum();
        let per_trick: f32 = value(in_play) / tricks_left.max(1.0);
        let bids = view.bids();
        for seat in view.mode().each_seat() {
            let h = seat.index();
            let room = f32::from(self.room[h]);
            let (Some(bid), true) = (bids[seat], room > 0.0) else {
                continue;
            };
            let open = self.open;
            let allowed: CardSet = Suit::ALL
                .into_iter()
                .filter(|&s| self.suits[h] & (1 << s as u8) != 0)
                .map(|s| open.suit(s))
                .fold(CardSet::EMPTY, |a, s| a | s);
            if allowed.is_empty() {
                continue;
            }
            let even: f32 = room * value(allowed) / allowed.len() as f32;
            let known: f32 = value(self.known[h]);
            let to_take = |tricks: f32| tricks * per_trick - known;
            let aim: f32 = match bid {
                Bid::Tricks(n) => to_take(f32::from(n.saturating_sub(play.tricks_won[seat]))),
                Bid::Nil => to_take(0.0),
                // A blind nil is dealt blind; after an exchange it has
                // passed its best cards on.
                Bid::BlindNil if exchanged(view, seat) => even * 0.5,
                // A blind number says nothing of the cards either.
                Bid::BlindNil | Bid::Blind(_) => continue,
            };
            let target = even + trust * (aim - even);
            let lean = lean_for(allowed, target / room, &values);
            // Weights average one over the cards the seat may hold: the deal
            // asks each seat in turn, so a seat's weights must say which
            // cards it holds, not how many.
            let raw = |c: Card| (lean * values[c.index() as usize]).exp();
            let mean = allowed.iter().map(raw).sum::<f32>() / allowed.len() as f32;
            for card in deck {
                let w = raw(card) / mean * WEIGHT_ONE;
                self.weight[h][card.index() as usize] = (w as u32).max(1);
            }
        }
    }

    /// The unseen cards whose holder a guess decides.
    pub fn open(&self) -> CardSet {
        self.open
    }

    /// One guess at the deal as it stands now: every seat's cards (this
    /// seat's own as they are) and the card out of play, if any.
    #[inline]
    pub fn sample<R: Rng>(&self, rng: &mut R) -> Deal {
        let holders = self.deal_with(|_, weights, total| {
            let k = ((u128::from(rng.next_u64()) * u128::from(total)) >> 64) as u64;
            // The first holder whose running total passes `k`, counted
            // without a branch: which one it is is as random as the deal.
            let mut running = 0;
            let mut chosen = 0;
            for &w in weights {
                running += w;
                chosen += usize::from(k >= running);
            }
            Some(chosen)
        });
        self.to_deal(holders.unwrap_or_else(|| unreachable!("a random pick always deals")))
    }

    /// The natural log of the chance that `sample` guesses `deal` (which
    /// agrees with the cards whose holder is known), or `None` when `deal`
    /// breaks a fact the guess keeps.
    pub fn log_chance(&self, deal: &Deal) -> Option<f64> {
        let mut log = 0.0;
        self.deal_with(|card, weights, total| {
            let h = (0..usize::from(self.seats))
                .find(|&s| deal.hands[Seat::masked(s as u8)].contains(card))
                .unwrap_or(OUT);
            let w = weights[h];
            log += (w as f64 / total as f64).ln();
            (w > 0).then_some(h)
        })?;
        Some(log)
    }

    fn to_deal(&self, holders: [CardSet; HOLDERS]) -> Deal {
        let n = usize::from(self.seats);
        let hands: [CardSet; MAX_SEATS] = std::array::from_fn(|s| holders[s]);
        Deal {
            hands: PerSeat::from_array(n, hands),
            out: holders[OUT],
        }
    }

    /// Deals the open cards highest first, asking `choose` for each card's
    /// holder given every holder's weight for it now (0 where it may not
    /// go) and their total; stops when `choose` says `None`.
    #[inline(always)]
    fn deal_with(
        &self,
        mut choose: impl FnMut(Card, &[u64; HOLDERS], u64) -> Option<usize>,
    ) -> Option<[CardSet; HOLDERS]> {
        let mut holders = self.known;
        let mut room = self.room;
        let mut slack = self.slack;
        let mut open = self.open.bits();
        while open != 0 {
            let i = 63 - open.leading_zeros() as usize;
            open &= !(1 << i);
            let card = Card::from_index_unchecked(i as u8);
            let suit = card.suit() as usize;
            // Sets of suits with no room to spare: no holder may take a
            // card that would leave one of them short.
            let tight = if self.constrained {
                (1..16).fold(0u16, |t, set| t | u16::from(slack[set] == 0) << set)
            } else {
                0
            };
            let mut weights = [0u64; HOLDERS];
            let mut total = 0;
            for h in 0..HOLDERS {
                let allowed = self.suits[h];
                // `&` rather than `&&`: no branches to mispredict.
                let fits = (room[h] > 0)
                    & (allowed & (1 << suit) != 0)
                    & (tight & HURT[suit][usize::from(allowed)] == 0);
                weights[h] = if fits {
                    u64::from(room[h]) * u64::from(self.weight[h][i])
                } else {
                    0
                };
                total += weights[h];
            }
            let h = choose(card, &weights, total)? % HOLDERS;
            holders[h].insert(card);
            room[h] -= 1;
            if self.constrained {
                let hurt = HURT[suit][usize::from(self.suits[h])];
                for (set, slack) in slack.iter_mut().enumerate() {
                    *slack -= i8::from(hurt & (1 << set) != 0);
                }
            }
        }
        Some(holders)
    }
}

/// The suits (bit per suit) each seat has shown it no longer holds: by not
/// following a suit led, or by leading a spade before spades were broken,
/// which only a hand of nothing but spades may do.
fn shown_out(view: &PlayerView) -> PerSeat<u8> {
    let mode = view.mode();
    let mut shown = PerSeat::filled(mode, 0u8);
    for suit in Suit::ALL {
        for (seat, &void) in view.void_in(suit).pairs() {
            shown[seat] |= u8::from(void) << suit as u8;
        }
    }
    let current = (view.play.leader, view.play.trick);
    let tricks = view.tricks.iter().map(|t| (t.leader, t.cards));
    let rules = view.rules.play;
    let only_spades = ALL_SUITS & !(1 << Suit::Spades as u8);
    let mut broken = rules.spades_lead == SpadesLead::AnyTime;
    for (k, (leader, cards)) in tricks.chain(std::iter::once(current)).enumerate() {
        let Some(lead) = cards[leader] else {
            continue;
        };
        if lead.suit() == Suit::Spades && !broken {
            shown[leader] |= only_spades;
        }
        // Without `trump_first_trick`, a spade on another suit's first trick
        // comes from a hand of nothing but spades.
        if k == 0 && !rules.trump_first_trick && lead.suit() != Suit::Spades {
            for (seat, card) in cards.pairs() {
                if card.is_some_and(|c| c.suit() == Suit::Spades) {
                    shown[seat] |= only_spades;
                }
            }
        }
        broken |= cards.iter().flatten().any(|c| c.suit() == Suit::Spades);
    }
    shown
}

/// The clubs the first lead shows are out of play: under `first_lead =
/// "two_of_clubs"` the lowest club dealt leads, so every club below it was
/// dealt to nobody (in cutthroat, the 2C when the 3C leads).
fn clubs_out(view: &PlayerView) -> CardSet {
    if view.rules.play.first_lead != FirstLead::TwoOfClubs {
        return CardSet::EMPTY;
    }
    let first = match view.tricks.first() {
        Some(t) => t.cards[t.leader],
        None => view.play.trick[view.play.leader],
    };
    match first {
        Some(lead) if lead.suit() == Suit::Clubs => {
            CardSet::of_suit(Suit::Clubs).intersect(CardSet::DECK.below(lead))
        }
        _ => CardSet::EMPTY,
    }
}

/// Did `seat`, a blind-nil bidder, exchange cards with its partner this
/// hand? (Two blind nils on a side pass nothing.)
fn exchanged(view: &PlayerView, seat: Seat) -> bool {
    let bids = view.bids();
    let partner = view.mode().partner(seat);
    view.rules.exchange_size() > 0
        && !matches!(view.phase, Phase::Bidding | Phase::Exchange)
        && partner.is_some_and(|p| bids[p] != Some(Bid::BlindNil))
}

/// The lean (see the module's doc) under which the mean trick value of
/// `cards`, each weighted `exp(lean * value)`, is `mean`: found by halving,
/// as the weighted mean grows with the lean.
fn lean_for(cards: CardSet, mean: f32, values: &[f32; 64]) -> f32 {
    let weighted_mean = |lean: f32| {
        let (mut sum, mut weights) = (0.0f32, 0.0f32);
        for card in cards {
            let v = values[card.index() as usize];
            let w = (lean * (v - 1.0)).exp();
            sum += v * w;
            weights += w;
        }
        sum / weights
    };
    let (mut low, mut high) = (-LEAN_LIMIT, LEAN_LIMIT);
    for _ in 0..24 {
        let mid = 0.5 * (low + high);
        if weighted_mean(mid) < mean {
            low = mid;
        } else {
            high = mid;
        }
    }
    0.5 * (low + high)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::game::{Action, Game};
    use crate::engine::notation::{card, set};
    use crate::engine::rules::{PlayRules, Rules};
    use crate::engine::seat::Mode;
    use rand::SeedableRng;

    /// A game on one given deal, every seat bidding 3, `plays` played.
    fn played(rules: Rules, hands: &[CardSet], dealer: usize, plays: &[&str]) -> Game {
        let hands = PerSeat::from_slice(hands).unwrap();
        let held = hands.iter().fold(CardSet::EMPTY, |a, &h| a | h);
        let deal = Deal {
            hands,
            out: CardSet::DECK.minus(held),
        };
        let mut game = Game::with_deals(rules, Seat::new(dealer), vec![deal]);
        while game.phase() == Phase::Bidding {
            let turn = game.to_act().unwrap();
            game.apply(turn.seat, Action::Bid(Bid::Tricks(3))).unwrap();
        }
        for c in plays {
            let seat = game.to_act().unwrap().seat;
            game.apply(seat, Action::Play(card(c))).unwrap();
        }
        game
    }

    /// `deck` in order, dealt out in runs of `sizes` cards.
    fn split(deck: CardSet, sizes: &[usize]) -> Vec<CardSet> {
        let cards: Vec<Card> = deck.iter().collect();
        let mut at = 0;
        sizes
            .iter()
            .map(|&n| {
                at += n;
                cards[at - n..at].iter().copied().collect()
            })
            .collect()
    }

    fn rules_with(mode: Mode, play: PlayRules) -> Rules {
        Rules::classic(mode).with(|r| r.play = play).unwrap()
    }

    const ONLY_SPADES: u8 = ALL_SUITS & !(1 << Suit::Spades as u8);

    #[test]
    fn a_spade_on_a_first_trick_without_trumping_shows_a_hand_of_spades() {
        // Seat 1 holds every spade; seat 0 leads a club and seat 1 plays
        // a spade to it.
        let spades = CardSet::of_suit(Suit::Spades);
        let rest = split(CardSet::DECK.minus(spades), &[13, 13, 13]);
        let hands = [rest[0], spades, rest[1], rest[2]];
        let no_trump = PlayRules {
            trump_first_trick: false,
            ..PlayRules::default()
        };
        for (play, shown) in [
            (no_trump, ONLY_SPADES),
            (PlayRules::default(), 1 << Suit::Clubs as u8),
        ] {
            let game = played(
                rules_with(Mode::Partnership, play),
                &hands,
                3,
                &["2C", "2S"],
            );
            let view = game.view(Seat::new(2));
            assert_eq!(shown_out(&view)[Seat::new(1)], shown, "{play:?}");
        }
    }

    #[test]
    fn a_spade_led_any_time_shows_nothing() {
        let mut hands = split(CardSet::DECK, &[13, 13, 13, 13]);
        // Seat 0 holds the AS and clubs; it leads the AS on the first trick.
        hands[0] = hands[0].minus(set("2C")).union(set("AS"));
        hands[3] = hands[3].minus(set("AS")).union(set("2C"));
        let any_time = PlayRules {
            spades_lead: SpadesLead::AnyTime,
            ..PlayRules::default()
        };
        let game = played(rules_with(Mode::Partnership, any_time), &hands, 3, &["AS"]);
        assert_eq!(shown_out(&game.view(Seat::new(1)))[Seat::new(0)], 0);
    }

    #[test]
    fn the_three_of_clubs_leading_the_first_trick_shows_the_two_is_out() {
        // Cutthroat, the 2C out: seat 0 holds the 3C and leads it.
        let hands = split(CardSet::DECK.minus(set("2C")), &[17, 17, 17]);
        let rng = &mut rand_pcg::Pcg64Mcg::seed_from_u64(3);
        let two_of_clubs = PlayRules {
            first_lead: FirstLead::TwoOfClubs,
            ..PlayRules::default()
        };
        for (play, dealer) in [(two_of_clubs, 0), (PlayRules::default(), 2)] {
            let game = played(rules_with(Mode::Cutthroat, play), &hands, dealer, &["3C"]);
            let guess = DealGuess::new(&game.view(Seat::new(1))).unwrap();
            let outs = (0..200)
                .filter(|_| guess.sample(rng).out == set("2C"))
                .count();
            if play == two_of_clubs {
                assert_eq!(outs, 200);
            } else {
                assert!(outs < 100, "{outs} of 200 guesses put the 2C out");
            }
        }
    }

    #[test]
    fn the_deck_is_worth_about_its_tricks() {
        let total: f32 = TRICK_VALUE.iter().sum();
        assert!((12.5..14.0).contains(&total), "{total}");
        // Within a suit a higher card is worth more.
        for i in 0..51 {
            if i % 13 != 12 {
                assert!(TRICK_VALUE[i] < TRICK_VALUE[i + 1], "card {i}");
            }
        }
    }

    #[test]
    fn hurt_sets_are_those_a_card_can_leave_short() {
        // A clubs card to a holder of anything uses up the room of every
        // set without clubs.
        assert_eq!(HURT[0][0xF], 0b0101_0101_0101_0100);
        // To a holder of clubs only: no set without clubs loses room.
        assert_eq!(HURT[0][0b0001], 0);
        // A spade to a holder of hearts and spades: sets with hearts but
        // not spades.
        assert_eq!(
            HURT[3][0b1100],
            (1u16 << 4) | (1 << 5) | (1 << 6) | (1 << 7)
        );
    }

    #[test]
    fn the_lean_reaches_the_mean_asked_for() {
        let cards = CardSet::DECK;
        let mean = |lean: f32| {
            let w: Vec<f32> = cards
                .iter()
                .map(|c| (lean * TRICK_VALUE[c.index() as usize]).exp())
                .collect();
            let s: f32 = w.iter().sum();
            cards
                .iter()
                .zip(&w)
                .map(|(c, w)| TRICK_VALUE[c.index() as usize] * w)
                .sum::<f32>()
                / s
        };
        let values = trick_values(cards);
        for want in [0.1, 0.2, 0.3, 0.4] {
            let lean = lean_for(cards, want, &values);
            assert!((mean(lean) - want).abs() < 1e-3, "{want}: {}", mean(lean));
        }
        assert!(lean_for(cards, 5.0, &values) >= LEAN_LIMIT - 1e-3);
        assert!(lean_for(cards, 0.0, &values) <= -LEAN_LIMIT + 1e-3);
    }

    #[test]
    fn a_joker_deck_values_its_trumps_from_the_top() {
        use crate::engine::Jokers;
        let classic = trick_values(CardSet::DECK);
        assert_eq!(classic[..52], TRICK_VALUE[..]);
        let value = |jokers: Jokers, card: &str| {
            trick_values(jokers.deck())[card.parse::<Card>().unwrap().index() as usize]
        };
        let top = TRICK_VALUE[51];
        assert_eq!(value(Jokers::Replace2H2C, "BJ"), top);
        assert_eq!(value(Jokers::Replace2H2C, "AS"), TRICK_VALUE[49]);
        assert_eq!(value(Jokers::DeucesHigh, "DD"), TRICK_VALUE[49]);
        assert_eq!(value(Jokers::DeucesHigh, "3S"), TRICK_VALUE[39]);
        assert_eq!(value(Jokers::DeucesHigh, "2S"), 0.0, "not in the deck");
        assert_eq!(value(Jokers::Replace2D2C, "AH"), TRICK_VALUE[38]);
    }
}
