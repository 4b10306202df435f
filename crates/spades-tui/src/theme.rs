//! How things look: suit glyphs (Unicode or plain letters), colours, and
//! border sets. `NO_COLOR` turns colour off but keeps bold/dim/reverse, so
//! legal cards and the cursor stay visible without colour.

use ratatui::style::{Color, Modifier, Style};
use ratatui::symbols::border;

use crate::config::preferences::Preferences;
use crate::engine::{Card, Suit};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Theme {
    /// Plain letters `S H D C` and `+-|` borders instead of Unicode.
    pub ascii: bool,
    pub color: bool,
    /// A colour a suit (`--four-color`): spades black, hearts red, diamonds
    /// blue, clubs green, so no two suits share one.
    pub four_color: bool,
    /// The high-contrast theme (`--high-contrast`): bright colours on
    /// black, bold where the classic theme dims.
    pub high_contrast: bool,
    /// How a card is named in sentences: its face (`10♠`, `10S`), or in
    /// words ("ten of spades") for the screen-reader mode.
    pub card_names: CardNames,
}

/// How a card is named: its printed face, or words a speech synthesiser
/// reads as a player would say them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CardNames {
    #[default]
    Faces,
    Words,
}

/// Borders drawable on any terminal.
const ASCII_BORDER: border::Set<'static> = border::Set {
    top_left: "+",
    top_right: "+",
    bottom_left: "+",
    bottom_right: "+",
    vertical_left: "|",
    vertical_right: "|",
    horizontal_top: "-",
    horizontal_bottom: "-",
};

/// The winner's card in a finished trick, in plain text.
const ASCII_WINNER: border::Set<'static> = border::Set {
    top_left: "*",
    top_right: "*",
    bottom_left: "*",
    bottom_right: "*",
    vertical_left: "|",
    vertical_right: "|",
    horizontal_top: "=",
    horizontal_bottom: "=",
};

impl Theme {
    /// The theme the environment asks for: `ascii` when the player said so
    /// or the locale cannot show suit symbols; no colour when `NO_COLOR` is set.
    pub fn from_env(ascii: bool) -> Theme {
        Theme::from_vars(ascii, |name| std::env::var(name).ok())
    }

    /// The theme for a player: the environment's, with the colours their
    /// preferences ask for (the four-colour deck, high contrast).
    pub fn for_player(ascii: bool, preferences: &Preferences) -> Theme {
        Theme {
            four_color: preferences.four_color,
            high_contrast: preferences.high_contrast,
            ..Theme::from_env(ascii)
        }
    }

    /// The theme given a way to read environment variables.
    fn from_vars(ascii: bool, var: impl Fn(&str) -> Option<String>) -> Theme {
        Theme {
            ascii: ascii || !locale_is_utf8(var("LC_ALL"), var("LC_CTYPE"), var("LANG")),
            // no-color.org: set and not empty turns colour off.
            color: var("NO_COLOR").is_none_or(|v| v.is_empty()),
            ..Theme::PLAIN
        }
    }

    /// Plain text, no colour: what snapshot tests draw.
    pub const PLAIN: Theme = Theme {
        ascii: true,
        color: false,
        four_color: false,
        high_contrast: false,
        card_names: CardNames::Faces,
    };

    /// Suit symbols without colour: what snapshot tests of Unicode screens
    /// draw.
    pub const UNICODE: Theme = Theme {
        ascii: false,
        ..Theme::PLAIN
    };

    pub fn suit(&self, suit: Suit) -> char {
        if self.ascii {
            suit.letter()
        } else {
            suit.symbol()
        }
    }

    /// A card as shown on its face: `10♠`, or `10S` in ASCII; the high
    /// two of diamonds shows the diamond printed on it, `2♦`, and a joker
    /// `BJ★` or `LJ★` (`BJ*` in ASCII). The star is one column wide in the
    /// terminals where the suit signs are (an emoji such as 🃏 takes two),
    /// so every face is at most three columns.
    pub fn card(&self, card: Card) -> String {
        match self.card_names {
            CardNames::Faces => format!("{}{}", card.rank().face(), self.mark(card)),
            CardNames::Words => card_in_words(card),
        }
    }

    /// What follows the rank on a card's face: its printed suit's sign, or
    /// the joker's star.
    fn mark(&self, card: Card) -> char {
        match (card.printed_suit(), self.ascii) {
            (Some(suit), _) => self.suit(suit),
            (None, true) => '*',
            (None, false) => '★',
        }
    }

    /// A card's face within its suit's row, where the suit's sign is shown
    /// once: the rank, and the whole face for a card whose face shows
    /// another suit's sign or none (the high two of diamonds, a joker).
    pub fn face_in_row(&self, card: Card) -> String {
        if card.printed_suit() == Some(card.suit()) {
            card.rank().face().to_string()
        } else {
            self.card(card)
        }
    }

