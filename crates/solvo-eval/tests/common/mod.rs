//! Helpers shared by the weight-file tests.

/// Rewrites the checksum of a weight file after an edit (a well-formed foreign file).
pub fn resealed(mut bytes: Vec<u8>) -> Vec<u8> {
    let n = bytes.len() - 8;
    let sum = solvo_eval::checksum::fnv64(&bytes[..n]);
    bytes[n..].copy_from_slice(&sum.to_le_bytes());
    bytes
}
