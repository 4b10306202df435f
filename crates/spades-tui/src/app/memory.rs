//! The memory panel (`m`): shown or hidden at the player's word, for the
//! rest of the session. What it shows is the engine's `Memory`.

use super::App;

impl App {
    pub(super) fn toggle_memory(&mut self) {
        self.memory_shown = !self.memory_shown;
    }

    /// Is the panel of the cards played and the voids shown?
    pub fn memory_shown(&self) -> bool {
        self.memory_shown
    }
}
