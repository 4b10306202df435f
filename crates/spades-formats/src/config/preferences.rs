//! The player's preferences, kept in `config.toml` beside `rules.toml`:
//! how the game is shown and said, whatever game is played. A flag given
//! on the command line (`--screen-reader`, `--four-color`) is remembered
//! here, so a player who needs it says it once.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{RulesFileError, line_col};

/// How much the screen-reader mode says of each thing that happens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Verbosity {
    /// "West: queen of hearts."
    Brief,
    /// "West plays the queen of hearts."
    #[default]
    Normal,
    /// Normal, and what each event means: who leads, what is still out.
    Full,
}

impl Verbosity {
    pub const ALL: [Verbosity; 3] = [Verbosity::Brief, Verbosity::Normal, Verbosity::Full];

    pub const fn name(self) -> &'static str {
        match self {
            Verbosity::Brief => "brief",
            Verbosity::Normal => "normal",
            Verbosity::Full => "full",
        }
    }

    /// The next setting, round from full to brief: what the key steps to.
    pub fn next(self) -> Verbosity {
        match self {
            Verbosity::Brief => Verbosity::Normal,
            Verbosity::Normal => Verbosity::Full,
            Verbosity::Full => Verbosity::Brief,
        }
    }
}

/// Everything `config.toml` may say; a key it does not know is an error,
/// so a typo never passes silently.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Preferences {
    /// Plain lines for a screen reader or a braille display, instead of
    /// the full-screen table.
    pub screen_reader: bool,
    /// How much the screen-reader mode says.
    pub verbosity: Verbosity,
    /// Cards named short in the screen-reader mode ("QH"), for braille.
    pub short_cards: bool,
    /// A colour a suit at the table.
    pub four_color: bool,
    /// The high-contrast theme at the table.
    pub high_contrast: bool,
}

impl Preferences {
    /// The player's preferences: the defaults where there is no file.
    pub fn load() -> Result<Preferences, RulesFileError> {
        match crate::paths::preferences() {
            Some(path) if path.is_file() => Preferences::read(&path),
            _ => Ok(Preferences::default()),
        }
    }

    pub fn read(path: &Path) -> Result<Preferences, RulesFileError> {
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| RulesFileError {
            file: file.clone(),
            position: None,
            message: format!("cannot read the preferences: {e}"),
        })?;
        Preferences::parse(&text, &file)
    }

    /// The preferences a file's text holds, or where it goes wrong (its
    /// line, column and key).
    pub fn parse(text: &str, file: &str) -> Result<Preferences, RulesFileError> {
        toml::from_str(text).map_err(|e| RulesFileError {
            file: file.to_string(),
            position: e.span().map(|span| line_col(text, span.start)),
            message: e.message().trim().to_string(),
        })
    }

    /// Writes the preferences to the player's `config.toml`; says where.
    pub fn remember(&self) -> std::io::Result<PathBuf> {
        let path = crate::paths::preferences()
            .ok_or_else(|| std::io::Error::other("this system names no config folder"))?;
        self.write(&path)?;
        Ok(path)
    }

    pub fn write(&self, path: &Path) -> std::io::Result<()> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let text = toml::to_string(self).map_err(std::io::Error::other)?;
        let head = "# How spades is shown and said: see `spades --help` and docs/guide.md.\n";
        std::fs::write(path, format!("{head}{text}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preferences_read_back_as_written() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("spades").join("config.toml");
        let prefs = Preferences {
            screen_reader: true,
            verbosity: Verbosity::Brief,
            short_cards: true,
            four_color: true,
            high_contrast: false,
        };
        prefs.write(&path).unwrap();
        assert_eq!(Preferences::read(&path).unwrap(), prefs);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("screen_reader = true"), "{text}");
    }

    #[test]
    fn a_broken_file_names_its_line_and_key() {
        let err = Preferences::parse("screen_reader = true\nverbosity = \"loud\"\n", "c.toml")
            .unwrap_err();
        assert_eq!(err.position.map(|p| p.0), Some(2), "{err}");
        assert!(err.to_string().contains("c.toml:2:"), "{err}");
        let err = Preferences::parse("screen_raeder = true\n", "c.toml").unwrap_err();
        assert!(err.to_string().contains("screen_raeder"), "{err}");
        assert_eq!(
            Preferences::parse("", "c.toml").unwrap(),
            Preferences::default()
        );
    }
}
