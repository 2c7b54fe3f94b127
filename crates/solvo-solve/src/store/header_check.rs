//! A check of a database file's super-header before the database library sees it.
//!
//! redb trusts the fields of its first page: the page size and the region layout are not
//! covered by any checksum, and the commit slot it uses after a clean close is used even
//! when the slot's own checksum does not match. A page number read from a damaged header
//! can name a page of `4 KiB << 31` bytes, and the library allocates a buffer of that
//! size before reading it: an allocation failure, which aborts the process (no panic to
//! contain). This check refuses such a file as damaged first, so that opening a store
//! never takes the process down.
//!
//! The layout checked is redb's file format 2 and 3 (redb 2.x, `tree_store/page_store/
//! header.rs`): magic (9 bytes), god byte, 2 padding bytes, page size, region header
//! pages, region data pages, full regions, pages of the trailing region (`u32` each),
//! region tracker page (`u64`), then two commit slots of 128 bytes at offset 64. A slot:
//! version, three "root present" flags, 4 padding bytes, the user, system and freed
//! roots (page number, 128-bit checksum, length: 32 bytes each), the last transaction id,
//! and at its end the slot's xxh3-128 checksum of the 112 bytes before it. A test
//! creates a store with the library in use and checks it here, so a change of layout in
//! a new version of the library is caught by the tests, not by users.

use super::StoreError;
use std::io::Read;
use std::path::Path;

const MAGIC: [u8; 9] = [b'r', b'e', b'd', b'b', 0x1A, 0x0A, 0xA9, 0x0D, 0x0A];
const HEADER_LEN: usize = 64 + 2 * SLOT_LEN;
const SLOT_LEN: usize = 128;
const SLOT_CHECKED_LEN: usize = SLOT_LEN - 16;
/// The page size solvo's stores are made with (the library's default; the library
/// refuses a file of another page size by a panic).
const PAGE_SIZE: u64 = 4096;
/// Page indices have 20 bits; a region cannot hold more data pages.
const MAX_REGION_PAGES: u32 = 1 << 20;
/// The largest page order the library writes.
const MAX_PAGE_ORDER: u64 = 20;
const PRIMARY_BIT: u8 = 1;
const RECOVERY_REQUIRED: u8 = 2;
const TWO_PHASE_COMMIT: u8 = 4;

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut x = [0u8; 8];
    x.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(x)
}

/// The file's geometry as its header states it.
struct Layout {
    region_header_pages: u64,
    region_data_pages: u64,
    file_len: u64,
}

impl Layout {
    /// Whether the page `number` (the library's packed page number) lies inside the
    /// file: its order is one the library writes and its bytes end before the file does.
    fn holds(&self, number: u64) -> bool {
        let order = number >> 59;
        let index = number & (0x000F_FFFF >> order.min(20));
        let region = (number >> 20) & 0x000F_FFFF;
        if order > MAX_PAGE_ORDER {
            return false;
        }
        let page_bytes = PAGE_SIZE << order;
        let region_len = (self.region_header_pages + self.region_data_pages) as u128 * PAGE_SIZE as u128;
        let start = PAGE_SIZE as u128
            + region as u128 * region_len
            + self.region_header_pages as u128 * PAGE_SIZE as u128
            + index as u128 * page_bytes as u128;
        start + page_bytes as u128 <= self.file_len as u128
    }
}

/// One commit slot, read without trusting it.
struct Slot<'a> {
    bytes: &'a [u8],
}

impl Slot<'_> {
    fn checksum_ok(&self) -> bool {
        let stored = u128::from_le_bytes(self.bytes[SLOT_CHECKED_LEN..SLOT_LEN].try_into().expect("16 bytes"));
        stored == xxhash_rust::xxh3::xxh3_128(&self.bytes[..SLOT_CHECKED_LEN])
    }

    fn version(&self) -> u8 {
        self.bytes[0]
    }

    fn transaction_id(&self) -> u64 {
        u64_at(self.bytes, 8 + 3 * 32)
    }

    /// The page numbers of the roots the slot says are present.
    fn roots(&self) -> impl Iterator<Item = (&'static str, u64)> + '_ {
        ["data", "system", "freed"]
            .into_iter()
            .enumerate()
            .filter(|&(i, _)| self.bytes[1 + i] != 0)
            .map(|(i, name)| (name, u64_at(self.bytes, 8 + 32 * i)))
    }
}

