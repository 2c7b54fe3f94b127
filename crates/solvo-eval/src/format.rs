//! The weight file: a versioned, checksummed binary format.
//!
//! Layout (little-endian):
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `SOLVOEVL` |
//! | 2 | format version (1) |
//! | 1 | board size (8 or 6) |
//! | 1 | variant (0 normal, 1 reversed) |
//! | 2 | weight units per disc ([`SCALE`]) |
//! | 2 | stages (8x8: [`crate::weights::NUM_STAGES`], 6x6: [`crate::features6::NUM_STAGES6`]) |
//! | 4 | weights per stage (8x8: [`crate::features::STAGE_LEN`], 6x6: [`crate::features6::STAGE_LEN6`]) |
//! | 8 | feature-layout fingerprint of the size ([`layout_fingerprint`], [`layout_fingerprint6`]) |
//! | 4 + n | description (length, UTF-8) |
//! | 4 + 12 m | Multi-ProbCut statistics (count; empties, shallow, deep, 0, mean f32, sigma f32) |
//! | 8 + k | weights (length, then runs: zero count, literal count, literals as zigzag varints) |
//! | ... | version 2 only, 8x8: the residual network ([`crate::residual`]): widths (2 + 2 bytes), embedding shift (1), embedding rows (8 + k, compressed as the weights, one representative row per symmetry class, the others zero), disc-count rows (65 x width, i32), second layer (f32, `[k][j]`), its biases, output weights, output bias |
//! | 8 | FNV-1a 64 checksum of every byte before it |
//!
//! Weights without a network are written as version 1 (byte for byte as before the
//! network existed); with one, as version 2. Both versions are read.
//!
//! Reading checks every field against this build and the checksum first: a damaged
//! or foreign file is an error naming what is wrong, never a panic or wrong scores.

use crate::checksum::fnv64;
use crate::features::layout_fingerprint;
use crate::features6::layout_fingerprint6;
#[cfg(feature = "residual")]
use crate::residual::{ResidualNet, NET_DISC_ROWS, NET_HIDDEN, NET_HIDDEN2};
use crate::weights::{layout_of, MpcStat, Weights, SCALE};
use solvo_othello::{BoardSize, Variant};
use std::fmt;

/// First bytes of every weight file.
pub const MAGIC: &[u8; 8] = b"SOLVOEVL";
/// The format version of weights without a residual network.
pub const VERSION: u16 = 1;
/// The format version of weights with a residual network (8x8).
pub const VERSION_WITH_NET: u16 = 2;

/// Why a weight file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightFileError {
    /// What is wrong, in words (which field, what was found, what was expected).
    pub message: String,
}

impl fmt::Display for WeightFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for WeightFileError {}

fn err<T>(message: impl Into<String>) -> Result<T, WeightFileError> {
    Err(WeightFileError { message: message.into() })
}

fn variant_code(v: Variant) -> u8 {
    match v {
        Variant::Normal => 0,
        Variant::Reversed => 1,
    }
}

/// The layout fingerprint of the features of `size` (8x8 or 6x6; 0 for a size without
/// features, which no file carries).
fn fingerprint_for(size: BoardSize) -> u64 {
    match size {
        BoardSize::Eight => layout_fingerprint(),
        BoardSize::Six => layout_fingerprint6(),
        BoardSize::Four => 0,
    }
}

fn push_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Compresses weights: alternating runs of zeros and of non-zero literals.
fn compress(values: &[i16]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < values.len() {
        let zeros = values[i..].iter().take_while(|&&v| v == 0).count();
        i += zeros;
        let literals = values[i..].iter().take_while(|&&v| v != 0).count();
        push_varint(&mut out, zeros as u64);
        push_varint(&mut out, literals as u64);
        for &v in &values[i..i + literals] {
            push_varint(&mut out, u64::from(((v << 1) ^ (v >> 15)) as u16));
        }
        i += literals;
    }
    out
}

/// A cursor over the file's bytes whose reads fail with the field's name on truncation.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], WeightFileError> {
        match self.at.checked_add(n).filter(|&end| end <= self.bytes.len()) {
            Some(end) => {
                let s = &self.bytes[self.at..end];
                self.at = end;
                Ok(s)
            }
            None => err(format!("file ends inside the {what} (byte {}, {} bytes in all)", self.at, self.bytes.len())),
        }
    }
    fn u8(&mut self, what: &str) -> Result<u8, WeightFileError> {
        Ok(self.take(1, what)?[0])
    }
    fn u16(&mut self, what: &str) -> Result<u16, WeightFileError> {
        Ok(u16::from_le_bytes(self.take(2, what)?.try_into().expect("2 bytes")))
    }
    fn u32(&mut self, what: &str) -> Result<u32, WeightFileError> {
        Ok(u32::from_le_bytes(self.take(4, what)?.try_into().expect("4 bytes")))
    }
    fn u64(&mut self, what: &str) -> Result<u64, WeightFileError> {
        Ok(u64::from_le_bytes(self.take(8, what)?.try_into().expect("8 bytes")))
    }
    fn f32(&mut self, what: &str) -> Result<f32, WeightFileError> {
        Ok(f32::from_le_bytes(self.take(4, what)?.try_into().expect("4 bytes")))
    }
    fn varint(&mut self, what: &str) -> Result<u64, WeightFileError> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.u8(what)?;
            v |= u64::from(b & 0x7F) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        err(format!("{what}: a number at byte {} is longer than 64 bits", self.at))
    }
}

