//! Writes each game played at the table as a game record
//! (docs/game-record.md), as it goes, one file per game.

use std::fs::{self, File};
use std::io::BufWriter;
use std::path::{Path, PathBuf};

use crate::engine::{Event, Seat};
use crate::record::{GameHeader, RecordWriter, record_file_name};

use super::app::App;

/// The record of the game in progress. A record that cannot be written
/// never stops the game: the first failure is kept to tell the player after.
pub struct Recording {
    dir: Option<PathBuf>,
    writer: Option<RecordWriter<BufWriter<File>>>,
    /// The seed of the game being written, to notice a new game.
    seed: Option<u64>,
    written: usize,
    finished: bool,
    problem: Option<String>,
    paths: Vec<PathBuf>,
}

impl Recording {
    /// Records go into `dir`; `None` records nothing.
    pub fn new(dir: Option<PathBuf>) -> Recording {
        Recording {
            dir,
            writer: None,
            seed: None,
            written: 0,
            finished: false,
            problem: None,
            paths: Vec::new(),
        }
    }

    /// Writes whatever the app's game has done since the last call.
    pub fn follow(&mut self, app: &App) {
        if self.dir.is_none() || self.problem.is_some() {
            return;
        }
        if self.seed != Some(app.seed()) {
            self.close();
            self.seed = Some(app.seed());
            self.written = 0;
            self.finished = false;
            if let Err(e) = self.open(app) {
                return self.fail(e);
            }
        }
        let Some(writer) = &mut self.writer else {
            return;
        };
        let new = app.events().get(self.written..).unwrap_or_default();
        for event in new {
            if let Err(e) = writer.event(event) {
                return self.fail(e.to_string());
            }
            self.finished |= matches!(event, Event::End { .. });
        }
        self.written = app.events().len();
    }

    fn open(&mut self, app: &App) -> Result<(), String> {
        let dir = self.dir.as_deref().unwrap_or(Path::new("."));
        fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let path = dir.join(record_file_name(app.seed()));
        let file =
            File::create(&path).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        let mut writer = RecordWriter::new(BufWriter::new(file));
        let rules = app.config().rules;
        let names = (0..rules.mode.seats())
            .map(|s| app.names().seat(Seat::new(s)).to_string())
            .collect();
        writer
            .header(&GameHeader::new(rules, names, Some(app.seed())))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        self.writer = Some(writer);
        self.paths.push(path);
        Ok(())
    }

    fn fail(&mut self, problem: String) {
        self.writer = None;
        self.problem = Some(problem);
    }

    /// Ends the current record, marking a game left unfinished.
    pub fn close(&mut self) {
        if let Some(mut writer) = self.writer.take() {
            let result = if self.finished {
                std::io::Write::flush(&mut writer.into_inner())
            } else {
                writer.abandoned()
            };
            if let Err(e) = result {
                self.problem = Some(e.to_string());
            }
        }
    }

    /// The files written, in order.
    pub fn paths(&self) -> &[PathBuf] {
        &self.paths
    }

    /// Why records could not be written, if they could not.
    pub fn problem(&self) -> Option<&str> {
        self.problem.as_deref()
    }
}
