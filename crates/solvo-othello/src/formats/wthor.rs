//! WTHOR databases of the Fédération Française d'Othello: `.wtb` game files and the
//! `.JOU` (players) / `.TRN` (tournaments) name files.
//!
//! Layout (little-endian): a 16-byte header — creation century, year, month, day (4
//! bytes), number of records N1 (u32), number of records N2 (u16), year of the games
//! (u16), board size P1 (0 or 8), kind P2 (0 = games), depth P3 (the number of empties
//! at which the "theoretical score" was computed), reserved — then N1 games of 68 bytes:
//! tournament id (u16), black player id (u16), white player id (u16), black's discs at
//! the end (u8), black's theoretical discs (u8), 60 move bytes `10 * rank + file` (both
//! 1..8; 0 = no move, only after the last move). Passes are implicit. Name files have
//! the same header (N2 = record count) then fixed-size NUL-padded records.

use super::transcript::Replay;
use super::ParseError;
use crate::position::Position;
use crate::size::BoardSize;
use crate::square::Square;
use crate::variant::Variant;

/// Bytes of a file header.
pub const HEADER_LEN: usize = 16;
/// Bytes of a game record.
pub const GAME_LEN: usize = 68;
/// Bytes of a player name record (`.JOU`).
pub const PLAYER_RECORD_LEN: usize = 20;
/// Bytes of a tournament name record (`.TRN`).
pub const TOURNAMENT_RECORD_LEN: usize = 26;

/// The header of a WTHOR file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WthorHeader {
    /// Creation date: (year CCYY, month, day).
    pub created: (u16, u8, u8),
    /// Number of games (N1).
    pub games: u32,
    /// Number of records (N2; used by name files).
    pub records: u16,
    /// Year of the games.
    pub year: u16,
    /// Board size (0 means 8).
    pub board_size: u8,
    /// File kind (0 = games, 1 = solitaires).
    pub kind: u8,
    /// Empties at which the theoretical score was computed (P3).
    pub depth: u8,
}

/// One game record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WthorGame {
    /// Tournament id (index into the `.TRN` names).
    pub tournament: u16,
    /// Black player id (index into the `.JOU` names).
    pub black_player: u16,
    /// White player id.
    pub white_player: u16,
    /// Black's discs at the end of the game (empties counted for the winner).
    pub black_discs: u8,
    /// Black's discs with perfect play from the position at `depth` empties.
    pub theoretical_black_discs: u8,
    /// The moves in order (passes implicit).
    pub moves: Vec<Square>,
}

/// A parsed game file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WthorFile {
    /// The header.
    pub header: WthorHeader,
    /// The games, in file order (game `n` is `games[n - 1]`); a damaged record keeps its
    /// place, with the moves before the damage: a game cut short that must be neither
    /// learned from nor shown as a game (its result belongs to the whole game). Read
    /// games through [`WthorFile::whole_games`] unless the damage is looked at.
    pub games: Vec<WthorGame>,
    /// The damaged records: (index into `games`, what is wrong). The other games are
    /// whole and usable.
    pub damaged: Vec<(usize, String)>,
}

impl WthorFile {
    /// What is wrong with game `index` (0-based), if its record is damaged.
    pub fn damage(&self, index: usize) -> Option<&str> {
        self.damaged.iter().find(|(i, _)| *i == index).map(|(_, m)| m.as_str())
    }

    /// The games whose records are whole, with their 0-based index, in file order:
    /// every game of [`WthorFile::games`] except the damaged records (see
    /// [`WthorFile::damaged`] for what is wrong with those). Whether the moves replay
    /// legally is not checked here ([`WthorGame::replay`]).
    pub fn whole_games(&self) -> impl Iterator<Item = (usize, &WthorGame)> + '_ {
        self.games.iter().enumerate().filter(|(i, _)| self.damage(*i).is_none())
    }
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn parse_header(bytes: &[u8]) -> Result<WthorHeader, ParseError> {
    if bytes.len() < HEADER_LEN {
        return Err(ParseError::general(format!(
            "file of {} bytes is too short for the {HEADER_LEN}-byte WTHOR header",
            bytes.len()
        )));
    }
    Ok(WthorHeader {
        created: (u16::from(bytes[0]) * 100 + u16::from(bytes[1]), bytes[2], bytes[3]),
        games: u32::from_le_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]),
        records: u16_at(bytes, 8),
        year: u16_at(bytes, 10),
        board_size: bytes[12],
        kind: bytes[13],
        depth: bytes[14],
    })
}

