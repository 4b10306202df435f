//! A registered name: what the lobby and the ladder show of a player. It is
//! cleaned like every text from outside, and unique on its server by its
//! *folded* form, so that no one can pass for another player ("Аlice" with
//! a Cyrillic А, "ALICE", "al ice", "A1ice") or for a computer player
//! ("Bot 2", "hard", "North").

use crate::naming::MAX_NAME;

/// A name a player registered, as shown, and its folded form (`fold`),
/// which is what must be unique.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Name {
    shown: String,
    folded: String,
}

/// Why a name cannot be registered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    #[error("a name needs at least one letter or digit")]
    Empty,
    #[error("`{0}` could pass for a computer player or a seat: choose another name")]
    LooksLikeABot(String),
}

impl Name {
    /// `raw` cleaned (`outside::clean_name`, cut to `MAX_NAME` columns),
    /// if it may be registered.
    pub fn new(raw: &str) -> Result<Name, NameError> {
        let shown = crate::outside::clean_name(raw, MAX_NAME);
        let folded = fold(&shown);
        if folded.is_empty() {
            return Err(NameError::Empty);
        }
        if passes_for_a_bot(&shown) {
            return Err(NameError::LooksLikeABot(shown));
        }
        Ok(Name { shown, folded })
    }

    /// A name read back from the store, which checked it when it was
    /// registered; cut as a name is now, should an older server have kept
    /// it longer (a name of thousands of combining marks).
    pub fn stored(shown: String) -> Name {
        let shown = crate::outside::clean_name(&shown, MAX_NAME);
        let folded = fold(&shown);
        Name { shown, folded }
    }

    pub fn shown(&self) -> &str {
        &self.shown
    }

    pub fn folded(&self) -> &str {
        &self.folded
    }
}

impl std::fmt::Display for Name {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.shown)
    }
}

/// The form of a name that must be unique: two names with the same fold
/// look alike to a reader. Applied to any text (it needs no cleaning first):
///
/// - hidden characters (zero-width joiners, direction overrides) and
///   combining marks go: they change how a name reads, not which name;
/// - fullwidth forms become their ASCII letters, and the case is folded;
/// - letters of other scripts that look like Latin ones become them
///   (`look_alike`: Cyrillic а е о р с х у і ј ԁ ѕ, Greek ο α ν κ ι…), and
///   accented Latin letters lose their accents;
/// - digits that pass for letters become them: 0 o, 1 l, 3 e, 4 a, 5 s,
///   7 t, 8 b; and i, l and | are one letter (I and l are one stroke in
///   many fonts);
/// - "rn" reads as "m" and "vv" as "w";
/// - everything but letters and digits (spaces, punctuation) goes, so
///   "al ice" and "a.lice" are "alice".
///
/// The table is small and by hand, not Unicode's whole confusables list:
/// folding too much only refuses a name someone could have had, while a
/// gap lets one player pass for another, so the rules lean strict.
pub fn fold(text: &str) -> String {
    let letters = letters_and_digits(text);
    let folded: String = letters.chars().map(digit_as_letter).collect();
    folded.replace("rn", "m").replace("vv", "w")
}

/// `fold` but for its digits, which stay: a bot's number is told apart.
fn letters_and_digits(text: &str) -> String {
    text.chars()
        .filter(|&c| !crate::outside::hidden(c) && !is_combining(c))
        .map(from_fullwidth)
        .flat_map(char::to_lowercase)
        .map(look_alike)
        .filter(|c| c.is_alphanumeric())
        .collect()
}

/// Combining diacritical marks (and their extensions): "Alicé" with a
/// combining accent is "Alice".
fn is_combining(c: char) -> bool {
    matches!(c, '\u{0300}'..='\u{036F}' | '\u{1AB0}'..='\u{1AFF}' | '\u{1DC0}'..='\u{1DFF}' | '\u{20D0}'..='\u{20FF}' | '\u{FE20}'..='\u{FE2F}')
}

