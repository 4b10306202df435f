//! `spades rules`: the rules as TOML, the presets, and `--init`.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use crate::config;
use crate::engine::Rules;
use crate::presets;

use super::args::preset_rules;
use super::{CliError, say};

#[derive(Debug, Clone, Args)]
pub struct RulesArgs {
    /// Rules file to show (default: where a game would look)
    #[arg(long, value_name = "PATH")]
    pub rules: Option<PathBuf>,
    /// Show (or with --init write) one of the shipped presets
    #[arg(long, value_name = "NAME", conflicts_with = "rules")]
    pub preset: Option<String>,
    /// List the shipped presets
    #[arg(long, conflicts_with_all = ["rules", "preset", "init"])]
    pub presets: bool,
    /// Write a fully commented rules file (never overwrites)
    #[arg(long, value_name = "PATH", num_args = 0..=1, default_missing_value = "rules.toml")]
    pub init: Option<PathBuf>,
}

/// `spades rules`: the rules in force, a preset's, the list of presets,
/// or a commented rules file written.
pub(super) fn run(args: &RulesArgs) -> Result<(), CliError> {
    if args.presets {
        let width = presets::PRESETS
            .iter()
            .map(|p| p.name.len())
            .max()
            .unwrap_or(0);
        let list: String = presets::PRESETS
            .iter()
            .map(|p| format!("{:width$}  {}\n", p.name, p.about()))
            .collect();
        return say(&format!(
            "{list}\nPlay one with `spades --preset NAME`; see its rules with `spades rules --preset NAME`.\n"
        ));
    }
    let preset = args.preset.as_deref().map(preset_rules).transpose()?;
    if let Some(path) = &args.init {
        if path.exists() {
            return Err(CliError::BadInput(format!(
                "{} already exists; it was left as it is (remove it or pick another path)",
                path.display()
            )));
        }
        let rules = match (&preset, &args.rules) {
            (Some((rules, _)), _) => *rules,
            (None, Some(from)) => config::read_rules(from)?,
            (None, None) => Rules::default(),
        };
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
            .map_err(|e| CliError::BadInput(format!("cannot write {}: {e}", path.display())))?;
        file.write_all(config::commented_toml(&rules).as_bytes())
            .map_err(|e| CliError::BadInput(format!("cannot write {}: {e}", path.display())))?;
        say(&format!("wrote {}\n", path.display()))?;
        return Ok(());
    }
    let (rules, source) = match preset {
        Some(found) => found,
        None => config::find_rules(args.rules.as_deref())?,
    };
    say(&format!(
        "# rules from: {source}\n{}",
        config::commented_toml(&rules)
    ))
}
