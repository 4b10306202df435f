use super::*;
use crate::bots::random::RandomBot;
use crate::engine::RuleSettings;
use crate::fairness::Dealing;
use crate::record::{GameInfo, MemoryRecord, read_games};
use crate::table::{Player, Table};

fn rules(mode: Mode, exchange: bool) -> Rules {
    Rules::new(RuleSettings {
        target_score: 150,
        losing_score: Some(-150),
        ..RuleSettings::classic(mode)
    })
    .and_then(|r| {
        r.with(|r| {
            if exchange {
                r.blind_nil.min_deficit = 0;
            }
        })
    })
    .expect("valid rules")
}

/// A whole game between random bots, as the table records it.
fn recorded(rules: Rules, seed: u64) -> RecordedGame {
    let mode = rules.mode;
    let players = (0..mode.seats())
        .map(|_| Player::Bot(Box::new(RandomBot)))
        .collect();
    let mut table = Table::new(rules, Dealing::Open(seed), players);
    let out = MemoryRecord::default();
    let names = (0..mode.seats()).map(|s| format!("Bot {s}")).collect();
    table
        .record_to(Box::new(out.clone()), names, GameInfo::default())
        .unwrap();
    table.run_bots().unwrap();
    drop(table);
    read_games(&out.text()).unwrap().remove(0)
}

fn events(game: &RecordedGame) -> Vec<Event> {
    game.events.iter().map(|(_, e)| e.clone()).collect()
}

#[test]
fn every_hand_steps_from_its_deal_to_its_score() {
    for mode in Mode::ALL {
        let game = recorded(rules(mode, false), 5);
        let story = Story::from_record(&game).unwrap();
        let deals = events(&game)
            .into_iter()
            .filter(|e| matches!(e, Event::Deal { .. }))
            .count();
        assert_eq!(story.hands.len(), deals, "{mode}");
        for (i, hand) in story.hands.iter().enumerate() {
            let last = story
                .hands
                .get(i + 1)
                .map_or(story.steps.len(), |h| h.first_step);
            let steps = &story.steps[hand.first_step..last];
            let cards = mode.seats() * mode.hand_size();
            // The deal, a bid a player, every card, the score.
            assert_eq!(steps.len(), 1 + mode.players() + cards + 1, "{mode}");
            assert_eq!(steps[0].event, StepEvent::Dealt);
            assert_eq!(steps[0].held, hand.dealt);
            assert_eq!(steps.last().unwrap().event, StepEvent::Scored);
            assert!(steps.last().unwrap().held.iter().all(|h| h.is_empty()));
            let result = hand.result.as_ref().unwrap();
            assert_eq!(steps.last().unwrap().tricks_won, result.tricks);
            assert_eq!(hand.tricks.len(), mode.hand_size());
            // Every card leaves exactly one hand, one step at a time.
            for pair in steps.windows(2) {
                if let StepEvent::Play { seat, card, .. } = pair[1].event {
                    assert!(pair[0].held[seat].contains(card));
                    assert!(!pair[1].held[seat].contains(card));
                    assert_eq!(pair[1].table[seat], Some(card));
                }
            }
        }
    }
}

#[test]
fn tricks_and_scores_are_the_records() {
    let game = recorded(rules(Mode::Partnership, false), 9);
    let story = Story::from_record(&game).unwrap();
    let winners: Vec<Seat> = events(&game)
        .iter()
        .filter_map(|e| match e {
            Event::Trick { winner, .. } => Some(*winner),
            _ => None,
        })
        .collect();
    let told: Vec<Seat> = story
        .hands
        .iter()
        .flat_map(|h| h.tricks.iter().map(|t| t.winner))
        .collect();
    assert_eq!(told, winners);
    let scores: Vec<Vec<i32>> = events(&game)
        .iter()
        .filter_map(|e| match e {
            Event::Score { sides, .. } => Some(sides.iter().map(|s| s.score).collect()),
            _ => None,
        })
        .collect();
    let scored: Vec<Vec<i32>> = story
        .steps
        .iter()
        .filter(|s| s.event == StepEvent::Scored)
        .map(|s| s.totals.iter().map(|t| t.score).collect())
        .collect();
    assert_eq!(scored, scores);
    let Some((_, Event::End { winner, scores })) = game.events.last() else {
        panic!("the game ended");
    };
    assert_eq!(story.end, Some((*winner, scores.clone())));
}