/// Fullwidth ASCII (U+FF01 to U+FF5E) as ASCII.
fn from_fullwidth(c: char) -> char {
    match c {
        '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFF01 + 0x21).unwrap_or(c),
        '\u{3000}' => ' ',
        _ => c,
    }
}

/// A lower-case letter as the Latin letter it looks like.
fn look_alike(c: char) -> char {
    match c {
        // Cyrillic
        'а' | 'ӓ' => 'a',
        'в' | 'ь' => 'b',
        'с' | 'ҫ' => 'c',
        'ԁ' => 'd',
        'е' | 'ё' | 'є' => 'e',
        'һ' | 'н' => 'h',
        'і' | 'ї' | 'ӏ' => 'i',
        'ј' => 'j',
        'к' => 'k',
        'м' => 'm',
        'о' | 'ӧ' => 'o',
        'р' => 'p',
        'ԛ' => 'q',
        'ѕ' => 's',
        'т' => 't',
        'ц' | 'џ' => 'u',
        'ѵ' => 'v',
        'ԝ' | 'ш' => 'w',
        'х' | 'ҳ' => 'x',
        'у' | 'ү' => 'y',
        // Greek
        'α' | 'ά' => 'a',
        'β' => 'b',
        'ε' | 'έ' => 'e',
        'η' => 'n',
        'ι' | 'ί' | 'ϊ' => 'i',
        'κ' => 'k',
        'μ' => 'u',
        'ν' => 'v',
        'ο' | 'ό' | 'σ' => 'o',
        'ρ' => 'p',
        'τ' => 't',
        'υ' | 'ύ' => 'u',
        'χ' => 'x',
        'γ' => 'y',
        'ω' => 'w',
        'ζ' => 'z',
        // Latin with accents, and look-alike Latin letters
        'à'..='å' | 'ā' | 'ă' | 'ą' | 'ɑ' => 'a',
        'ç' | 'ć' | 'ĉ' | 'ċ' | 'č' => 'c',
        'ď' | 'đ' => 'd',
        'è'..='ë' | 'ē' | 'ĕ' | 'ė' | 'ę' | 'ě' => 'e',
        'ì'..='ï' | 'ĩ' | 'ī' | 'ĭ' | 'į' | 'ı' | 'ɩ' => 'i',
        'ñ' | 'ń' | 'ņ' | 'ň' => 'n',
        'ò'..='ö' | 'ø' | 'ō' | 'ŏ' | 'ő' => 'o',
        'ù'..='ü' | 'ũ' | 'ū' | 'ŭ' | 'ů' | 'ű' | 'ų' => 'u',
        'ý' | 'ÿ' => 'y',
        'ś' | 'ŝ' | 'ş' | 'š' | 'ſ' => 's',
        'ź' | 'ż' | 'ž' => 'z',
        'ĺ' | 'ļ' | 'ľ' | 'ŀ' | 'ł' => 'l',
        '|' | 'ǀ' => 'l',
        _ => c,
    }
}

/// A digit (or i) as the letter it passes for.
fn digit_as_letter(c: char) -> char {
    match c {
        '0' => 'o',
        '1' | 'i' => 'l',
        '3' => 'e',
        '4' => 'a',
        '5' => 's',
        '7' => 't',
        '8' => 'b',
        _ => c,
    }
}

/// What a computer player or a seat is called somewhere in the program
/// (`naming` names seats by their place and sides Us and Them; records name
/// bots "Bot 0"…; the levels name the bots; a seat with no name is
/// "Seat 2"), and words that claim to be one.
const TAKEN_BY_THE_TABLE: &[&str] = &[
    "bot", "computer", "cpu", "ai", "robot", "north", "south", "east", "west", "you", "us", "them",
    "dummy", "seat", "random", "easy", "normal", "hard", "server", "admin",
];

