//! The bidding house rules and bidding games, worked by hand: `min_bid`,
//! the board, "10 for 200" (`double_at`), mirror, suicide and whiz, blind
//! numeric bids, the Boston and the nil pass. Each example states the rule,
//! the bids and tricks, and the points computed by hand (README, "House
//! rules and variants"). Random games with the keys on, and errors planted
//! in their records, are in `bidding_games`.

use spades::engine::score::score_side;
use spades::engine::{
    Action, Bid, BidError, BiddingGame, BlindBidRefusal, BlindNilRefusal, CardSet, Deal, Decision,
    Event, Game, Mode, PerSeat, Phase, RuleError, Rules, Seat, Side, SideTotals, Suit,
};

const ALEX: Seat = Seat::new(0);
const BETH: Seat = Seat::new(1);
const CHARLIE: Seat = Seat::new(2);
const DAVID: Seat = Seat::new(3);

fn set(s: &str) -> CardSet {
    s.parse().expect("cards")
}

/// The default rules with `change` made.
pub(crate) fn rules(change: impl FnOnce(&mut spades::engine::RuleSettings)) -> Rules {
    Rules::default().with(change).expect("valid rules")
}

/// A partnership game on `deal` (and a spare), David dealing: Alex bids first.
fn game_on(rules: Rules, deal: Deal) -> Game {
    let spare = Deal::from_seed(1, 2, Mode::Partnership, ALEX);
    Game::with_deals(rules, DAVID, vec![deal, spare])
}

/// A partnership game on a seeded deal, David dealing.
fn seeded(rules: Rules, seed: u64) -> Game {
    game_on(rules, Deal::from_seed(seed, 1, Mode::Partnership, DAVID))
}

/// Bids in turn from Alex; panics naming the bid the game refuses.
fn bid_all(game: &mut Game, bids: &[Bid]) {
    for &bid in bids {
        let seat = game.to_act().expect("a bidder").seat;
        game.apply(seat, Action::Bid(bid))
            .unwrap_or_else(|e| panic!("seat {seat} bids {bid}: {e}"));
    }
}

fn bid_error(game: &Game, bid: Bid) -> BidError {
    let seat = game.to_act().expect("a bidder").seat;
    match game.clone().apply(seat, Action::Bid(bid)) {
        Err(RuleError::Bid(e)) => e,
        other => panic!("{bid} should be refused, got {other:?}"),
    }
}

fn spades_of(game: &Game, seat: Seat) -> u8 {
    game.dealt().hands[seat].suit(Suit::Spades).len() as u8
}

fn before(score: i32, bags: i32) -> SideTotals {
    SideTotals { score, bags }
}

// ------------------------------------------------------------------ min_bid

/// `bidding.min_bid = 2`: no bid of 1; nil is still nil.
#[test]
fn min_bid_2_refuses_a_bid_of_1_but_not_nil() {
    let mut game = seeded(rules(|r| r.bidding.min_bid = 2), 5);
    assert_eq!(
        bid_error(&game, Bid::Tricks(1)),
        BidError::BelowMin { min: 2 }
    );
    let allowed = game.view(ALEX).allowed_bids();
    assert!(!allowed.contains(&Bid::Tricks(1)));
    assert!(allowed.contains(&Bid::Tricks(2)) && allowed.contains(&Bid::Nil));
    bid_all(
        &mut game,
        &[Bid::Nil, Bid::Tricks(2), Bid::Tricks(3), Bid::Tricks(13)],
    );
    assert_eq!(game.phase(), Phase::Playing);
}

// ------------------------------------------------------------------ the board

/// `bidding.board = 4`: Alex bids 1; Charlie, his side's second bidder,
/// must bring the side to 4, so 3 or more; Beth bids nil and David must
/// bid 4 (a nil adds 0). Both sides then have their board.
#[test]
fn the_board_binds_the_second_bidder_of_a_side() {
    let mut game = seeded(rules(|r| r.bidding.board = 4), 7);
    bid_all(&mut game, &[Bid::Tricks(1), Bid::Nil]);
    assert_eq!(
        bid_error(&game, Bid::Tricks(2)),
        BidError::Board {
            board: 4,
            partner: Bid::Tricks(1),
            need: 3
        }
    );
    assert_eq!(
        bid_error(&game, Bid::Nil).to_string(),
        "your side's bids must reach the board of 4: your partner bid 1, so bid at least 3"
    );
    bid_all(&mut game, &[Bid::Tricks(3)]);
    let allowed = game.view(DAVID).allowed_bids();
    assert_eq!(allowed.first(), Some(&Bid::Tricks(4)));
    assert!(!allowed.contains(&Bid::Nil));
    bid_all(&mut game, &[Bid::Tricks(4)]);
    assert_eq!(game.phase(), Phase::Playing);
}

