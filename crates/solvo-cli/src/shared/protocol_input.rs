//! The input of a protocol front end (GTP, NBoard): a thread reads stdin line by line,
//! so that a line arriving while the engine thinks can stop the search.
//!
//! A line that is not UTF-8 text (a Latin-1 player name in a game record) is handed on
//! as such, for the front end to answer with an error and go on. The end of input (or
//! a read error) means the GUI is gone: from then on every search is stopped (the
//! running one, and any the lines read before the end start), and the end comes last,
//! after those lines.

use solvo_engine::StopHandle;
use std::collections::VecDeque;
use std::io::BufRead;
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

/// How often the stop flag is raised again once the input has ended.
const STOP_AGAIN: Duration = Duration::from_millis(5);

/// One item of a protocol's input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A line of text (without its line end).
    Line(String),
    /// A line that is not UTF-8 text.
    NotText {
        /// The line with its invalid bytes replaced (for a command id).
        lossy: String,
        /// What is wrong and where: the line, the column, the first invalid byte.
        error: String,
    },
    /// The end of input (then again on every later call).
    End,
}

/// The reader thread's items, in order, and those looked at but not yet taken.
pub struct ProtocolInput {
    items: Receiver<Input>,
    pending: VecDeque<Input>,
    interrupts: fn(&str) -> bool,
}

/// The line (without `\n` or `\r\n`) as an [`Input`]; `number` counts from 1.
fn decode(mut bytes: Vec<u8>, number: u64) -> Input {
    while bytes.last().is_some_and(|b| *b == b'\n' || *b == b'\r') {
        bytes.pop();
    }
    match String::from_utf8(bytes) {
        Ok(line) => Input::Line(line),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let bytes = e.into_bytes();
            let error = format!(
                "input line {number} is not UTF-8 text (byte 0x{:02X} at column {}; send text in UTF-8): ignored",
                bytes[at],
                at + 1
            );
            Input::NotText { lossy: String::from_utf8_lossy(&bytes).into_owned(), error }
        }
    }
}

impl ProtocolInput {
    /// Starts reading stdin. A line for which `interrupts` holds, and the end of input,
    /// raise `stop` as soon as they are read.
    pub fn start(stop: StopHandle, interrupts: fn(&str) -> bool) -> ProtocolInput {
        let (tx, items) = channel();
        std::thread::spawn(move || {
            let mut stdin = std::io::stdin().lock();
            let mut number = 0u64;
            loop {
                let mut bytes = Vec::new();
                match stdin.read_until(b'\n', &mut bytes) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
                number += 1;
                let item = decode(bytes, number);
                if matches!(&item, Input::Line(l) if interrupts(l)) {
                    stop.stop();
                }
                if tx.send(item).is_err() {
                    return;
                }
            }
            let _ = tx.send(Input::End);
            // Nobody reads answers any more: every search until the front end has ended
            // is stopped, also one that cleared the flag as it started after the end
            // was read (a search clears it when it starts).
            loop {
                stop.stop();
                std::thread::sleep(STOP_AGAIN);
            }
        });
        ProtocolInput { items, pending: VecDeque::new(), interrupts }
    }

    /// The next item, waiting for it; [`Input::End`] once the input has ended.
    pub fn next(&mut self) -> Input {
        self.pending.pop_front().or_else(|| self.items.recv().ok()).unwrap_or(Input::End)
    }

    /// True when an interrupting line or the end of input has been read and waits: a
    /// search starting now would be stopped at once, so it should be as short as can
    /// be.
    pub fn interrupt_waiting(&mut self) -> bool {
        while let Ok(item) = self.items.try_recv() {
            self.pending.push_back(item);
        }
        let interrupts = self.interrupts;
        self.pending.iter().any(|i| match i {
            Input::Line(l) => interrupts(l),
            Input::NotText { .. } => false,
            Input::End => true,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_lose_their_line_ends_and_bytes_that_are_not_utf8_are_named() {
        assert_eq!(decode(b"go\r\n".to_vec(), 1), Input::Line("go".into()));
        assert_eq!(
            decode("set game PB[Jos\u{e9}]\n".as_bytes().to_vec(), 1),
            Input::Line("set game PB[Jos\u{e9}]".into())
        );
        let Input::NotText { lossy, error } = decode(b"7 name Jos\xe9\n".to_vec(), 3) else { panic!("text") };
        assert!(lossy.starts_with("7 name Jos"));
        assert!(error.contains("line 3") && error.contains("0xE9") && error.contains("column 11"), "{error}");
    }
}