/// Parses a `.wtb` game file. Checks the size against the header, the board size (8),
/// every move byte (a square, or trailing zeros); does not replay the games (see
/// [`WthorGame::replay`]). A file-level problem is an error; a bad move byte damages
/// only its game, listed in [`WthorFile::damaged`] with the game number and byte
/// offset, so the other games stay usable.
pub fn parse_wtb(bytes: &[u8]) -> Result<WthorFile, ParseError> {
    let header = parse_header(bytes)?;
    let expected = HEADER_LEN as u64 + GAME_LEN as u64 * u64::from(header.games);
    if bytes.len() as u64 != expected {
        return Err(ParseError::general(format!(
            "file is {} bytes but its header announces {} games, i.e. {expected} bytes",
            bytes.len(),
            header.games
        )));
    }
    if header.board_size != 0 && header.board_size != 8 {
        return Err(ParseError::general(format!(
            "byte 12: board size {} is not supported (expected 0 or 8)",
            header.board_size
        )));
    }
    if header.kind != 0 {
        return Err(ParseError::general(format!("byte 13: file kind {} is not a game file (expected 0)", header.kind)));
    }
    let mut games = Vec::with_capacity(header.games as usize);
    let mut damaged = Vec::new();
    for (i, rec) in bytes[HEADER_LEN..].chunks_exact(GAME_LEN).enumerate() {
        let offset = HEADER_LEN + i * GAME_LEN;
        let mut moves = Vec::with_capacity(60);
        let mut ended = false;
        for (k, &m) in rec[8..].iter().enumerate() {
            let at = || format!("game {} (byte {}), move {}", i + 1, offset + 8 + k, k + 1);
            if m == 0 {
                ended = true;
                continue;
            }
            let (rank, file) = (m / 10, m % 10);
            let problem = if ended {
                Some(format!("{}: move {m} after the end of the game (a 0 byte)", at()))
            } else if !(1..=8).contains(&rank) || !(1..=8).contains(&file) {
                Some(format!("{}: byte {m} is not a square (expected 10*rank+file, 11..88)", at()))
            } else {
                None
            };
            if let Some(p) = problem {
                damaged.push((i, p));
                break;
            }
            moves.push(Square::from_row_col(rank - 1, file - 1));
        }
        games.push(WthorGame {
            tournament: u16_at(rec, 0),
            black_player: u16_at(rec, 2),
            white_player: u16_at(rec, 4),
            black_discs: rec[6],
            theoretical_black_discs: rec[7],
            moves,
        });
    }
    Ok(WthorFile { header, games, damaged })
}

/// Writes a game file: the inverse of [`parse_wtb`] (the header's game count is
/// taken from `file.games`). The creation year is written as a century byte and a
/// year byte that read back as the same year: every year [`parse_wtb`] gives (at most
/// 255 * 100 + 255) round-trips; a later one, which no file can hold, is written as
/// that largest year.
pub fn write_wtb(file: &WthorFile) -> Vec<u8> {
    let h = &file.header;
    let mut out = Vec::with_capacity(HEADER_LEN + GAME_LEN * file.games.len());
    let century = (h.created.0 / 100).min(255);
    let year = (h.created.0 - century * 100).min(255);
    out.extend([century as u8, year as u8, h.created.1, h.created.2]);
    out.extend((file.games.len() as u32).to_le_bytes());
    out.extend(h.records.to_le_bytes());
    out.extend(h.year.to_le_bytes());
    out.extend([h.board_size, h.kind, h.depth, 0]);
    for g in &file.games {
        out.extend(g.tournament.to_le_bytes());
        out.extend(g.black_player.to_le_bytes());
        out.extend(g.white_player.to_le_bytes());
        out.extend([g.black_discs, g.theoretical_black_discs]);
        let mut moves = [0u8; 60];
        for (slot, sq) in moves.iter_mut().zip(&g.moves) {
            *slot = 10 * (sq.row() + 1) + sq.col() + 1;
        }
        out.extend(moves);
    }
    out
}