/// A first bid that reaches the board alone leaves the partner free, nil
/// included.
#[test]
fn a_first_bid_at_the_board_frees_the_partner() {
    let mut game = seeded(rules(|r| r.bidding.board = 4), 7);
    bid_all(
        &mut game,
        &[Bid::Tricks(5), Bid::Tricks(4), Bid::Nil, Bid::Tricks(1)],
    );
    assert_eq!(game.phase(), Phase::Playing);
}

// ------------------------------------------------------------------ 10 for 200

/// `bidding.double_at = 10`: a side bidding 6 + 4 = 10 that takes 11 scores
/// 20 × 10 + 1 bag = 201; set at 9 tricks it loses 200. A side bidding 9
/// is scored as usual (taking 9: 90).
#[test]
fn ten_for_two_hundred_doubles_the_contract_made_or_set() {
    let r = rules(|r| r.bidding.double_at = 10);
    let side = |bids: [(Bid, u8); 2]| {
        let seats = [
            (ALEX, bids[0].0, bids[0].1),
            (CHARLIE, bids[1].0, bids[1].1),
        ];
        score_side(&r, &seats, before(0, 0))
    };
    let made = side([(Bid::Tricks(6), 7), (Bid::Tricks(4), 4)]);
    assert_eq!((made.points, made.bags_added), (201, 1));
    let set_ = side([(Bid::Tricks(6), 5), (Bid::Tricks(4), 4)]);
    assert_eq!((set_.points, set_.bags_added), (-200, 0));
    let nine = side([(Bid::Tricks(5), 5), (Bid::Tricks(4), 4)]);
    assert_eq!(nine.points, 90);
    // A nil beside it: 10 alone, made with 10, plus the nil's 100.
    let with_nil = side([(Bid::Tricks(10), 10), (Bid::Nil, 0)]);
    assert_eq!(with_nil.points, 200 + 100);
}

/// With `set_penalty = "bid_and_short"` as well, a doubled contract set
/// doubles the short part too: bid 10, took 9, -200 - 20; and a blind
/// number's doubled contract the same.
#[test]
fn a_doubled_contract_set_doubles_the_tricks_short_too() {
    let r = rules(|r| {
        r.bidding.double_at = 10;
        r.scoring.set_penalty = spades::engine::SetPenalty::BidAndShort;
    });
    let seats = [(ALEX, Bid::Tricks(6), 5), (CHARLIE, Bid::Tricks(4), 4)];
    assert_eq!(score_side(&r, &seats, before(0, 0)).points, -220);
    // A blind number's contract likewise: blind 6 and 2, took 7.
    let blind = [(ALEX, Bid::Blind(6), 5), (CHARLIE, Bid::Tricks(2), 2)];
    assert_eq!(score_side(&r, &blind, before(0, 0)).points, -160 - 20);
}

// ------------------------------------------------------------------ blind bids

/// `[blind_bid]` on, `min = 6`, `min_deficit = 100`: Alex's side trails
/// 150 to 300, so before looking Alex may bid blind 6 to 13 (not 5). Blind
/// 6 beside Charlie's 2 is a contract of 8, scored double: taking 9 it is
/// 20 × 8 + 1 = 161; taking 7 it is set, -160. With `double_at = 8` as
/// well it is still doubled once: 161.
#[test]
fn a_blind_bid_is_offered_face_down_and_doubles_the_side_contract() {
    let r = rules(|r| {
        r.blind_bid.allowed = true;
        r.blind_nil.allowed = false;
    });
    // Level scores: no blind bid, the cards are face up at once.
    let game = seeded(r, 3);
    assert_eq!(game.to_act().map(|t| t.decision), Some(Decision::Bid));
    assert_eq!(
        game.view(ALEX).check_bid(Bid::Blind(6)),
        Err(BidError::Blind(BlindBidRefusal::NotTrailing {
            deficit: 0,
            needed: 100
        }))
    );

    let seats = |alex: u8, charlie: u8| {
        [
            (ALEX, Bid::Blind(6), alex),
            (CHARLIE, Bid::Tricks(2), charlie),
        ]
    };
    let made = score_side(&r, &seats(6, 3), before(150, 0));
    assert_eq!((made.points, made.bags_added, made.score), (161, 1, 311));
    let set_ = score_side(&r, &seats(4, 3), before(150, 0));
    assert_eq!(set_.points, -160);
    let both = r.with(|r| r.bidding.double_at = 8).unwrap();
    assert_eq!(score_side(&both, &seats(6, 3), before(150, 0)).points, 161);
}

