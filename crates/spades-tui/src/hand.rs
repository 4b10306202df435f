//! The player's hand as the table shows it: by suit, colours alternating,
//! highest first, and the keys that pick a card by its place.

use crate::engine::{Card, CardSet, Suit};

use super::theme::Theme;

/// The keys that pick a card by its place in the hand. They skip every
/// letter that is a command (`h l q r t`) so a label never shadows one.
pub const CARD_KEYS: &[u8] = b"1234567890abcdefg";

/// Suits in the order the hand is shown: colours alternate black and red.
pub const HAND_SUITS: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Clubs, Suit::Diamonds];

/// The hand as shown: by suit, highest rank first.
pub fn hand_order(cards: CardSet) -> Vec<Card> {
    HAND_SUITS
        .iter()
        .flat_map(|&suit| cards.suit(suit).iter().rev())
        .collect()
}

/// The cards of a set, as faces, for messages.
pub fn faces(cards: CardSet, theme: &Theme) -> String {
    hand_order(cards)
        .into_iter()
        .map(|c| theme.card(c))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_runs_spades_hearts_clubs_diamonds_high_first() {
        let cards: CardSet = "2C AS 3D KH 9S TC".parse().unwrap();
        let shown: Vec<String> = hand_order(cards).iter().map(|c| c.to_string()).collect();
        assert_eq!(shown, ["AS", "9S", "KH", "TC", "2C", "3D"]);
    }

    #[test]
    fn card_keys_avoid_command_letters() {
        for k in CARD_KEYS {
            assert!(!b"hlmqrtn?".contains(k), "{}", char::from(*k));
        }
        assert_eq!(CARD_KEYS.len(), 17, "one key per card of a cutthroat hand");
    }
}
