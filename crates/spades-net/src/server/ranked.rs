//! The server's ranked rules: a game counts for the ladder only under the
//! rules its mode is ranked with, so a rating means the same game for
//! everyone (not a game to 10 points, won or lost on one hand). By
//! default the classic game of each mode; an operator gives other rules
//! one file a mode (`spades serve --ranked-rules PATH`, a `rules.toml`
//! whose `mode` says which mode it ranks).

use std::path::Path;

use crate::config::{self, RulesFileError};
use crate::engine::{Mode, Rules};

/// The rules each mode is ranked with.
#[derive(Debug, Clone, PartialEq)]
pub struct RankedRules {
    by_mode: Vec<Rules>,
}

impl Default for RankedRules {
    fn default() -> RankedRules {
        RankedRules {
            by_mode: Mode::ALL.iter().map(|&mode| Rules::classic(mode)).collect(),
        }
    }
}

impl RankedRules {
    /// The defaults, with each of `files` ranking its own mode instead:
    /// a file that cannot be read, or a second file for one mode, or one
    /// for a mode that is never rated, is said with its name.
    pub fn from_files(files: &[impl AsRef<Path>]) -> Result<RankedRules, RulesFileError> {
        let mut ranked = RankedRules::default();
        let mut given: Vec<(Mode, String)> = Vec::new();
        for path in files {
            let path = path.as_ref();
            let file = path.display().to_string();
            let rules = config::read_rules(path)?;
            let refused = |message: String| RulesFileError {
                file: file.clone(),
                position: None,
                message,
            };
            if rules.mode.dummy().is_some() {
                return Err(refused(format!(
                    "`mode`: {} games are never rated (a dummy has no rating): rank partnership, cutthroat or individual",
                    rules.mode
                )));
            }
            if let Some((_, first)) = given.iter().find(|(m, _)| *m == rules.mode) {
                return Err(refused(format!(
                    "`mode`: {} is ranked by {first} already: one file a mode",
                    rules.mode
                )));
            }
            given.push((rules.mode, file));
            ranked = ranked.with(rules);
        }
        Ok(ranked)
    }

    /// These ranked rules with `rules` ranking its mode.
    pub fn with(mut self, rules: Rules) -> RankedRules {
        if let Some(i) = Mode::ALL.iter().position(|&m| m == rules.mode) {
            self.by_mode[i] = rules;
        }
        self
    }

    /// The rules `mode` is ranked with.
    pub fn of(&self, mode: Mode) -> Rules {
        Mode::ALL
            .iter()
            .position(|&m| m == mode)
            .map_or_else(|| Rules::classic(mode), |i| self.by_mode[i])
    }

    /// Why a game under `rules` is not ranked, in a few words naming the
    /// first rule that differs (`target_score 10, ranked 500`); `None`
    /// when it is.
    pub fn differs(&self, rules: &Rules) -> Option<String> {
        let ranked = self.of(rules.mode);
        if ranked == *rules {
            return None;
        }
        let theirs = serde_json::to_value(rules.settings()).unwrap_or_default();
        let ours = serde_json::to_value(ranked.settings()).unwrap_or_default();
        Some(
            first_difference(&theirs, &ours, "")
                .unwrap_or_else(|| "the rules are not the ranked ones".to_string()),
        )
    }
}

/// The first key whose value differs, said as `key theirs, ranked ours`.
fn first_difference(
    theirs: &serde_json::Value,
    ours: &serde_json::Value,
    prefix: &str,
) -> Option<String> {
    match (theirs, ours) {
        (serde_json::Value::Object(a), serde_json::Value::Object(b)) => {
            a.iter().find_map(|(k, v)| {
                let key = format!("{prefix}{k}");
                let other = b.get(k).unwrap_or(&serde_json::Value::Null);
                first_difference(v, other, &format!("{key}."))
            })
        }
        _ if theirs == ours => None,
        _ => Some(format!(
            "{} {}, ranked {}",
            prefix.trim_end_matches('.'),
            shown(theirs),
            shown(ours)
        )),
    }
}

fn shown(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::Null => "none".to_string(),
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_classic_game_is_ranked_and_a_short_target_is_not_and_says_why() {
        let ranked = RankedRules::default();
        assert_eq!(ranked.differs(&Rules::classic(Mode::Cutthroat)), None);
        let short = Rules::classic(Mode::Partnership)
            .with(|s| s.target_score = 10)
            .unwrap();
        assert_eq!(
            ranked.differs(&short).as_deref(),
            Some("target_score 10, ranked 500")
        );
        let bags = Rules::classic(Mode::Individual)
            .with(|s| s.bags.penalty = 50)
            .unwrap();
        let why = ranked.differs(&bags).unwrap();
        assert!(why.starts_with("bags.penalty 50, ranked "), "{why}");
    }

    #[test]
    fn an_operators_file_ranks_its_mode_and_a_second_one_for_it_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let short = dir.path().join("short.toml");
        std::fs::write(&short, "mode = \"cutthroat\"\ntarget_score = 100\n").unwrap();
        let ranked = RankedRules::from_files(&[&short]).unwrap();
        assert_eq!(ranked.of(Mode::Cutthroat).target_score, 100);
        assert_eq!(
            ranked.of(Mode::Partnership),
            Rules::classic(Mode::Partnership)
        );
        let twice = RankedRules::from_files(&[&short, &short]).unwrap_err();
        assert!(twice.to_string().contains("one file a mode"), "{twice}");
        let dummy = dir.path().join("dummy.toml");
        std::fs::write(&dummy, "mode = \"dummy\"\n").unwrap();
        let never = RankedRules::from_files(&[&dummy]).unwrap_err();
        assert!(never.to_string().contains("never rated"), "{never}");
    }
}