/// Played through the game: a side 100 behind sees the blind offer first.
#[test]
fn a_trailing_side_is_offered_blind_numbers_before_looking() {
    let r = rules(|r| {
        r.blind_bid.allowed = true;
        r.blind_nil.allowed = false;
        r.target_score = 500;
    });
    // One hand in which Beth and David make 10 and Alex and Charlie are set.
    let game = play_until_trailing(r);
    let seat = game.to_act().expect("a bidder").seat;
    let view = game.view(seat);
    assert_eq!(game.to_act().map(|t| t.decision), Some(Decision::BlindNil));
    assert_eq!(view.hand, None, "the cards lie face down");
    let blind = view.blind_bids();
    assert_eq!(blind, (6..=13).map(Bid::Blind).collect::<Vec<_>>());
    assert_eq!(
        view.check_bid(Bid::Blind(5)),
        Err(BidError::Blind(BlindBidRefusal::TooLow { min: 6 }))
    );
    // Looking gives them up.
    let mut looked = game.clone();
    looked.apply(seat, Action::Look).unwrap();
    assert_eq!(
        looked.view(seat).check_bid(Bid::Blind(6)),
        Err(BidError::Blind(BlindBidRefusal::AlreadyLooked))
    );
    let mut blind_six = game;
    let events = blind_six.apply(seat, Action::Bid(Bid::Blind(6))).unwrap();
    let json = spades::record::RecordLine::of(&events[0]).json();
    assert!(json.contains(r#""bid":"blind_6""#), "{json}");
}

/// A game played by fixed bids until some side trails by 100 or more at a
/// deal, and then stopped at that deal's first bid.
fn play_until_trailing(r: Rules) -> Game {
    for seed in 0..200 {
        let mut game = Game::new(r, seed);
        for _ in 0..6 {
            while let Some(turn) = game.to_act() {
                let action = match turn.decision {
                    Decision::BlindNil => Action::Look,
                    Decision::Bid => Action::Bid(Bid::Tricks(3)),
                    Decision::Exchange => unreachable!("no nils bid"),
                    Decision::Play => {
                        Action::Play(game.view(turn.seat).legal_plays().lowest().unwrap())
                    }
                };
                game.apply(turn.seat, action).unwrap();
            }
            game.deal_next_hand();
            if game.to_act().map(|t| t.decision) == Some(Decision::BlindNil) {
                return game;
            }
        }
    }
    panic!("no side fell 100 behind");
}

// ------------------------------------------------------------------ mirror

/// `bidding.game = "mirror"`: each bids its spade count, no spade is nil;
/// blind nil is not offered.
#[test]
fn in_mirror_every_bid_is_the_spade_count() {
    let r = rules(|r| {
        r.bidding.game = BiddingGame::Mirror;
        r.blind_nil.min_deficit = 0;
    });
    let mut game = seeded(r, 11);
    for _ in 0..4 {
        let seat = game.to_act().expect("a bidder").seat;
        assert_eq!(game.to_act().unwrap().decision, Decision::Bid);
        let count = spades_of(&game, seat);
        let forced = if count == 0 {
            Bid::Nil
        } else {
            Bid::Tricks(count)
        };
        let view = game.view(seat);
        assert_eq!(view.allowed_bids(), vec![forced]);
        assert_eq!(
            view.blind_nil_refusal(),
            Some(BlindNilRefusal::Game(BiddingGame::Mirror))
        );
        let other = if count == 1 {
            Bid::Tricks(2)
        } else {
            Bid::Tricks(1)
        };
        assert_eq!(
            bid_error(&game, other).to_string(),
            format!("in mirror you bid your spade count: {forced}")
        );
        game.apply(seat, Action::Bid(forced)).unwrap();
    }
    // The partnership's bids are the spades dealt: 13 in all.
    let bids = game.auction().bids();
    let total: u32 = bids.iter().flatten().map(|b| u32::from(b.tricks())).sum();
    assert_eq!(total, 13);
}

/// A seat's view knows its own spade count, never another's.
#[test]
fn a_view_holds_no_other_seat_spade_count() {
    let r = rules(|r| r.bidding.game = BiddingGame::Mirror);
    let game = seeded(r, 11);
    let view = game.view(BETH);
    let alex = spades_of(&game, ALEX);
    // Alex's bid cannot be judged from Beth's view: any number passes.
    let other = if alex == 5 { 4 } else { 5 };
    assert!(view.auction.check(ALEX, Bid::Tricks(other)).is_ok());
    assert!(game.auction().check(ALEX, Bid::Tricks(other)).is_err());
}

// ------------------------------------------------------------------ whiz

/// `bidding.game = "whiz"`: nil or the spade count, nothing else.
#[test]
fn in_whiz_a_bid_is_nil_or_the_spade_count() {
    let r = rules(|r| r.bidding.game = BiddingGame::Whiz);
    let game = seeded(r, 12);
    let count = spades_of(&game, ALEX);
    let mut want = vec![Bid::Nil];
    if count > 0 {
        want.insert(0, Bid::Tricks(count));
    }
    assert_eq!(game.view(ALEX).allowed_bids(), want);
    let wrong = Bid::Tricks(if count == 3 { 4 } else { 3 });
    assert_eq!(bid_error(&game, wrong), BidError::Whiz { spades: count });
}

// ------------------------------------------------------------------ suicide

/// `bidding.game = "suicide"`, `suicide_min = 4`: Alex bids 5, so Charlie
/// must bid nil; Beth bids nil, so David must bid 4 or more. Scored as
/// usual: Alex takes 6 (Charlie none): 51 + 100.
#[test]
fn in_suicide_one_partner_bids_nil_and_the_other_at_least_four() {
    let r = rules(|r| r.bidding.game = BiddingGame::Suicide);
    let mut game = seeded(r, 13);
    assert!(matches!(
        bid_error(&game, Bid::Tricks(3)),
        BidError::Suicide { min: 4, .. }
    ));
    bid_all(&mut game, &[Bid::Tricks(5), Bid::Nil]);
    assert_eq!(game.view(CHARLIE).allowed_bids(), vec![Bid::Nil]);
    assert_eq!(
        bid_error(&game, Bid::Tricks(4)).to_string(),
        "in suicide one partner bids nil and the other at least 4: \
         your partner bid a number, so you bid nil"
    );
    bid_all(&mut game, &[Bid::Nil]);
    let david = game.view(DAVID).allowed_bids();
    assert_eq!(david, (4..=13).map(Bid::Tricks).collect::<Vec<_>>());
    bid_all(&mut game, &[Bid::Tricks(4)]);
    assert_eq!(game.phase(), Phase::Playing);
    let seats = [(ALEX, Bid::Tricks(5), 6), (CHARLIE, Bid::Nil, 0)];
    assert_eq!(score_side(&r, &seats, before(0, 0)).points, 151);
}

/// With a board above `suicide_min`, the numeric bid reaches the board.
#[test]
fn in_suicide_the_number_reaches_the_board_too() {
    let r = rules(|r| {
        r.bidding.game = BiddingGame::Suicide;
        r.bidding.board = 5;
    });
    let mut game = seeded(r, 13);
    bid_all(&mut game, &[Bid::Nil]);
    let beth = game.view(BETH).allowed_bids();
    assert_eq!(beth.first(), Some(&Bid::Tricks(5)));
    bid_all(&mut game, &[Bid::Tricks(5), Bid::Tricks(5), Bid::Nil]);
    assert_eq!(game.phase(), Phase::Playing);
}

// ------------------------------------------------------------------ Boston

/// A Boston: Alex holds every spade and bids 13, Charlie bids nil; Alex
/// takes all 13 tricks. With `boston.bonus = 200`: 130 + 200 + the nil's
/// 100 = 430. With `wins_game` the game ends at once, 430 to -80 short of
/// the 500 target.
#[test]
fn a_boston_scores_its_bonus_and_can_win_the_game() {
    let deal = Deal {
        hands: PerSeat::from_slice(&[
            set("AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S"),
            set("AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H"),
            set("AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D"),
            set("AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C"),
        ])
        .unwrap(),
        out: CardSet::EMPTY,
    };
    let bids = [Bid::Tricks(13), Bid::Tricks(4), Bid::Nil, Bid::Tricks(4)];
    for wins in [false, true] {
        let r = rules(|r| {
            r.boston.bonus = 200;
            r.boston.wins_game = wins;
        });
        let mut game = game_on(r, deal);
        bid_all(&mut game, &bids);
        let mut events = Vec::new();
        while let Some(turn) = game.to_act() {
            let card = game.view(turn.seat).legal_plays().lowest().unwrap();
            events.extend(game.apply(turn.seat, Action::Play(card)).unwrap());
        }
        let result = &game.results()[0];
        assert_eq!(result.tricks[ALEX], 13);
        assert_eq!(result.sides[Side::new(0)].points, 430);
        assert_eq!(result.sides[Side::new(1)].points, -80);
        let ended = events.iter().find_map(|e| match e {
            Event::End { winner, scores } => Some((*winner, scores.clone())),
            _ => None,
        });
        if wins {
            assert_eq!(ended, Some((Side::new(0), vec![430, -80])));
        } else {
            assert_eq!(ended, None);
            assert_eq!(game.phase(), Phase::AwaitingDeal);
        }
    }
}

// ------------------------------------------------------------------ the nil pass

/// `nil.pass = 2`: Alex bids nil, Charlie 4: after the bidding they swap
/// two cards each, at once, as the blind-nil exchange does. Beside a blind
/// nil the blind-nil exchange (3 here) is made instead; two plain nils swap
/// nothing.
#[test]
fn the_nil_pass_swaps_cards_with_the_numeric_partner() {
    let r = rules(|r| {
        r.nil.pass = 2;
        r.blind_nil.exchange = 3;
    });
    let mut game = seeded(r, 21);
    bid_all(
        &mut game,
        &[Bid::Nil, Bid::Tricks(3), Bid::Tricks(4), Bid::Tricks(3)],
    );
    assert_eq!(game.phase(), Phase::Exchange);
    assert!(game.owes_exchange(ALEX) && game.owes_exchange(CHARLIE));
    assert!(!game.owes_exchange(BETH) && !game.owes_exchange(DAVID));
    assert_eq!(game.view(ALEX).exchange.map(|e| e.count), Some(2));
    let alex = game.dealt().hands[ALEX];
    let charlie = game.dealt().hands[CHARLIE];
    let from_alex: CardSet = alex.iter().rev().take(2).collect();
    let from_charlie: CardSet = charlie.iter().take(2).collect();
    let three: CardSet = alex.iter().take(3).collect();
    assert_eq!(
        game.clone().apply(ALEX, Action::Exchange(three)),
        Err(RuleError::ExchangeCount {
            expected: 2,
            got: 3
        })
    );
    assert!(
        game.apply(ALEX, Action::Exchange(from_alex))
            .unwrap()
            .is_empty()
    );
    let events = game.apply(CHARLIE, Action::Exchange(from_charlie)).unwrap();
    assert_eq!(events.len(), 2);
    assert_eq!(game.phase(), Phase::Playing);
    assert_eq!(
        game.view(ALEX).cards(),
        alex.minus(from_alex).union(from_charlie)
    );

    // Two nils on a side swap nothing.
    let mut both = seeded(r, 21);
    bid_all(
        &mut both,
        &[Bid::Nil, Bid::Tricks(3), Bid::Nil, Bid::Tricks(3)],
    );
    assert_eq!(both.phase(), Phase::Playing);
    // No pass in cutthroat: the key is refused there.
    let refused = Rules::classic(Mode::Cutthroat).with(|r| r.nil.pass = 1);
    assert_eq!(refused.unwrap_err().key, "nil.pass");
}

#[test]
fn beside_a_blind_nil_the_blind_exchange_is_made_instead() {
    let r = rules(|r| {
        r.nil.pass = 2;
        r.blind_nil.exchange = 3;
    });
    let swaps = |a: Bid, b: Bid| r.swap_size(a, b);
    assert_eq!(swaps(Bid::Nil, Bid::Tricks(4)), 2);
    assert_eq!(swaps(Bid::Tricks(4), Bid::Nil), 2);
    assert_eq!(swaps(Bid::Nil, Bid::Blind(6)), 2);
    assert_eq!(swaps(Bid::Nil, Bid::BlindNil), 3);
    assert_eq!(swaps(Bid::BlindNil, Bid::Tricks(4)), 3);
    assert_eq!(swaps(Bid::BlindNil, Bid::BlindNil), 0);
    assert_eq!(swaps(Bid::Nil, Bid::Nil), 0);
    assert_eq!(swaps(Bid::Tricks(3), Bid::Tricks(4)), 0);
}

/// The classic rules (no nil pass): a blind nil beside the partner's plain
/// nil still makes the blind-nil exchange, as the rules players wrote say
/// (the exchange follows a blind nil unless both partners bid blind nil).
#[test]
fn a_blind_nil_beside_a_plain_nil_makes_the_exchange() {
    let r = rules(|r| r.blind_nil.min_deficit = 0);
    let mut game = seeded(r, 21);
    for bid in [Bid::BlindNil, Bid::Tricks(3), Bid::Nil, Bid::Tricks(3)] {
        let turn = game.to_act().expect("a bidder");
        if bid != Bid::BlindNil && turn.decision == Decision::BlindNil {
            game.apply(turn.seat, Action::Look).unwrap();
        }
        game.apply(turn.seat, Action::Bid(bid)).unwrap();
    }
    assert_eq!(game.phase(), Phase::Exchange);
    assert!(game.owes_exchange(ALEX) && game.owes_exchange(CHARLIE));
    assert!(!game.owes_exchange(BETH) && !game.owes_exchange(DAVID));
    assert_eq!(game.view(CHARLIE).exchange.map(|e| e.count), Some(2));
}

// ------------------------------------------------------------------ rules that cannot be played

#[test]
fn combinations_that_cannot_be_played_are_refused_naming_the_key() {
    let refused = |mode: Mode, change: fn(&mut spades::engine::RuleSettings)| {
        Rules::classic(mode).with(change).unwrap_err().key
    };
    use BiddingGame::*;
    let p = Mode::Partnership;
    assert_eq!(
        refused(Mode::Cutthroat, |r| r.bidding.game = Suicide),
        "bidding.game"
    );
    assert_eq!(
        refused(Mode::Individual, |r| r.bidding.board = 4),
        "bidding.board"
    );
    assert_eq!(
        refused(p, |r| {
            r.bidding.game = Mirror;
            r.nil.allowed = false;
        }),
        "nil.allowed"
    );
    assert_eq!(
        refused(p, |r| {
            r.bidding.game = Suicide;
            r.bidding.forbid_exact_total = true;
        }),
        "bidding.forbid_exact_total"
    );
    assert_eq!(
        refused(p, |r| {
            r.bidding.game = Whiz;
            r.blind_bid.allowed = true;
        }),
        "blind_bid.allowed"
    );
    assert_eq!(
        refused(p, |r| {
            r.bidding.game = Mirror;
            r.bidding.min_bid = 2;
        }),
        "bidding.min_bid"
    );
    assert_eq!(
        refused(p, |r| {
            r.bidding.game = Whiz;
            r.bidding.board = 4;
        }),
        "bidding.board"
    );
    assert_eq!(refused(p, |r| r.bidding.min_bid = 13), "bidding.min_bid");
    assert_eq!(refused(p, |r| r.bidding.board = 14), "bidding.board");
    assert_eq!(refused(p, |r| r.nil.pass = 4), "nil.pass");
    assert_eq!(refused(p, |r| r.blind_bid.min = 0), "blind_bid.min");
    assert_eq!(refused(p, |r| r.boston.bonus = -1), "boston.bonus");
    // Cutthroat has 17 cards a hand.
    assert!(
        Rules::classic(Mode::Cutthroat)
            .with(|r| r.bidding.min_bid = 16)
            .is_ok()
    );
}