/// Checks the super-header of the existing, non-empty file at `path`; an error names
/// the damage. A missing or empty file passes (the library creates or refuses it, no
/// page is read). Never panics.
pub(crate) fn check(path: &Path) -> Result<(), StoreError> {
    let damaged = |detail: String| StoreError::Damaged { path: path.to_path_buf(), detail };
    let Ok(file) = std::fs::File::open(path) else { return Ok(()) };
    let file_len = file.metadata().map(|m| m.len()).unwrap_or(0);
    if file_len == 0 {
        return Ok(());
    }
    let mut head = Vec::with_capacity(HEADER_LEN);
    file.take(HEADER_LEN as u64)
        .read_to_end(&mut head)
        .map_err(|e| damaged(format!("its header cannot be read: {e}")))?;
    let n = head.len();
    if n >= MAGIC.len() && head[..MAGIC.len()] != MAGIC {
        // Not a database file at all (a text file, another program's file): say so
        // rather than call it damaged.
        let message = "not a solvo store (no database header at its start)".to_string();
        return Err(StoreError::Open { path: path.to_path_buf(), message });
    }
    check_bytes(&head[..n], file_len).map_err(damaged)
}

/// The check of [`check`] on the first bytes of a file of `file_len` bytes.
fn check_bytes(head: &[u8], file_len: u64) -> Result<(), String> {
    if head.len() < HEADER_LEN || file_len < PAGE_SIZE {
        return Err(format!("{file_len} bytes, shorter than a database header: truncated?"));
    }
    if head[..9] != MAGIC {
        return Err("no database header at its start (not a store, or overwritten)".into());
    }
    let god = head[9];
    if god & !(PRIMARY_BIT | RECOVERY_REQUIRED | TWO_PHASE_COMMIT) != 0 {
        return Err(format!("its header's flags byte {god:#04x} is not one the database writes"));
    }
    let page_size = u32_at(head, 12);
    if u64::from(page_size) != PAGE_SIZE {
        return Err(format!("its header gives a page size of {page_size} bytes, not {PAGE_SIZE}"));
    }
    let region_header_pages = u32_at(head, 16);
    let region_data_pages = u32_at(head, 20);
    if region_header_pages == 0 || region_header_pages > MAX_REGION_PAGES {
        return Err(format!("its header gives {region_header_pages} header pages a region"));
    }
    if !region_data_pages.is_power_of_two() || region_data_pages > MAX_REGION_PAGES {
        return Err(format!("its header gives {region_data_pages} data pages a region"));
    }
    let full_regions = u64::from(u32_at(head, 24));
    let trailing_pages = u64::from(u32_at(head, 28));
    if trailing_pages >= u64::from(region_data_pages) {
        return Err(format!("its header gives the last region {trailing_pages} data pages, more than a region holds"));
    }
    let layout = Layout {
        region_header_pages: u64::from(region_header_pages),
        region_data_pages: u64::from(region_data_pages),
        file_len,
    };
    let region_len = (layout.region_header_pages + layout.region_data_pages) as u128 * PAGE_SIZE as u128;
    let trailing_len =
        if trailing_pages > 0 { (layout.region_header_pages + trailing_pages) as u128 * PAGE_SIZE as u128 } else { 0 };
    let stated_len = PAGE_SIZE as u128 + full_regions as u128 * region_len + trailing_len;
    if stated_len > file_len as u128 {
        return Err(format!("its header describes {stated_len} bytes but the file has {file_len}: truncated?"));
    }
    let slots = [Slot { bytes: &head[64..64 + SLOT_LEN] }, Slot { bytes: &head[64 + SLOT_LEN..HEADER_LEN] }];
    let primary = usize::from(god & PRIMARY_BIT);
    let recovering = god & RECOVERY_REQUIRED != 0 || stated_len != file_len as u128;
    // The slot the library will use: the primary after a clean close; after a crash
    // the newer of the two whose checksum holds (as the library's repair picks it).
    let other = primary ^ 1;
    let intact = [slots[0].checksum_ok(), slots[1].checksum_ok()];
    let other_is_newer = intact[other] && slots[other].transaction_id() > slots[primary].transaction_id();
    let used =
        if recovering && god & TWO_PHASE_COMMIT == 0 && (!intact[primary] || other_is_newer) { other } else { primary };
    for (i, slot) in slots.iter().enumerate() {
        let ok = intact[i];
        if i == used && !ok {
            return Err(format!("the checksum of its commit slot {i} does not match (the header was overwritten)"));
        }
        if !ok {
            // An unused slot torn by a crash: the library does not read it.
            continue;
        }
        if !matches!(slot.version(), 2 | 3) {
            return Err(format!("its commit slot {i} has file format {}, not 2 or 3", slot.version()));
        }
        for (name, page) in slot.roots() {
            if !layout.holds(page) {
                return Err(format!(
                    "its commit slot {i} puts the {name} tree's root at {page:#018x}, outside the file"
                ));
            }
        }
    }
    if slots[used].version() == 2 {
        let tracker = u64_at(head, 32);
        if !layout.holds(tracker) {
            return Err(format!("its header puts the region tracker at {tracker:#018x}, outside the file"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The header of a store made by the database library in use, and its length.
    fn fresh_header() -> (Vec<u8>, u64) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.redb");
        let store =
            crate::store::Store::open(&path, solvo_othello::BoardSize::Four, solvo_othello::Variant::Normal).unwrap();
        drop(store);
        let bytes = std::fs::read(&path).unwrap();
        (bytes[..HEADER_LEN].to_vec(), bytes.len() as u64)
    }

    #[test]
    fn a_store_made_by_the_library_in_use_passes() {
        let (head, len) = fresh_header();
        assert_eq!(check_bytes(&head, len), Ok(()));
    }

    #[test]
    fn a_root_page_number_of_a_huge_order_is_refused_before_the_library_reads_it() {
        let (mut head, len) = fresh_header();
        let used = 64 + SLOT_LEN * usize::from(head[9] & PRIMARY_BIT);
        // The system tree's root with order 31 (4 KiB << 31 = 8 TiB) and the slot's
        // checksum made to match, as a damaged-and-rechecksummed slot would be.
        assert_ne!(head[used + 2], 0, "a store has a system tree");
        head[used + 8 + 32 + 7] |= 0xF8;
        let sum = xxhash_rust::xxh3::xxh3_128(&head[used..used + SLOT_CHECKED_LEN]);
        head[used + SLOT_CHECKED_LEN..used + SLOT_LEN].copy_from_slice(&sum.to_le_bytes());
        let err = check_bytes(&head, len).unwrap_err();
        assert!(err.contains("system tree's root") && err.contains("outside the file"), "{err}");
    }

    #[test]
    fn a_used_slot_whose_checksum_fails_is_refused() {
        let (mut head, len) = fresh_header();
        let used = 64 + SLOT_LEN * usize::from(head[9] & PRIMARY_BIT);
        head[used + 20] ^= 1;
        let err = check_bytes(&head, len).unwrap_err();
        assert!(err.contains("checksum"), "{err}");
    }

    #[test]
    fn a_damaged_page_size_or_layout_is_refused() {
        let (head, len) = fresh_header();
        for (at, value, words) in [
            (12usize, 1u32 << 31, "page size"),
            (16, 0, "header pages"),
            (20, 3, "data pages"),
            (24, u32::MAX, "truncated"),
        ] {
            let mut h = head.clone();
            h[at..at + 4].copy_from_slice(&value.to_le_bytes());
            let err = check_bytes(&h, len).unwrap_err();
            assert!(err.contains(words), "{at}: {err}");
        }
        assert!(check_bytes(&head[..100], len).unwrap_err().contains("shorter"));
        assert!(check_bytes(&head, 100).unwrap_err().contains("shorter"));
    }

    #[test]
    fn every_single_byte_change_of_a_header_passes_or_is_refused_without_reading_past_it() {
        let (head, len) = fresh_header();
        for at in 0..HEADER_LEN {
            for v in [0u8, 0xff, head[at] ^ 0x80] {
                let mut h = head.clone();
                h[at] = v;
                let _ = check_bytes(&h, len);
            }
        }
    }
}