#[test]
fn every_contract_is_made_or_set_once_and_as_the_score_says() {
    for mode in Mode::ALL {
        for seed in 0..6 {
            let story = Story::from_record(&recorded(rules(mode, true), seed)).unwrap();
            for hand in &story.hands {
                let result = hand.result.as_ref().unwrap();
                for (side, score) in result.sides.pairs() {
                    let decided: Vec<&Mark> = hand
                        .marks
                        .iter()
                        .filter(|m| m.side == side && !matches!(m.what, Reached::NilBroken { .. }))
                        .collect();
                    match score.contract {
                        None => assert!(decided.is_empty()),
                        Some(contract) => {
                            assert_eq!(decided.len(), 1, "{mode} seed {seed}");
                            let made = matches!(decided[0].what, Reached::Made { .. });
                            assert_eq!(made, contract.made(), "{mode} seed {seed}");
                        }
                    }
                    for nil in score.nils.iter().flatten() {
                        let broken = hand
                            .marks
                            .iter()
                            .any(|m| m.what == Reached::NilBroken { seat: nil.seat });
                        assert_eq!(broken, !nil.made(), "{mode} seed {seed}");
                    }
                }
            }
        }
    }
}

fn trick(winner: usize) -> TrickDone {
    TrickDone {
        leader: Seat::new(0),
        cards: PerSeat::filled(Mode::Partnership, None),
        winner: Seat::new(winner),
    }
}

#[test]
fn made_when_the_last_trick_bid_is_taken_and_set_when_too_few_are_left() {
    let mode = Mode::Partnership;
    // Us (0 and 2) bid 4 + nil; them (1 and 3) bid 9.
    let bids = PerSeat::from_slice(&[
        Some(Bid::Tricks(4)),
        Some(Bid::Tricks(5)),
        Some(Bid::Nil),
        Some(Bid::Tricks(4)),
    ])
    .unwrap();
    // Seat 0 takes the first four; seat 2 (the nil) the fifth: its
    // tricks never count toward the contract. Then they take the rest,
    // so by trick 5 they can take at most 8 of 9.
    let order = [0, 0, 0, 0, 2, 1, 3, 1, 3, 1, 3, 1, 3];
    let tricks: Vec<TrickDone> = order.iter().map(|&w| trick(w)).collect();
    let marks = marks(
        &Rules::classic(mode),
        Teams::new(mode, None),
        &bids,
        &tricks,
    );
    assert_eq!(
        marks,
        [
            Mark {
                trick: 4,
                side: Side::new(0),
                what: Reached::Made { bid: 4 }
            },
            Mark {
                trick: 5,
                side: Side::new(0),
                what: Reached::NilBroken { seat: Seat::new(2) }
            },
            Mark {
                trick: 5,
                side: Side::new(1),
                what: Reached::Set {
                    bid: 9,
                    taken: 0,
                    left: 8
                }
            },
        ]
    );
}

