//! The product's default build (no `residual` feature): a weight file carrying a residual
//! network (format version 2, made by the lab) is refused with a message saying what it
//! is, never misread as linear weights.

#![cfg(not(feature = "residual"))]

mod common;

use common::resealed;
use solvo_eval::format::{VERSION, VERSION_WITH_NET};
use solvo_eval::{embedded, Weights};
use solvo_othello::Variant;

#[test]
fn a_weight_file_with_a_network_is_refused_by_name() {
    let bytes = embedded(Variant::Normal).unwrap().to_bytes();
    assert_eq!(u16::from_le_bytes([bytes[8], bytes[9]]), VERSION, "a plain set is written as version 1");
    let mut v2 = bytes.clone();
    v2[8..10].copy_from_slice(&VERSION_WITH_NET.to_le_bytes());
    let e = Weights::from_bytes(&resealed(v2)).unwrap_err();
    assert!(e.message.contains("residual network") && e.message.contains("solvo-lab"), "{}", e.message);
    assert_eq!(Weights::from_bytes(&bytes).unwrap(), *embedded(Variant::Normal).unwrap());
}
