//! The common sets of house rules, shipped as commented rules files under
//! `assets/presets/` and built into the program: `spades --preset NAME`
//! plays one, `spades rules --presets` lists them.

use crate::config::{self, RulesFileError};
use crate::engine::Rules;

/// One preset: its name, and its rules file's text. The file's first line
/// is `# NAME: what it is`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Preset {
    pub name: &'static str,
    pub text: &'static str,
}

macro_rules! presets {
    ($($name:literal),* $(,)?) => {
        &[$(Preset {
            name: $name,
            text: include_str!(concat!("../assets/presets/", $name, ".toml")),
        }),*]
    };
}

/// Every preset, in the order `spades rules --presets` lists them.
pub const PRESETS: &[Preset] = presets![
    "classic",
    "short",
    "quick",
    "mirror",
    "suicide",
    "whiz",
    "jokers",
    "cutthroat-strict",
];

impl Preset {
    /// What the preset is, from its file's first line.
    pub fn about(&self) -> &'static str {
        let first = self.text.lines().next().unwrap_or_default();
        first
            .trim_start_matches('#')
            .trim()
            .strip_prefix(self.name)
            .map(|rest| rest.trim_start_matches(':').trim())
            .unwrap_or(first)
    }

    /// The preset's rules, read as any rules file is.
    pub fn rules(&self) -> Result<Rules, RulesFileError> {
        config::parse_rules(self.text, &self.file())
    }

    /// How messages name the preset's file.
    pub fn file(&self) -> String {
        format!("preset {} (assets/presets/{}.toml)", self.name, self.name)
    }
}

/// The preset of this name, or an error listing them all.
pub fn find(name: &str) -> Result<&'static Preset, String> {
    PRESETS.iter().find(|p| p.name == name).ok_or_else(|| {
        let names: Vec<&str> = PRESETS.iter().map(|p| p.name).collect();
        format!(
            "there is no preset `{name}`: the presets are {} (`spades rules --presets` lists them)",
            names.join(", ")
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_reads_and_says_what_it_is() {
        for preset in PRESETS {
            let rules = preset.rules();
            assert!(rules.is_ok(), "{}: {:?}", preset.name, rules.err());
            assert!(
                preset.text.starts_with(&format!("# {}: ", preset.name)),
                "{} must open with `# {}: what it is`",
                preset.name,
                preset.name
            );
            assert!(!preset.about().is_empty());
        }
    }

    #[test]
    fn the_presets_are_what_their_names_say() {
        let rules = |name| find(name).unwrap().rules().unwrap();
        assert_eq!(rules("classic"), Rules::default());
        assert_eq!(rules("short").target_score, 300);
        assert!(rules("quick").is_quick());
        use crate::engine::BiddingGame;
        assert_eq!(rules("mirror").bidding.game, BiddingGame::Mirror);
        assert_eq!(rules("whiz").bidding.game, BiddingGame::Whiz);
        let suicide = rules("suicide");
        assert_eq!(suicide.bidding.game, BiddingGame::Suicide);
        assert_eq!(suicide.bidding.suicide_min, 4);
        assert_eq!(
            rules("jokers").deck.jokers,
            crate::engine::Jokers::Replace2H2C
        );
        let strict = rules("cutthroat-strict");
        assert_eq!(strict.mode, crate::engine::Mode::Cutthroat);
        assert!(strict.bidding.forbid_exact_total);
    }

    #[test]
    fn an_unknown_preset_names_them_all() {
        let err = find("mirrror").unwrap_err();
        assert!(err.contains("classic") && err.contains("quick"), "{err}");
    }
}