    /// The colours of a card's face: its printed suit's, and for the
    /// jokers red for the Big Joker and black for the Little, as printed.
    pub fn card_colour(&self, card: Card) -> Style {
        match card.printed_suit() {
            Some(suit) => self.suit_style(suit),
            None if card == Card::BIG_JOKER => self.suit_style(Suit::Hearts),
            None => self.suit_style(Suit::Spades),
        }
    }

    /// A suit's ink on a card's white face; bold in high contrast, where
    /// thin strokes are the first thing lost.
    pub fn suit_style(&self, suit: Suit) -> Style {
        if !self.color {
            return self.strong(Style::new());
        }
        self.strong(Style::new().fg(self.ink(suit)).bg(Color::White))
    }

    /// A suit's ink: red and black, or with the four-colour deck a colour
    /// a suit. The blue and green are the 256-colour palette's dark ones,
    /// which every terminal shows alike, readable on white (the sixteen
    /// named colours are each terminal's own, and many a green is pale).
    fn ink(&self, suit: Suit) -> Color {
        match (self.four_color, suit) {
            (true, Suit::Diamonds) => Color::Indexed(20),
            (true, Suit::Clubs) => Color::Indexed(28),
            (_, suit) if suit.is_red() => Color::Red,
            _ => Color::Black,
        }
    }

    /// A card face, brightened when it may be played and dimmed when not.
    /// High contrast dims nothing: a card that may not be played is shown
    /// in full, light on black, and is told apart by the raised edge of
    /// the ones that may (see `widgets::hand_strip`), not by fading.
    pub fn card_style(&self, card: Card, playable: bool) -> Style {
        let style = self.card_colour(card);
        match (playable, self.high_contrast, self.color) {
            (true, _, _) => style.add_modifier(Modifier::BOLD),
            (false, true, true) => Style::new().fg(Color::White).bg(Color::Black),
            (false, true, false) => Style::new(),
            (false, false, true) => Style::new().fg(Color::DarkGray).add_modifier(Modifier::DIM),
            (false, false, false) => style.add_modifier(Modifier::DIM),
        }
    }

    pub fn cursor(&self) -> Style {
        Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD)
    }

    /// Bold in high contrast; as it is otherwise.
    fn strong(&self, style: Style) -> Style {
        if self.high_contrast {
            style.add_modifier(Modifier::BOLD)
        } else {
            style
        }
    }

    /// Under everything drawn: high contrast paints the screen black with
    /// white ink, whatever the terminal's own colours; the other themes
    /// leave the terminal's.
    pub fn base(&self) -> Style {
        if self.high_contrast && self.color {
            Style::new().fg(Color::White).bg(Color::Black)
        } else {
            Style::new()
        }
    }

    /// The lines of boxes and windows: bright white in high contrast.
    pub fn edge(&self) -> Style {
        if self.high_contrast && self.color {
            Style::new().fg(Color::White)
        } else {
            Style::new()
        }
    }

    pub fn border(&self) -> border::Set<'static> {
        if self.ascii {
            ASCII_BORDER
        } else {
            border::ROUNDED
        }
    }

    pub fn winner_border(&self) -> border::Set<'static> {
        if self.ascii {
            ASCII_WINNER
        } else {
            border::DOUBLE
        }
    }

    /// The card winning the trick so far: starred corners, so it shows
    /// without colour, and unlike the doubled box of a trick's winner.
    pub fn winning_border(&self) -> border::Set<'static> {
        let star = if self.ascii { "*" } else { "★" };
        border::Set {
            top_left: star,
            top_right: star,
            bottom_left: star,
            bottom_right: star,
            ..self.border()
        }
    }

    pub fn accent(&self) -> Style {
        match (self.color, self.high_contrast) {
            (true, false) => Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD),
            (true, true) => Style::new()
                .fg(Color::LightYellow)
                .add_modifier(Modifier::BOLD),
            (false, _) => Style::new().add_modifier(Modifier::BOLD),
        }
    }

    /// What matters less: grey or faint; in high contrast plain white
    /// instead, for a player who must read it all the same.
    pub fn dim(&self) -> Style {
        match (self.color, self.high_contrast) {
            (true, false) => Style::new().fg(Color::DarkGray),
            (true, true) => Style::new().fg(Color::White),
            (false, false) => Style::new().add_modifier(Modifier::DIM),
            (false, true) => Style::new(),
        }
    }

    /// What may not be chosen now (a bid the rules refuse): faded, and
    /// struck through so it shows where fading does not.
    pub fn unavailable(&self) -> Style {
        self.dim().add_modifier(Modifier::CROSSED_OUT)
    }

    pub fn bar(&self) -> Style {
        match (self.color, self.high_contrast) {
            (true, false) => Style::new().fg(Color::Black).bg(Color::Green),
            (true, true) => Style::new()
                .fg(Color::Black)
                .bg(Color::White)
                .add_modifier(Modifier::BOLD),
            (false, _) => self.strong(Style::new().add_modifier(Modifier::REVERSED)),
        }
    }

    pub fn error(&self) -> Style {
        if self.color {
            Style::new()
                .fg(Color::LightRed)
                .add_modifier(Modifier::BOLD)
        } else {
            Style::new().add_modifier(Modifier::BOLD)
        }
    }

    /// The turn marker next to a seat's name.
    pub fn turn_marker(&self) -> &'static str {
        if self.ascii { ">" } else { "▶" }
    }

    pub fn minus(&self) -> &'static str {
        if self.ascii { "-" } else { "−" }
    }

    /// A number as shown anywhere on screen: one minus sign throughout.
    pub fn number(&self, n: i32) -> String {
        if n < 0 {
            format!("{}{}", self.minus(), n.unsigned_abs())
        } else {
            n.to_string()
        }
    }

    /// Between two facts on one line: "bid 3 · took 1".
    pub fn sep(&self) -> &'static str {
        if self.ascii { ", " } else { " · " }
    }

    /// Quick Play's lives: a heart a life, hollow once lost ("2/3" in
    /// ASCII).
    pub fn lives(&self, left: u8, of: u8) -> String {
        if self.ascii {
            format!("{left}/{of}")
        } else {
            let lost = of.saturating_sub(left);
            "♥".repeat(left.into()) + &"♡".repeat(lost.into())
        }
    }

    pub fn at_least(&self) -> &'static str {
        if self.ascii { ">=" } else { "≥" }
    }
}