/// Parses a name file (`.JOU` with [`PLAYER_RECORD_LEN`], `.TRN` with
/// [`TOURNAMENT_RECORD_LEN`]): the names in id order, NUL padding removed, bytes
/// read as Latin-1.
pub fn parse_names(bytes: &[u8], record_len: usize) -> Result<Vec<String>, ParseError> {
    let header = parse_header(bytes)?;
    if record_len == 0 {
        return Err(ParseError::general("record length must be positive"));
    }
    let count = usize::from(header.records);
    let expected = HEADER_LEN + count * record_len;
    if bytes.len() < expected {
        return Err(ParseError::general(format!(
            "file is {} bytes but its header announces {count} records of {record_len} bytes, i.e. {expected} bytes",
            bytes.len()
        )));
    }
    Ok(bytes[HEADER_LEN..expected]
        .chunks_exact(record_len)
        .map(|rec| {
            let end = rec.iter().position(|&b| b == 0).unwrap_or(rec.len());
            rec[..end].iter().map(|&b| b as char).collect::<String>().trim_end().to_string()
        })
        .collect())
}

impl WthorGame {
    /// Replays the moves from the 8x8 start (passes implicit). Errors name the move.
    pub fn replay(&self) -> Result<Replay, ParseError> {
        let mut replay = Replay::new(Position::start(BoardSize::Eight, Variant::Normal));
        for (k, &sq) in self.moves.iter().enumerate() {
            replay.push_move(sq).map_err(|e| ParseError::general(format!("move {} ({sq}): {e}", k + 1)))?;
        }
        Ok(replay)
    }

    /// Black's final disc count as WTHOR records it, computed from the replay: black's
    /// discs, plus the empties when black won. `None` if the game is not over.
    pub fn replayed_black_discs(replay: &Replay) -> Option<u8> {
        let end = replay.end();
        if !end.is_game_over() {
            return None;
        }
        // black_score = black - white (+/- empties to the winner); black + white + empties = 64.
        Some(((64 + end.black_score()) / 2) as u8)
    }

    /// The position with `empties` empty squares reached in this game (the one the
    /// theoretical score refers to when `empties` is the header's depth), or `None` if
    /// the game never reaches it.
    pub fn position_at_empties(&self, empties: u32) -> Option<Position> {
        let replay = self.replay().ok()?;
        std::iter::once(replay.start)
            .chain(replay.positions.iter().copied())
            .find(|p| p.empties() == empties && !p.is_game_over() && p.moves() != 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_corruptions() {
        let game = WthorGame {
            tournament: 3,
            black_player: 7,
            white_player: 9,
            black_discs: 40,
            theoretical_black_discs: 36,
            moves: ["f5", "d6", "c3"].iter().map(|s| Square::parse(s).unwrap()).collect(),
        };
        let file = WthorFile {
            header: WthorHeader {
                created: (2025, 1, 2),
                games: 1,
                records: 0,
                year: 2024,
                board_size: 8,
                kind: 0,
                depth: 22,
            },
            games: vec![game],
            damaged: Vec::new(),
        };
        let bytes = write_wtb(&file);
        assert_eq!(bytes.len(), HEADER_LEN + GAME_LEN);
        assert_eq!(parse_wtb(&bytes).unwrap(), file);
        assert_eq!(file.games[0].replay().unwrap().transcript(Default::default()), "f5d6c3");
        assert!(parse_wtb(&bytes[..bytes.len() - 1]).unwrap_err().message.contains("header announces 1 games"));
        let mut bad = bytes.clone();
        bad[HEADER_LEN + 8 + 3] = 99;
        assert!(parse_wtb(&bad).unwrap().damage(0).unwrap().contains("not a square"));
        let mut bad = bytes.clone();
        bad[HEADER_LEN + 8 + 1] = 0;
        assert!(parse_wtb(&bad).unwrap().damage(0).unwrap().contains("after the end"));
        // One damaged game leaves the others whole.
        let mut two = file.clone();
        two.games.push(two.games[0].clone());
        let mut bad = write_wtb(&two);
        bad[HEADER_LEN + 8 + 3] = 99;
        let parsed = parse_wtb(&bad).unwrap();
        assert_eq!((parsed.damaged.len(), parsed.damage(1)), (1, None));
        assert_eq!(parsed.games[1], file.games[0]);
        let whole: Vec<usize> = parsed.whole_games().map(|(i, _)| i).collect();
        assert_eq!(whole, [1], "the damaged game is not among the whole ones");
        let mut bad = bytes.clone();
        bad[HEADER_LEN + 8] = 11; // a1 as the first move
        let err = parse_wtb(&bad).unwrap().games[0].replay().unwrap_err();
        assert!(err.message.contains("move 1 (a1)"), "{err}");
        assert!(parse_wtb(&[1, 2, 3]).is_err());
        assert!(parse_names(&[0; 10], PLAYER_RECORD_LEN).is_err());
    }
}
