//! The flags several commands share: the rules a game is played under, how
//! the table looks, and how long `hard` thinks.

use std::path::PathBuf;

use clap::builder::RangedI64ValueParser;
use clap::{Args, ValueEnum};

use crate::bots::{BotSpec, Effort};
use crate::config::preferences::{Preferences, Verbosity};
use crate::config::{self, RulesSource};
use crate::engine::{GameKind, Mode, Rules};
use crate::presets;
use crate::tui::Speed;

use super::CliError;

/// How the table looks and moves, in a new game or a resumed one.
#[derive(Debug, Clone, Args)]
pub struct LookArgs {
    #[command(flatten)]
    pub effort: EffortArgs,
    /// How fast the computer players' cards appear [default: normal, or as
    /// a resumed game was left]
    #[arg(long, value_enum)]
    pub speed: Option<Speed>,
    /// Draw suits as S H D C instead of symbols
    #[arg(long)]
    pub ascii: bool,
    /// Never play a card for you, even when it is the only one you may play
    #[arg(long)]
    pub no_auto_play: bool,
    #[command(flatten)]
    pub access: AccessArgs,
}

/// How the game is shown and said, for every command with a screen. Each
/// flag given is remembered in the player's `config.toml`, so it is said
/// once; its `--no-` twin turns it off again.
#[derive(Debug, Clone, Default, Args)]
pub struct AccessArgs {
    /// Plain lines for a screen reader or a braille display, instead of
    /// the full-screen table; works through a pipe too (remembered)
    #[arg(long, overrides_with = "no_screen_reader")]
    pub screen_reader: bool,
    /// The full-screen table again (remembered)
    #[arg(long)]
    pub no_screen_reader: bool,
    /// How much the screen-reader mode says (remembered)
    #[arg(long, value_enum)]
    pub verbosity: Option<Verbosity>,
    /// Short card names in the screen-reader mode, "QH", for braille
    /// (remembered)
    #[arg(long, overrides_with = "long_cards")]
    pub short_cards: bool,
    /// Card names in words in the screen-reader mode, "queen of hearts"
    /// (remembered)
    #[arg(long)]
    pub long_cards: bool,
    /// A colour a suit: spades black, hearts red, diamonds blue, clubs
    /// green (remembered)
    #[arg(long, overrides_with = "no_four_color")]
    pub four_color: bool,
    /// Red and black suits again (remembered)
    #[arg(long)]
    pub no_four_color: bool,
    /// Bright colours on black, bold where the table would dim (remembered)
    #[arg(long, overrides_with = "no_high_contrast")]
    pub high_contrast: bool,
    /// The usual colours again (remembered)
    #[arg(long)]
    pub no_high_contrast: bool,
}

impl AccessArgs {
    /// The player's preferences with these flags over them. Flags that
    /// change a preference are written back to `config.toml`; a file that
    /// cannot be read is an error naming its line and key (exit 2).
    pub fn preferences(&self) -> Result<Preferences, CliError> {
        let kept = Preferences::load()?;
        let wants = self.over(kept);
        if wants != kept {
            // Remembering is a convenience: a read-only home still plays.
            if let Err(e) = wants.remember() {
                eprintln!("spades: the preferences could not be remembered: {e}");
            }
        }
        Ok(wants)
    }

    /// `kept` with the flags given taking their place.
    pub fn over(&self, kept: Preferences) -> Preferences {
        let flag = |on: bool, off: bool, was: bool| {
            if on {
                true
            } else if off {
                false
            } else {
                was
            }
        };
        Preferences {
            screen_reader: flag(
                self.screen_reader,
                self.no_screen_reader,
                kept.screen_reader,
            ),
            verbosity: self.verbosity.unwrap_or(kept.verbosity),
            short_cards: flag(self.short_cards, self.long_cards, kept.short_cards),
            four_color: flag(self.four_color, self.no_four_color, kept.four_color),
            high_contrast: flag(
                self.high_contrast,
                self.no_high_contrast,
                kept.high_contrast,
            ),
        }
    }
}

/// A seed: a whole number from 0 to 2^64 - 1, said so when it is not
/// (read as a plain number, a negative one would only be "invalid digit").
pub fn seed_number(text: &str) -> Result<u64, String> {
    text.parse()
        .map_err(|_| format!("a seed is a whole number from 0 to {}", u64::MAX))
}

