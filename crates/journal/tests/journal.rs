//! The journal on disk: torn ends, damaged lines, appends after a crash, compaction, and
//! places it cannot be written.

use std::path::{Path, PathBuf};

use atomic_file::{Faulty, Step};
use journal::{Journal, JournalError, damaged_path, keep_damaged, read};

/// A fresh folder for one test.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("journal-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const RECORDS: [&str; 3] = [r#"{"n":1}"#, r#"{"n":2,"m":"RRD"}"#, r#"{"n":3,"m":"LLU"}"#];

/// A journal holding `RECORDS`; returns its bytes.
fn written(path: &Path) -> Vec<u8> {
    let (mut journal, loaded) = Journal::open(path).unwrap();
    assert!(loaded.records.is_empty());
    for record in RECORDS {
        journal.append(record).unwrap();
    }
    std::fs::read(path).unwrap()
}

#[test]
fn records_come_back_in_order() {
    let dir = folder("order");
    let path = dir.join("j");
    let bytes = written(&path);
    assert!(
        bytes.starts_with(b"d44b3b7e "),
        "{:?}",
        String::from_utf8_lossy(&bytes)
    );
    let (journal, loaded) = Journal::open(&path).unwrap();
    assert_eq!(loaded.records, RECORDS);
    assert!(loaded.damaged.is_empty() && loaded.torn.is_none());
    assert_eq!(journal.len(), bytes.len() as u64);
    assert_eq!(read(&path).unwrap(), loaded);
    assert_eq!(read(&dir.join("missing")).unwrap().records.len(), 0);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_torn_end_at_any_byte_loses_only_the_last_record_and_appends_after_it_are_clean() {
    let dir = folder("torn");
    let path = dir.join("j");
    let whole = written(&path);
    let last_starts = whole.len() - (9 + RECORDS[2].len() + 1);
    for cut in last_starts..whole.len() {
        std::fs::write(&path, &whole[..cut]).unwrap();
        let (mut journal, loaded) = Journal::open(&path).unwrap();
        assert_eq!(loaded.records, RECORDS[..2], "cut at {cut}");
        assert!(loaded.damaged.is_empty(), "cut at {cut}");
        assert_eq!(loaded.torn.is_some(), cut > last_starts, "cut at {cut}");
        assert_eq!(loaded.good_len, last_starts as u64);
        journal.append(RECORDS[2]).unwrap();
        assert_eq!(
            std::fs::read(&path).unwrap(),
            whole,
            "cut at {cut}: not clean"
        );
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_bad_checksum_on_the_last_line_is_a_torn_end() {
    let dir = folder("last-bad");
    let path = dir.join("j");
    let mut bytes = written(&path);
    let at = bytes.len() - 3;
    bytes[at] ^= 0x01;
    std::fs::write(&path, &bytes).unwrap();
    let (mut journal, loaded) = Journal::open(&path).unwrap();
    assert_eq!(loaded.records, RECORDS[..2]);
    assert_eq!(loaded.torn.as_ref().map(|t| t.line), Some(3));
    journal.append_synced("again").unwrap();
    assert_eq!(
        read(&path).unwrap().records,
        [RECORDS[0], RECORDS[1], "again"]
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_changed_byte_in_a_middle_record_loses_only_that_record() {
    let dir = folder("middle");
    let path = dir.join("j");
    let whole = written(&path);
    let first_len = 9 + RECORDS[0].len() + 1;
    let second_len = 9 + RECORDS[1].len();
    // Every byte of the second line but its newline (which would join it to the third).
    for at in first_len..first_len + second_len {
        let mut bytes = whole.clone();
        bytes[at] ^= 0x01;
        std::fs::write(&path, &bytes).unwrap();
        let (mut journal, loaded) = Journal::open(&path).unwrap();
        assert_eq!(loaded.records, [RECORDS[0], RECORDS[2]], "byte {at}");
        assert!(loaded.torn.is_none());
        let [damaged] = loaded.damaged.as_slice() else {
            panic!("byte {at}: {:?}", loaded.damaged)
        };
        assert_eq!((damaged.line, damaged.after), (2, 1));
        assert_eq!(damaged.bytes, bytes[first_len..first_len + second_len]);
        // The damaged line stays where it is; appends go after the rest.
        journal.append("4").unwrap();
        let again = read(&path).unwrap();
        assert_eq!(again.records, [RECORDS[0], RECORDS[2], "4"]);
        assert_eq!(again.damaged, loaded.damaged);
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn damaged_lines_are_kept_aside_as_they_were() {
    let dir = folder("aside");
    let path = dir.join("j");
    let mut bytes = written(&path);
    bytes[12] = b'#';
    bytes.extend_from_slice(b"0000");
    std::fs::write(&path, &bytes).unwrap();
    let loaded = read(&path).unwrap();
    assert_eq!(loaded.records, RECORDS[1..]);
    let side = damaged_path(&path);
    assert_eq!(side, dir.join("j.damaged"));
    keep_damaged(&side, loaded.all_damaged()).unwrap();
    keep_damaged(&side, []).unwrap();
    let mut expected = bytes[..9 + RECORDS[0].len()].to_vec();
    expected.extend_from_slice(b"\n0000\n");
    assert_eq!(std::fs::read(&side).unwrap(), expected);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_payload_with_a_line_break_is_refused_and_nothing_is_written() {
    let dir = folder("newline");
    let path = dir.join("j");
    let before = written(&path);
    let (mut journal, _) = Journal::open(&path).unwrap();
    assert!(matches!(
        journal.append("a\nb"),
        Err(JournalError::LineBreak)
    ));
    assert!(matches!(
        journal.append_all(&["fine", "not\nfine"], false),
        Err(JournalError::LineBreak)
    ));
    assert!(matches!(
        Journal::replace(&path, &["x\n"]),
        Err(JournalError::LineBreak)
    ));
    assert_eq!(std::fs::read(&path).unwrap(), before);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_compaction_that_fails_leaves_the_old_file_whole_and_one_that_lands_is_appended_to() {
    let dir = folder("compact");
    let path = dir.join("j");
    let before = written(&path);
    let (mut journal, _) = Journal::open(&path).unwrap();
    for step in [Step::Create, Step::Write, Step::Sync, Step::Rename] {
        let error = journal.compact_with(&Faulty::failing(&[step]), &["snapshot"]);
        assert!(matches!(error, Err(JournalError::Replace(_))), "{step:?}");
        assert_eq!(std::fs::read(&path).unwrap(), before, "{step:?}");
    }
    // The journal still appends to the old file after a failed compaction.
    journal.append("after a failure").unwrap();
    assert_eq!(read(&path).unwrap().records.len(), 4);
    journal.compact(&["snapshot"]).unwrap();
    journal.append("next").unwrap();
    assert_eq!(read(&path).unwrap().records, ["snapshot", "next"]);
    assert_eq!(journal.len(), std::fs::metadata(&path).unwrap().len());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn bytes_written_counts_appends_and_compactions() {
    let dir = folder("count");
    let (mut journal, _) = Journal::open(&dir.join("j")).unwrap();
    journal.append("abc").unwrap();
    assert_eq!(journal.bytes_written(), 13);
    journal.compact(&["d", "e"]).unwrap();
    assert_eq!(journal.bytes_written(), 13 + 22);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_place_that_cannot_be_written_is_an_error_not_a_panic() {
    let dir = folder("unwritable");
    let file = dir.join("a-file");
    std::fs::write(&file, b"not a folder").unwrap();
    // A folder that is a file, a missing folder, and a folder where the journal should be.
    for path in [file.join("j"), dir.join("missing").join("j"), dir.clone()] {
        assert!(
            matches!(Journal::open(&path), Err(JournalError::Open { .. })),
            "{path:?}"
        );
        assert!(Journal::replace(&path, &["x"]).is_err(), "{path:?}");
        assert!(
            keep_damaged(
                &path,
                [&journal::Damaged {
                    line: 1,
                    after: 0,
                    bytes: vec![1]
                }]
            )
            .is_err()
        );
    }
    assert!(matches!(read(&dir), Err(JournalError::Read { .. })));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn bytes_damaged_anywhere_read_back_as_whole_records_only() {
    let dir = folder("anywhere");
    let path = dir.join("j");
    let whole = written(&path);
    let mut state = 7u64;
    let mut below = |n: usize| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) as usize % n
    };
    for _ in 0..5_000 {
        let mut bytes = whole.clone();
        for _ in 0..1 + below(3) {
            let at = below(bytes.len());
            match below(3) {
                0 => bytes[at] = below(256) as u8,
                1 => bytes.insert(at, b'\n'),
                _ => bytes.truncate(at.max(1)),
            }
        }
        let loaded = journal::Loaded::parse(&bytes);
        // Every record read back is one written, in order; the file up to `good_len` ends
        // a line.
        let mut expected = RECORDS.iter();
        for record in &loaded.records {
            assert!(expected.any(|r| r == record), "{record:?} from {bytes:?}");
        }
        assert!(loaded.good_len as usize <= bytes.len());
        let good = &bytes[..loaded.good_len as usize];
        assert!(good.is_empty() || good.ends_with(b"\n"));
    }
    std::fs::remove_dir_all(dir).unwrap();
}
