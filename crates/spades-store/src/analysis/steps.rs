//! Where a review's verdicts sit in a told game, and the figures the
//! review screens show that follow from the verdicts alone.

use crate::engine::Action;
use crate::story::{StepEvent, Story};

use super::{GameReview, Verdict};

impl GameReview {
    /// The part of the review about hand `hand` alone: what the review of
    /// one finished hand shows.
    pub fn of_hand(&self, hand: u16) -> GameReview {
        GameReview {
            version: self.version,
            seat: self.seat,
            decisions: self
                .decisions
                .iter()
                .filter(|v| v.hand == hand)
                .cloned()
                .collect(),
            hands: self
                .hands
                .iter()
                .filter(|h| h.hand == hand)
                .cloned()
                .collect(),
        }
    }

    /// The step of `story` at which each decision was made, in the order
    /// of `decisions`; `None` for one the story does not show (a hand it
    /// does not tell).
    pub fn steps_in(&self, story: &Story) -> Vec<Option<usize>> {
        self.decisions
            .iter()
            .map(|v| self.step_of(story, v))
            .collect()
    }

    /// A card is the step that played it; a bid the seat's bid; the
    /// exchange the exchange; looking at the cards the seat's bid after it
    /// (or the deal, if the story stops first).
    fn step_of(&self, story: &Story, verdict: &Verdict) -> Option<usize> {
        let index = story
            .hands
            .iter()
            .position(|h| h.hand == u32::from(verdict.hand))?;
        let first = story.hands[index].first_step;
        let end = story
            .hands
            .get(index + 1)
            .map_or(story.steps.len(), |h| h.first_step);
        let found = (first..end).find(|&i| match (verdict.chosen, story.steps[i].event) {
            (Action::Play(card), StepEvent::Play { card: played, .. }) => card == played,
            (Action::Bid(_) | Action::Look, StepEvent::Bid { seat, .. }) => seat == self.seat,
            (Action::Exchange(_), StepEvent::Exchange) => true,
            _ => false,
        });
        match verdict.chosen {
            Action::Look => found.or(Some(first)),
            _ => found,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::analysis::{ANALYSIS_VERSION, Category, Class, HandReview};
    use crate::bots::random::RandomBot;
    use crate::engine::{Decision, Mode, Rules, Seat};
    use crate::fairness::Dealing;
    use crate::record::{GameInfo, MemoryRecord, read_games};
    use crate::table::{Player, Table};

    fn story(seed: u64) -> Story {
        let rules = Rules::classic(Mode::Partnership)
            .with(|r| r.target_score = 100)
            .unwrap();
        let players = (0..4).map(|_| Player::Bot(Box::new(RandomBot))).collect();
        let mut table = Table::new(rules, Dealing::Open(seed), players);
        let out = MemoryRecord::default();
        let names = vec!["a".into(); 4];
        table
            .record_to(Box::new(out.clone()), names, GameInfo::default())
            .unwrap();
        table.run_bots().unwrap();
        drop(table);
        Story::from_record(&read_games(&out.text()).unwrap()[0]).unwrap()
    }

    fn verdict(hand: u32, decision: Decision, chosen: Action, lost: f64) -> Verdict {
        Verdict {
            hand: hand as u16,
            trick: None,
            decision,
            chosen,
            best: chosen,
            win_chosen: 0.5 - lost,
            win_best: 0.5,
            points_chosen: 0.0,
            points_best: 0.0,
            class: None,
            category: Category::Play,
            not_judged: None,
        }
    }

    /// Every bid and card seat 0 made, as verdicts, with the step each was.
    fn every_decision(story: &Story, seat: Seat) -> (GameReview, Vec<Option<usize>>) {
        let mut decisions = Vec::new();
        let mut steps = Vec::new();
        for (i, step) in story.steps.iter().enumerate() {
            let hand = story.hands[step.hand].hand;
            let v = match step.event {
                StepEvent::Bid { seat: s, bid } if s == seat => {
                    verdict(hand, Decision::Bid, Action::Bid(bid), 0.0)
                }
                StepEvent::Play { seat: s, card, .. } if s == seat => {
                    verdict(hand, Decision::Play, Action::Play(card), 0.0)
                }
                _ => continue,
            };
            decisions.push(v);
            steps.push(Some(i));
        }
        let review = GameReview {
            version: ANALYSIS_VERSION,
            seat,
            decisions,
            hands: Vec::new(),
        };
        (review, steps)
    }

    #[test]
    fn each_decision_is_found_at_the_step_that_made_it() {
        let story = story(3);
        let seat = Seat::new(0);
        let (review, steps) = every_decision(&story, seat);
        assert!(review.decisions.len() > 13);
        assert_eq!(review.steps_in(&story), steps);
    }

    #[test]
    fn a_look_is_the_seats_bid_and_a_hand_not_told_has_no_step() {
        let story = story(3);
        let seat = Seat::new(2);
        let hand = story.hands[1].hand;
        let bid_step = (story.hands[1].first_step..)
            .find(|&i| matches!(story.steps[i].event, StepEvent::Bid { seat: s, .. } if s == seat))
            .unwrap();
        let review = GameReview {
            version: ANALYSIS_VERSION,
            seat,
            decisions: vec![
                verdict(hand, Decision::BlindNil, Action::Look, 0.0),
                verdict(99, Decision::Bid, Action::Look, 0.0),
            ],
            hands: Vec::new(),
        };
        assert_eq!(review.steps_in(&story), vec![Some(bid_step), None]);
    }

    #[test]
    fn the_review_of_one_hand_keeps_that_hand_only() {
        let story = story(3);
        let (mut review, _) = every_decision(&story, Seat::new(0));
        review.decisions[0].class = Some(Class::Blunder);
        review.hands = (1..=3)
            .map(|hand| HandReview {
                hand,
                win_after: 0.5,
                points_lost: BTreeMap::new(),
                all_seen: None,
            })
            .collect();
        let two = review.of_hand(2);
        assert!(!two.decisions.is_empty());
        assert!(two.decisions.iter().all(|v| v.hand == 2));
        assert_eq!(two.hands.len(), 1);
        assert_eq!(two.hands[0].hand, 2);
        assert_eq!(
            two.decisions.len(),
            review.decisions.iter().filter(|v| v.hand == 2).count()
        );
    }
}