/// A card as a player says it: "queen of hearts", "ten of spades"; the
/// high deuces and the jokers by their own names.
pub fn card_in_words(card: Card) -> String {
    match card {
        Card::BIG_JOKER => "big joker".to_string(),
        Card::LITTLE_JOKER => "little joker".to_string(),
        Card::HIGH_TWO_OF_SPADES => "high two of spades".to_string(),
        Card::HIGH_TWO_OF_DIAMONDS => "high two of diamonds".to_string(),
        _ => format!("{} of {}", rank_in_words(card.rank()), card.suit().name()),
    }
}

/// A rank as a word: "two" to "ten", "jack", "queen", "king", "ace".
pub fn rank_in_words(rank: crate::engine::Rank) -> &'static str {
    const WORDS: [&str; 13] = [
        "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen",
        "king", "ace",
    ];
    WORDS.get(rank.index() as usize).copied().unwrap_or("trump")
}

/// The first of `LC_ALL`, `LC_CTYPE`, `LANG` that is set decides, as the C
/// library does; with none set the locale is "C", which has no suit symbols.
fn locale_is_utf8(lc_all: Option<String>, lc_ctype: Option<String>, lang: Option<String>) -> bool {
    [lc_all, lc_ctype, lang]
        .into_iter()
        .flatten()
        .find(|v| !v.is_empty())
        .is_some_and(|v| {
            let v = v.to_ascii_lowercase();
            v.contains("utf-8") || v.contains("utf8")
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &str) -> Option<String> {
        Some(v.to_string())
    }

    #[test]
    fn locale_decides_unicode_suits() {
        assert!(locale_is_utf8(None, None, s("en_US.UTF-8")));
        assert!(locale_is_utf8(None, None, s("C.utf8")));
        assert!(!locale_is_utf8(None, None, None));
        assert!(
            !locale_is_utf8(s("C"), None, s("en_US.UTF-8")),
            "LC_ALL wins"
        );
        assert!(
            locale_is_utf8(s(""), s("de_DE.UTF-8"), s("C")),
            "empty is unset"
        );
        assert!(!locale_is_utf8(None, None, s("POSIX")));
    }

    #[test]
    fn no_color_and_ascii_come_from_the_environment() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| v.to_string())
            }
        };
        let utf8 = Theme::from_vars(false, env(&[("LANG", "en_GB.UTF-8")]));
        assert_eq!(
            utf8,
            Theme {
                color: true,
                ..Theme::UNICODE
            }
        );
        let plain = Theme::from_vars(false, env(&[("LANG", "C"), ("NO_COLOR", "1")]));
        assert_eq!(plain, Theme::PLAIN);
        let asked = Theme::from_vars(true, env(&[("LANG", "en_GB.UTF-8"), ("NO_COLOR", "")]));
        assert!(
            asked.ascii && asked.color,
            "--ascii wins; an empty NO_COLOR is unset"
        );
    }

    #[test]
    fn ascii_cards_use_letters() {
        let card: Card = "TH".parse().unwrap();
        assert_eq!(Theme::PLAIN.card(card), "10H");
        let unicode = Theme {
            color: true,
            ..Theme::UNICODE
        };
        assert_eq!(unicode.card(card), "10♥");
        let words = Theme {
            card_names: CardNames::Words,
            ..Theme::PLAIN
        };
        assert_eq!(words.card(card), "ten of hearts");
        assert_eq!(words.card("QS".parse().unwrap()), "queen of spades");
        assert_eq!(words.card(Card::BIG_JOKER), "big joker");
    }

    #[test]
    fn four_colours_give_each_suit_its_own_ink_and_two_colours_pair_them() {
        let ink = |theme: Theme| Suit::ALL.map(|s| theme.suit_style(s).fg);
        let classic = Theme {
            color: true,
            ..Theme::UNICODE
        };
        let four = Theme {
            four_color: true,
            ..classic
        };
        let all = ink(four);
        for (i, a) in all.iter().enumerate() {
            assert!(all[i + 1..].iter().all(|b| b != a), "{all:?}");
        }
        assert_eq!(
            ink(classic)
                .iter()
                .filter(|&&c| c == Some(Color::Red))
                .count(),
            2
        );
        // Without colour, four colours change nothing.
        let no_colour = Theme {
            four_color: true,
            ..Theme::UNICODE
        };
        assert!(ink(no_colour).iter().all(Option::is_none));
    }

    #[test]
    fn high_contrast_never_dims_and_keeps_bold_without_colour() {
        for color in [true, false] {
            let theme = Theme {
                color,
                high_contrast: true,
                ..Theme::UNICODE
            };
            let card = Card::BIG_JOKER;
            for style in [
                theme.dim(),
                theme.accent(),
                theme.bar(),
                theme.edge(),
                theme.card_style(card, false),
                theme.card_style(card, true),
                theme.unavailable(),
            ] {
                assert!(!style.add_modifier.contains(Modifier::DIM), "{style:?}");
                assert_ne!(style.fg, Some(Color::DarkGray), "{style:?}");
            }
            let bold = |s: Style| s.add_modifier.contains(Modifier::BOLD);
            assert!(bold(theme.card_style(card, true)));
            assert!(!bold(theme.card_style(card, false)));
            assert!(theme.cursor().add_modifier.contains(Modifier::REVERSED));
        }
        // The classic theme still fades what may not be played.
        let classic = Theme::UNICODE.card_style(Card::BIG_JOKER, false);
        assert!(classic.add_modifier.contains(Modifier::DIM));
    }

    #[test]
    fn the_card_winning_so_far_has_starred_corners() {
        assert_eq!(Theme::PLAIN.winning_border().top_left, "*");
        assert_eq!(Theme::PLAIN.winning_border().horizontal_top, "-");
        assert_eq!(Theme::UNICODE.winning_border().bottom_right, "★");
        assert_ne!(Theme::PLAIN.winning_border(), Theme::PLAIN.winner_border());
    }

    #[test]
    fn jokers_and_high_deuces_have_faces_three_columns_wide() {
        let unicode = Theme {
            color: true,
            ..Theme::UNICODE
        };
        let faces = |theme: &Theme| {
            [
                Card::BIG_JOKER,
                Card::LITTLE_JOKER,
                Card::HIGH_TWO_OF_DIAMONDS,
                Card::HIGH_TWO_OF_SPADES,
            ]
            .map(|c| theme.card(c))
        };
        assert_eq!(faces(&unicode), ["BJ★", "LJ★", "2♦", "2♠"]);
        assert_eq!(faces(&Theme::PLAIN), ["BJ*", "LJ*", "2D", "2S"]);
        for face in faces(&unicode) {
            let width = ratatui::text::Span::raw(face.as_str()).width();
            assert!(width <= 3, "{face}: {width} columns");
        }
        assert_eq!(unicode.face_in_row(Card::HIGH_TWO_OF_SPADES), "2");
        assert_eq!(unicode.face_in_row(Card::HIGH_TWO_OF_DIAMONDS), "2♦");
        assert_eq!(unicode.face_in_row(Card::BIG_JOKER), "BJ★");
        assert_eq!(
            unicode.card_colour(Card::HIGH_TWO_OF_DIAMONDS),
            unicode.suit_style(Suit::Diamonds)
        );
        assert_eq!(
            unicode.card_colour(Card::BIG_JOKER),
            unicode.suit_style(Suit::Hearts)
        );
    }
}