/// How long a searching bot (`hard`) thinks per decision.
#[derive(Debug, Clone, Args)]
pub struct EffortArgs {
    /// Let `hard` think this long per decision, in milliseconds, on every
    /// core (default: a fixed number of guessed deals; see --iterations)
    #[arg(long, allow_negative_numbers = true, value_name = "MS", conflicts_with = "iterations",
          value_parser = RangedI64ValueParser::<u64>::new().range(1..=60_000))]
    pub think_ms: Option<u64>,
    /// Let `hard` guess this many deals per decision, shared out over every
    /// core, so that a seeded run replays exactly (default 300)
    #[arg(long, allow_negative_numbers = true, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub iterations: Option<u32>,
}

impl EffortArgs {
    pub fn effort(&self) -> Effort {
        match (self.think_ms, self.iterations) {
            (Some(ms), _) => Effort::Time(std::time::Duration::from_millis(ms)),
            (None, Some(n)) => Effort::Deals(n),
            (None, None) => Effort::Usual,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ModeArg {
    /// You and a partner against two opponents (4 seats)
    Partnership,
    /// Three players, 17 cards each, one card out
    Cutthroat,
    /// Four players, no partners
    Individual,
    /// Three players and a dummy: the top bidder declares with it
    Dummy,
}

impl From<ModeArg> for Mode {
    fn from(m: ModeArg) -> Mode {
        match m {
            ModeArg::Partnership => Mode::Partnership,
            ModeArg::Cutthroat => Mode::Cutthroat,
            ModeArg::Individual => Mode::Individual,
            ModeArg::Dummy => Mode::Dummy,
        }
    }
}

impl From<Mode> for ModeArg {
    fn from(m: Mode) -> ModeArg {
        match m {
            Mode::Partnership => ModeArg::Partnership,
            Mode::Cutthroat => ModeArg::Cutthroat,
            Mode::Individual => ModeArg::Individual,
            Mode::Dummy => ModeArg::Dummy,
        }
    }
}

/// Flags every command that plays takes: they override rules.toml.
#[derive(Debug, Clone, Args)]
pub struct RulesFlags {
    /// Table mode (overrides `mode` in rules.toml)
    #[arg(long, value_enum)]
    pub mode: Option<ModeArg>,
    /// Score that ends the game (overrides `target_score`)
    #[arg(long, allow_negative_numbers = true, value_name = "N",
          value_parser = clap::value_parser!(i32).range(1..=i64::from(crate::engine::rules::MAX_POINTS)))]
    pub target: Option<i32>,
    /// Rules file (default: ./rules.toml, then the user config dir, then the classic game)
    #[arg(long, value_name = "PATH")]
    pub rules: Option<PathBuf>,
    /// Play one of the shipped sets of house rules instead of a rules file
    /// (`spades rules --presets` lists them)
    #[arg(long, value_name = "NAME", conflicts_with = "rules")]
    pub preset: Option<String>,
    /// Quick Play: one hand at a time until your side has lost its lives
    /// (sets `game.kind = "quick"`)
    #[arg(long)]
    pub quick: bool,
}

impl RulesFlags {
    /// The rules a game uses: the file's or the preset's, with flags on top.
    pub fn rules(&self) -> Result<(Rules, RulesSource), CliError> {
        let (rules, source) = match &self.preset {
            Some(name) => preset_rules(name)?,
            None => config::find_rules(self.rules.as_deref())?,
        };
        let rules = rules
            .with(|r| {
                if self.quick {
                    r.game.kind = GameKind::Quick;
                }
                if let Some(mode) = self.mode {
                    r.mode = mode.into();
                }
                if let Some(target) = self.target {
                    r.target_score = target;
                }
            })
            .map_err(|e| {
                CliError::BadInput(format!("the flags and {source} do not fit together: {e}"))
            })?;
        Ok((rules, source))
    }
}

/// A shipped preset's rules, by name.
pub fn preset_rules(name: &str) -> Result<(Rules, RulesSource), CliError> {
    let preset = presets::find(name).map_err(CliError::BadInput)?;
    Ok((preset.rules()?, RulesSource::Preset(preset.name)))
}

/// A program speaking the table protocol, as `exec:COMMAND`: what a host
/// or a server may offer as one more bot level.
pub fn own_program(text: &str) -> Result<BotSpec, String> {
    match text.parse::<BotSpec>() {
        Ok(spec @ BotSpec::Exec(_)) => Ok(spec),
        Ok(_) => Err(format!("give a program as exec:COMMAND, not `{text}`")),
        Err(e) => Err(e.to_string()),
    }
}
