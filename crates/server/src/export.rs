//! A day's board as open data: JSON (`{date, width, height, tiles, optimal, results}`) or CSV
//! (a row a result: `date,rank,name,moves,optimal,time_ms,code`), written by the server and
//! read back by `verify`.

use serde::{Deserialize, Serialize};

use crate::ranking::RankedResult;

/// The CSV's header line.
pub const CSV_HEADER: &str = "date,rank,name,moves,optimal,time_ms,code";

/// A day's whole board, as exported.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Export {
    /// The day, `YYYY-MM-DD`.
    pub date: String,
    /// The daily's columns (0 when read from CSV, which does not say).
    #[serde(default)]
    pub width: usize,
    /// The daily's rows (0 when read from CSV).
    #[serde(default)]
    pub height: usize,
    /// The daily's start board, row-major, 0 the gap (empty when read from CSV).
    #[serde(default)]
    pub tiles: Vec<u8>,
    /// The daily's shortest solution.
    pub optimal: u64,
    /// Every result, ranked.
    pub results: Vec<RankedResult>,
}

/// The export as CSV, a line a result under [`CSV_HEADER`].
pub fn to_csv(export: &Export) -> String {
    let mut text = format!("{CSV_HEADER}\n");
    for row in &export.results {
        let fields = [
            export.date.clone(),
            row.rank.to_string(),
            row.name.clone(),
            row.moves.to_string(),
            row.optimal.to_string(),
            row.time_ms.to_string(),
            row.code.clone(),
        ];
        let quoted: Vec<String> = fields.iter().map(|field| csv_field(field)).collect();
        text.push_str(&quoted.join(","));
        text.push('\n');
    }
    text
}

/// A field as CSV writes it: quoted when it holds a comma, a quote or a line break.
fn csv_field(field: &str) -> String {
    if field.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_string()
    }
}

/// Reads an export written by [`to_csv`] (the date from its rows; an empty board's date is not
/// known, so an empty file is refused).
///
/// # Errors
///
/// What is wrong, naming the line.
pub fn from_csv(text: &str) -> Result<Export, String> {
    let mut lines = csv_records(text).into_iter().enumerate();
    match lines.next() {
        Some((_, header)) if header.join(",") == CSV_HEADER => {}
        _ => return Err(format!("the first line is not the header {CSV_HEADER}")),
    }
    let mut export: Option<Export> = None;
    for (index, fields) in lines {
        let line = index + 1;
        let [date, rank, name, moves, optimal, time_ms, code] = <[String; 7]>::try_from(fields)
            .map_err(|f| format!("line {line} has {} fields, not 7", f.len()))?;
        let number = |text: &str, what: &str| {
            text.parse::<u64>()
                .map_err(|_| format!("line {line}: {what} “{text}” is not a number"))
        };
        let row = RankedResult {
            rank: number(&rank, "rank")?,
            moves: number(&moves, "moves")?,
            optimal: number(&optimal, "optimal")?,
            time_ms: number(&time_ms, "time_ms")?,
            name,
            code,
        };
        let whole = export.get_or_insert_with(|| Export {
            date: date.clone(),
            width: 0,
            height: 0,
            tiles: Vec::new(),
            optimal: row.optimal,
            results: Vec::new(),
        });
        if whole.date != date {
            return Err(format!("line {line} is of {date}, not {}", whole.date));
        }
        whole.results.push(row);
    }
    export.ok_or_else(|| "the file has no results, so no date to check".to_string())
}

/// The records of CSV text: fields split at commas outside quotes, `""` a quote inside them.
fn csv_records(text: &str) -> Vec<Vec<String>> {
    let mut records = Vec::new();
    let (mut record, mut field) = (Vec::new(), String::new());
    let (mut quoted, mut chars) = (false, text.chars().peekable());
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            ('"', _) => quoted = !quoted,
            (',', false) => record.push(std::mem::take(&mut field)),
            ('\r', false) => {}
            ('\n', false) => {
                record.push(std::mem::take(&mut field));
                records.push(std::mem::take(&mut record));
            }
            _ => field.push(c),
        }
    }
    if !field.is_empty() || !record.is_empty() {
        record.push(field);
        records.push(record);
    }
    records
}

#[cfg(test)]
mod tests {
    use super::*;

    fn export() -> Export {
        let row = |rank, name: &str| RankedResult {
            rank,
            name: name.into(),
            moves: 40,
            optimal: 36,
            time_ms: 30_000 + rank,
            code: "ABC".into(),
        };
        Export {
            date: "2026-12-07".into(),
            width: 0,
            height: 0,
            tiles: Vec::new(),
            optimal: 36,
            results: vec![row(1, "Ann Lee"), row(2, "odd, \"quoted\"")],
        }
    }

    #[test]
    fn csv_reads_back_what_it_wrote() {
        let text = to_csv(&export());
        assert!(
            text.starts_with("date,rank,name,moves,optimal,time_ms,code\n2026-12-07,1,Ann Lee,")
        );
        assert_eq!(from_csv(&text), Ok(export()));
        assert_eq!(from_csv(&text.replace('\n', "\r\n")), Ok(export()));
    }

    #[test]
    fn a_damaged_csv_is_refused_by_its_line() {
        assert!(from_csv("rank,name\n").unwrap_err().contains("header"));
        let header_only = format!("{CSV_HEADER}\n");
        assert!(from_csv(&header_only).unwrap_err().contains("no results"));
        let short = format!("{CSV_HEADER}\n2026-12-07,1,Ann\n");
        assert_eq!(from_csv(&short).unwrap_err(), "line 2 has 3 fields, not 7");
        let word = format!("{CSV_HEADER}\n2026-12-07,one,Ann,40,36,1,C\n");
        assert!(from_csv(&word).unwrap_err().contains("line 2: rank"));
    }
}