fn decompress(bytes: &[u8], expected: usize) -> Result<Vec<i16>, WeightFileError> {
    let mut r = Reader { bytes, at: 0 };
    let mut out: Vec<i16> = Vec::new();
    out.try_reserve_exact(expected).or_else(|_| err("not enough memory for the weights"))?;
    while r.at < bytes.len() {
        let zeros = r.varint("weights")?;
        let literals = r.varint("weights")?;
        if zeros.saturating_add(literals) > (expected - out.len()) as u64 {
            return err(format!("weights: more than the {expected} values the header announces"));
        }
        out.resize(out.len() + zeros as usize, 0);
        for _ in 0..literals {
            let z = r.varint("weights")?;
            if z > u64::from(u16::MAX) {
                return err(format!("weights: value {z} at byte {} does not fit 16 bits", r.at));
            }
            let z = z as u16;
            out.push(((z >> 1) as i16) ^ -((z & 1) as i16));
        }
    }
    if out.len() != expected {
        return err(format!("weights: {} values, the header announces {expected}", out.len()));
    }
    Ok(out)
}

impl Weights {
    /// The file bytes of these weights (see the module documentation).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        #[cfg(feature = "residual")]
        let version = if self.residual().is_some() { VERSION_WITH_NET } else { VERSION };
        #[cfg(not(feature = "residual"))]
        let version = VERSION;
        out.extend(version.to_le_bytes());
        out.push(self.size().side());
        out.push(variant_code(self.variant));
        out.extend((SCALE as u16).to_le_bytes());
        out.extend((self.stages() as u16).to_le_bytes());
        out.extend((self.stage_len() as u32).to_le_bytes());
        out.extend(fingerprint_for(self.size()).to_le_bytes());
        out.extend((self.description.len() as u32).to_le_bytes());
        out.extend(self.description.as_bytes());
        out.extend((self.mpc.len() as u32).to_le_bytes());
        for m in &self.mpc {
            out.extend([m.empties, m.shallow, m.deep, 0]);
            out.extend(m.mean.to_le_bytes());
            out.extend(m.sigma.to_le_bytes());
        }
        let payload = compress(self.table());
        out.extend((payload.len() as u64).to_le_bytes());
        out.extend(payload);
        #[cfg(feature = "residual")]
        if let Some(net) = self.residual() {
            let (shift, rows, disc_rows, w2, b2, w3, b3) = net.parts();
            out.extend((NET_HIDDEN as u16).to_le_bytes());
            out.extend((NET_HIDDEN2 as u16).to_le_bytes());
            out.push(shift);
            let payload = compress(&rows);
            out.extend((payload.len() as u64).to_le_bytes());
            out.extend(payload);
            for x in disc_rows {
                out.extend(x.to_le_bytes());
            }
            for x in w2.iter().chain(b2).chain(w3).chain(std::iter::once(&b3)) {
                out.extend(x.to_le_bytes());
            }
        }
        let sum = fnv64(&out);
        out.extend(sum.to_le_bytes());
        out
    }

    /// Reads a weight file, checking its magic, version, board size, layout, stage
    /// count, checksum and every length. Errors name the field that is wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<Weights, WeightFileError> {
        if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
            return err("not a solvo weight file (it does not start with SOLVOEVL)");
        }
        if bytes.len() < MAGIC.len() + 2 + 8 {
            return err(format!("truncated: {} bytes, too short for a weight file", bytes.len()));
        }
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        let mut r = Reader { bytes: body, at: MAGIC.len() };
        let version = r.u16("version")?;
        if version != VERSION && version != VERSION_WITH_NET {
            return err(format!(
                "format version {version}; this build reads versions {VERSION} and {VERSION_WITH_NET}"
            ));
        }
        let stored = u64::from_le_bytes(sum.try_into().expect("8 bytes"));
        if fnv64(body) != stored {
            return err("checksum mismatch: the file is damaged (truncated or altered); restore or regenerate it");
        }
        let side = r.u8("board size")?;
        let size = match side {
            8 => BoardSize::Eight,
            6 => BoardSize::Six,
            _ => return err(format!("board size {side}; this build has features for 8x8 and 6x6 only")),
        };
        let (num_stages, stage_len_expected) = layout_of(size).expect("8x8 and 6x6 have layouts");
        let variant = match r.u8("variant")? {
            0 => Variant::Normal,
            1 => Variant::Reversed,
            v => return err(format!("variant code {v} is neither 0 (normal) nor 1 (reversed)")),
        };
        let scale = r.u16("scale")?;
        if i32::from(scale) != SCALE {
            return err(format!("{scale} weight units per disc; this build uses {SCALE}"));
        }
        let stages = r.u16("stage count")?;
        if usize::from(stages) != num_stages {
            return err(format!("{stages} stages; this build uses {num_stages} on {size}"));
        }
        let stage_len = r.u32("stage length")?;
        if stage_len as usize != stage_len_expected {
            return err(format!(
                "{stage_len} weights per stage; this build's {size} features need {stage_len_expected}"
            ));
        }
        let layout = r.u64("layout fingerprint")?;
        if layout != fingerprint_for(size) {
            return err(format!(
                "feature layout {layout:016x} differs from this build's {size} layout {:016x} (weights trained for other patterns)",
                fingerprint_for(size)
            ));
        }
        let n = r.u32("description length")? as usize;
        let description =
            std::str::from_utf8(r.take(n, "description")?).or_else(|_| err("description is not UTF-8"))?.to_string();
        let m = r.u32("Multi-ProbCut count")? as usize;
        let mut mpc = Vec::new();
        for _ in 0..m {
            let head = r.take(4, "Multi-ProbCut statistics")?;
            let (empties, shallow, deep) = (head[0], head[1], head[2]);
            let mean = r.f32("Multi-ProbCut statistics")?;
            let sigma = r.f32("Multi-ProbCut statistics")?;
            if !(mean.is_finite() && sigma.is_finite() && sigma >= 0.0 && shallow < deep && empties <= 60) {
                return err(format!("Multi-ProbCut entry {} is invalid", mpc.len() + 1));
            }
            mpc.push(MpcStat { empties, shallow, deep, mean, sigma });
        }
        let len = r.u64("weights length")?;
        let payload = r.take(usize::try_from(len).unwrap_or(usize::MAX), "weights")?;
        #[cfg(feature = "residual")]
        let net = if version == VERSION_WITH_NET {
            if size != BoardSize::Eight {
                return err(format!("a residual network in a {size} weight file (networks are for 8x8)"));
            }
            Some(read_net(&mut r)?)
        } else {
            None
        };
        #[cfg(not(feature = "residual"))]
        if version == VERSION_WITH_NET {
            return err(
                "the weights carry a residual network (format version 2), a lab experiment this build leaves out \
                 (the lab's solvo-lab reads them; or build with the solvo-eval feature `residual`)",
            );
        }
        if r.at != body.len() {
            return err(format!("{} unexpected bytes after the weights", body.len() - r.at));
        }
        let table = decompress(payload, num_stages * stage_len_expected)?;
        let mut w = Weights::from_table_for(size, variant, table).expect("length checked");
        w.description = description;
        w.mpc = mpc;
        #[cfg(feature = "residual")]
        w.set_residual(net).expect("8x8 checked");
        Ok(w)
    }
}