#[test]
fn a_seats_review_is_the_records_story_of_that_hand() {
    // Seed 17's partnership game has an exchange seat 0 takes part in
    // (hand 6) and one between the others (hand 8).
    let (mut seen_passes, mut unseen_passes) = (0, 0);
    for (mode, seed) in [
        (Mode::Partnership, 17),
        (Mode::Cutthroat, 3),
        (Mode::Individual, 3),
    ] {
        let game = recorded(rules(mode, true), seed);
        let whole = Story::from_record(&game).unwrap();
        let replayed = record::replay(&game).unwrap();
        let seat = Seat::new(0);
        let seen: Vec<SeatEvent> = events(&game).iter().map(|e| e.seen_by(seat)).collect();
        for (i, result) in replayed.game.results().iter().enumerate() {
            let one =
                Story::of_hand(whole.rules, whole.names.clone(), seat, &seen, result).unwrap();
            let hand = &whole.hands[i];
            let told = &one.hands[0];
            let unseen = told.passes.iter().any(|p| p.cards.is_none());
            if unseen {
                unseen_passes += 1;
            } else if !told.passes.is_empty() {
                seen_passes += 1;
            }
            assert_eq!(told.out, hand.out);
            assert_eq!(told.tricks, hand.tricks);
            assert_eq!(told.marks, hand.marks);
            assert_eq!(told.before, hand.before);
            let last = whole
                .hands
                .get(i + 1)
                .map_or(whole.steps.len(), |h| h.first_step);
            let steps: Vec<Step> = whole.steps[hand.first_step..last]
                .iter()
                .map(|s| Step { hand: 0, ..*s })
                .collect();
            if unseen {
                // The cards passed were not shown to this seat: only
                // what the two seats held before the exchange differs.
                let from_exchange = |s: &[Step]| {
                    s.iter()
                        .skip_while(|s| s.event != StepEvent::Exchange)
                        .copied()
                        .collect::<Vec<_>>()
                };
                assert!(!from_exchange(&steps).is_empty());
                assert_eq!(from_exchange(&one.steps), from_exchange(&steps));
                assert_ne!(told.dealt, hand.dealt);
            } else {
                assert_eq!(told.dealt, hand.dealt, "{mode} hand {}", i + 1);
                assert_eq!(one.steps, steps, "{mode} hand {}", i + 1);
            }
        }
    }
    assert!(seen_passes > 0 && unseen_passes > 0);
}

#[test]
fn a_hand_not_over_is_not_reviewed() {
    let game = recorded(rules(Mode::Partnership, false), 1);
    let replayed = record::replay(&game).unwrap();
    let seat = Seat::new(0);
    let seen: Vec<SeatEvent> = events(&game)
        .iter()
        .map(|e| e.seen_by(seat))
        .filter(|e| !matches!(e, SeatEvent::Play { hand: 1, seat, .. } if seat.index() == 3))
        .collect();
    let result = &replayed.game.results()[0];
    let err = Story::of_hand(*replayed.game.rules(), vec![], seat, &seen, result).unwrap_err();
    assert!(err.contains("not over"), "{err}");
}

#[test]
fn a_record_cut_mid_hand_tells_the_hand_so_far() {
    let game = recorded(rules(Mode::Cutthroat, false), 2);
    let mut cut = game.clone();
    // Up to the tenth card of the second hand: no closing line.
    let second = cut
        .events
        .iter()
        .position(|(_, e)| matches!(e, Event::Deal { hand: 2, .. }))
        .unwrap();
    let tenth = cut.events[second..]
        .iter()
        .enumerate()
        .filter(|(_, (_, e))| matches!(e, Event::Play { .. }))
        .nth(9)
        .map(|(i, _)| second + i)
        .unwrap();
    cut.events.truncate(tenth + 1);
    cut.reveal = None;
    let story = Story::from_record(&cut).unwrap();
    assert_eq!(story.hands.len(), 2);
    assert!(story.hands[1].result.is_none());
    assert!(story.end.is_none());
    let last = story.steps.last().unwrap();
    assert!(matches!(last.event, StepEvent::Play { .. }));
    assert_eq!(
        last.totals,
        story.steps[story.hands[0].first_step..]
            .iter()
            .find(|s| s.event == StepEvent::Scored)
            .unwrap()
            .totals
    );
}
