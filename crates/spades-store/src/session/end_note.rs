//! What a finished game did to the player's standing: their rating, or
//! for a Quick Play run where it stands among their best.

use std::path::Path;

use crate::history::History;
use crate::rating;
use crate::stats::Stats;

use super::GameSetup;

/// The note under a finished game's scores, worked out from the records
/// in `records` (the folder) once the game's own record (`record`) is
/// among them.
pub fn end_note(
    records: Option<&Path>,
    record: Option<&Path>,
    setup: &GameSetup,
    quick: bool,
) -> Vec<String> {
    if setup.practice {
        return vec!["A practice game: not rated.".into()];
    }
    let (Some(dir), Some(id)) = (records, record.and_then(|p| p.file_stem())) else {
        return Vec::new();
    };
    let id = id.to_string_lossy();
    if quick {
        return vec![best_run_note(dir, &id)];
    }
    match rating::change_for(dir, &id) {
        Ok(Ok(change)) => vec![format!(
            "Rating {} {:.0} ± {:.0} ({} from {:.0})",
            rating::AGAINST_THE_COMPUTER,
            change.after.0,
            change.after.1,
            rating::signed(change.after.0 - change.before.0),
            change.before.0,
        )],
        Ok(Err(why)) => vec![why.to_string()],
        Err(e) => vec![format!("Rating unknown: {e}")],
    }
}

/// Where the Quick Play run recorded as `id` stands among the best runs
/// in the records folder `dir`.
fn best_run_note(dir: &Path, id: &str) -> String {
    let history = match History::read(dir) {
        Ok(history) => history,
        Err(e) => return format!("Best runs unknown: {e}"),
    };
    let runs = Stats::of(&history.games).runs;
    let best = runs.best.first();
    match runs.best.iter().position(|r| r.id == id) {
        Some(0) if runs.finished > 1 => "A new personal best!".to_string(),
        Some(0) => "Your first run: your best so far.".to_string(),
        Some(place) if best.is_some_and(|b| b.total == runs.best[place].total) => {
            "Level with your best run.".to_string()
        }
        Some(place) => format!(
            "Your {} best run (the best: {}).",
            ordinal(place + 1),
            best.map_or(0, |b| b.total)
        ),
        None => best.map_or_else(String::new, |best| {
            format!("Your best run: {} in {} hands.", best.total, best.hands)
        }),
    }
}

fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_are_ordinals() {
        let shown: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111]
            .into_iter()
            .map(ordinal)
            .collect();
        assert_eq!(
            shown,
            [
                "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st",
                "111th"
            ]
        );
    }
}