/// Reads the residual network section of a version-2 file.
#[cfg(feature = "residual")]
fn read_net(r: &mut Reader) -> Result<ResidualNet, WeightFileError> {
    let hidden = r.u16("network width")?;
    let hidden2 = r.u16("network width")?;
    if usize::from(hidden) != NET_HIDDEN || usize::from(hidden2) != NET_HIDDEN2 {
        return err(format!("network widths {hidden}x{hidden2}; this build's network is {NET_HIDDEN}x{NET_HIDDEN2}"));
    }
    let shift = r.u8("network embedding shift")?;
    let len = r.u64("network rows length")?;
    let payload = r.take(usize::try_from(len).unwrap_or(usize::MAX), "network rows")?;
    let rows = decompress(payload, crate::features::STAGE_LEN * NET_HIDDEN)?;
    let mut disc_rows = Vec::with_capacity(NET_DISC_ROWS * NET_HIDDEN);
    for _ in 0..NET_DISC_ROWS * NET_HIDDEN {
        disc_rows.push(r.u32("network disc-count rows")? as i32);
    }
    let mut floats =
        |n: usize| -> Result<Vec<f32>, WeightFileError> { (0..n).map(|_| r.f32("network layers")).collect() };
    let w2 = floats(NET_HIDDEN * NET_HIDDEN2)?;
    let b2 = floats(NET_HIDDEN2)?.try_into().expect("H2 values");
    let w3 = floats(NET_HIDDEN2)?.try_into().expect("H2 values");
    let b3 = floats(1)?[0];
    ResidualNet::from_parts(shift, rows, disc_rows, w2, b2, w3, b3)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compression_round_trips() {
        let v: Vec<i16> = vec![0, 0, 5, -3, 0, i16::MIN, i16::MAX, 0, 0, 0, 1];
        let n = crate::weights::NUM_STAGES * crate::features::STAGE_LEN;
        let mut full = vec![0i16; n];
        full[..v.len()].copy_from_slice(&v);
        full[n - 1] = -7;
        assert_eq!(decompress(&compress(&full), full.len()).unwrap(), full);
    }
}
