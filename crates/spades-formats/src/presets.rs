//! The common sets of house rules, shipped as commented rules files under
//! `assets/presets/` and built into the program: `spades --preset NAME`
//! plays one, `spades rules --presets` lists them.

use crate::config::{self, RulesFileError};
use crate::engine::{GameKind, Rules};

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
            text: include_str!(concat!("../../../assets/presets/", $name, ".toml")),
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

/// The preset a game's rules were played from, found by the rules
/// themselves (a save keeps the rules, not the flags): the preset whose
/// rules they are with the fewest of the flags any rules take on top
/// (`--mode`, `--target`, `--quick`), so `--preset quick` is not named
/// classic with `--quick`. `None` for a rules file of the player's own.
pub fn played_as(rules: &Rules) -> Option<&'static Preset> {
    let flags = |preset: &Rules| {
        let flagged = preset.with(|r| {
            r.mode = rules.mode;
            r.target_score = rules.target_score;
            if rules.is_quick() {
                r.game.kind = GameKind::Quick;
            }
        });
        let given = [
            preset.mode != rules.mode,
            preset.target_score != rules.target_score,
            preset.is_quick() != rules.is_quick(),
        ];
        flagged
            .is_ok_and(|r| r == *rules)
            .then(|| given.iter().filter(|&&g| g).count())
    };
    PRESETS
        .iter()
        .filter_map(|p| Some((p, flags(&p.rules().ok()?)?)))
        .min_by_key(|&(_, given)| given)
        .map(|(p, _)| p)
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
    fn a_games_rules_name_the_preset_they_were_played_from() {
        let named = |rules: &Rules| played_as(rules).map(|p| p.name);
        let rules = |name| find(name).unwrap().rules().unwrap();
        for preset in PRESETS {
            assert_eq!(named(&preset.rules().unwrap()), Some(preset.name));
        }
        let flagged = rules("mirror")
            .with(|r| {
                r.mode = crate::engine::Mode::Cutthroat;
                r.target_score = 250;
                r.game.kind = GameKind::Quick;
            })
            .unwrap();
        assert_eq!(named(&flagged), Some("mirror"));
        let cutthroat = |name| {
            rules(name)
                .with(|r| r.mode = crate::engine::Mode::Cutthroat)
                .unwrap()
        };
        assert_eq!(named(&cutthroat("quick")), Some("quick"));
        assert_eq!(named(&cutthroat("classic")), Some("classic"));
        let own = Rules::default().with(|r| r.bags.limit = 7).unwrap();
        assert_eq!(named(&own), None);
    }

    #[test]
    fn an_unknown_preset_names_them_all() {
        let err = find("mirrror").unwrap_err();
        assert!(err.contains("classic") && err.contains("quick"), "{err}");
    }
}