/// Whether a name could pass for a computer player or a seat: one of the
/// table's words, with a number after it or not ("Bot 2", "Seat 3",
/// "North"), or a level with "bot" before or after it ("Hard Bot").
fn passes_for_a_bot(name: &str) -> bool {
    let kept = letters_and_digits(name);
    let stem: String = kept
        .trim_end_matches(|c: char| c.is_ascii_digit())
        .chars()
        .map(digit_as_letter)
        .collect();
    let stem = stem.replace("rn", "m").replace("vv", "w");
    let taken = |s: &str| TAKEN_BY_THE_TABLE.iter().any(|w| fold(w) == s);
    let without_bot = stem
        .strip_prefix("bot")
        .or_else(|| stem.strip_suffix("bot"))
        .unwrap_or(&stem);
    taken(&stem) || taken(without_bot) || without_bot.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folds_alike(a: &str, b: &str) -> bool {
        fold(a) == fold(b)
    }

    #[test]
    fn look_alike_names_fold_alike() {
        for twin in [
            "ALICE",
            "Аlice",  // Cyrillic А
            "аlісе",  // Cyrillic а, і, с, е
            "al ice", // a space
            "a.l-i_c e",
            "A1ice",         // one for l
            "AIice",         // capital i for l
            "Ａｌｉｃｅ",    // fullwidth
            "Alicé",         // an accent
            "Alice\u{301}",  // a combining accent
            "Al\u{200D}ice", // a zero-width joiner
            "\u{202E}Alice", // a right-to-left override
            "αlιce",         // Greek alpha and iota
        ] {
            assert!(
                folds_alike("Alice", twin),
                "{twin:?} folds to {}",
                fold(twin)
            );
        }
        assert!(folds_alike("paypal", "раураl"), "mixed scripts");
        assert!(folds_alike("modern", "rnodern"));
        assert!(folds_alike("Bob", "B0b"));
        assert!(!folds_alike("Alice", "Alicia"));
        assert!(!folds_alike("Bob", "Rob"));
        assert!(!folds_alike("Ann", "Anne"));
    }

    #[test]
    fn hostile_names_are_cleaned_cut_and_folded() {
        let name = Name::new("  \u{1b}[31mEve\u{202E}\u{200B}  ").unwrap();
        assert_eq!(name.shown(), "[31mEve");
        assert!(!name.shown().chars().any(crate::outside::hidden));
        // Ten kilobytes: cut to the columns a name may take, and the fold
        // of the whole still runs in one pass.
        let long = "W".repeat(10_000);
        let name = Name::new(&long).unwrap();
        assert_eq!(name.shown().len(), MAX_NAME);
        assert_eq!(fold(&long).len(), 10_000);
        let wide = "ｗ".repeat(5_000);
        assert_eq!(
            crate::outside::columns(Name::new(&wide).unwrap().shown()),
            MAX_NAME
        );
        for nothing in [
            "",
            "   ",
            "\u{200D}\u{202E}",
            "...",
            "\u{301}\u{301}",
            "\n\t",
        ] {
            assert_eq!(Name::new(nothing), Err(NameError::Empty), "{nothing:?}");
        }
    }

    #[test]
    fn a_bots_name_or_a_seats_is_refused() {
        for bot in [
            "easy",
            "Normal",
            "HARD",
            "random",
            "bot",
            "Bot 2",
            "B0t 3",
            "Bot",
            "North",
            "south",
            "East",
            "West",
            "Seat 2",
            "You",
            "Dummy",
            "Hard Bot",
            "easybot",
            "Bot Normal",
            "Ｂｏｔ",
            "Nоrth",
            "Computer",
            "Us",
        ] {
            assert!(
                matches!(Name::new(bot), Err(NameError::LooksLikeABot(_))),
                "{bot:?} was allowed"
            );
        }
        for person in [
            "Robert", "Abbot", "Hardy", "Eastwood", "Norma", "Ada", "Bo", "Seattle",
        ] {
            assert!(Name::new(person).is_ok(), "{person:?} was refused");
        }
    }
}
