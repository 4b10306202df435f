//! Work done on a thread of its own, so that no update of the screen waits
//! on it (the records read from the disk): its answer is taken in once it
//! has come, never waited for.

use std::sync::mpsc::{Receiver, TryRecvError};

/// Work being done aside, or its answer.
#[derive(Debug)]
pub enum Aside<T> {
    Working(Receiver<T>),
    Done(T),
}

impl<T: Send + 'static> Aside<T> {
    /// Starts `work` on a thread of its own. Nobody waits for the thread:
    /// an answer nobody takes is dropped.
    pub fn start(work: impl FnOnce() -> T + Send + 'static) -> Self {
        let (answer, answers) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = answer.send(work());
        });
        Aside::Working(answers)
    }

    /// Takes the answer in if it has come; `lost` stands for the answer of
    /// a thread that died without one (a bug, said rather than hidden).
    pub fn take_answer(&mut self, lost: impl FnOnce() -> T) {
        let Aside::Working(answers) = self else {
            return;
        };
        *self = match answers.try_recv() {
            Ok(answer) => Aside::Done(answer),
            Err(TryRecvError::Empty) => return,
            Err(TryRecvError::Disconnected) => Aside::Done(lost()),
        };
    }

    /// The answer itself, once it has come (taken in here); the work
    /// still under way otherwise, to be asked again.
    pub fn into_answer(mut self, lost: impl FnOnce() -> T) -> Result<T, Self> {
        self.take_answer(lost);
        match self {
            Aside::Done(answer) => Ok(answer),
            working => Err(working),
        }
    }

    /// The answer, once it has been taken in.
    pub fn answer(&self) -> Option<&T> {
        match self {
            Aside::Done(answer) => Some(answer),
            Aside::Working(_) => None,
        }
    }

    pub fn is_working(&self) -> bool {
        matches!(self, Aside::Working(_))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answer_is_taken_once_it_has_come_and_never_waited_for() {
        let (go, wait) = std::sync::mpsc::channel::<()>();
        let mut aside = Aside::start(move || {
            wait.recv().unwrap();
            7
        });
        aside.take_answer(|| 0);
        assert!(aside.is_working(), "the work waits: it is not waited for");
        assert_eq!(aside.answer(), None);
        go.send(()).unwrap();
        while aside.is_working() {
            std::thread::yield_now();
            aside.take_answer(|| 0);
        }
        assert_eq!(aside.answer(), Some(&7));
    }

    #[test]
    fn an_answer_is_given_up_whole_once_it_has_come() {
        let (go, wait) = std::sync::mpsc::channel::<()>();
        let aside = Aside::start(move || {
            wait.recv().unwrap();
            String::from("done")
        });
        let mut aside = aside.into_answer(String::new).expect_err("still working");
        go.send(()).unwrap();
        let answer = loop {
            match aside.into_answer(String::new) {
                Ok(answer) => break answer,
                Err(working) => aside = working,
            }
            std::thread::yield_now();
        };
        assert_eq!(answer, "done");
    }

    #[test]
    fn work_that_dies_gives_the_lost_answer() {
        let mut aside: Aside<u8> = Aside::start(|| panic!("a bug"));
        while aside.is_working() {
            std::thread::yield_now();
            aside.take_answer(|| 9);
        }
        assert_eq!(aside.answer(), Some(&9));
    }
}
