//! `snapslide-server verify`: an export re-checked offline with Snapslide's own code: every
//! code replayed against the day's daily, every row's moves and time read from its code, and
//! the ranking recomputed. Any difference is named.

use std::collections::HashMap;

use npuzzle::Options;

use crate::check::check_result;
use crate::daily::DayBoard;
use crate::date::parse_date;
use crate::export::{Export, from_csv};
use crate::names::name_key;
use crate::ranking::rank_in_place;

/// The export at `source`: a file, or an `http://` or `https://` address (fetched with curl),
/// as JSON, or CSV when it ends in `.csv` or begins with the CSV's header.
///
/// # Errors
///
/// Why it could not be read, in a sentence.
pub fn load(source: &str) -> Result<Export, String> {
    let text = if source.starts_with("http://") || source.starts_with("https://") {
        fetch(source)?
    } else {
        std::fs::read_to_string(source).map_err(|e| format!("cannot read {source}: {e}"))?
    };
    let csv = source.ends_with(".csv") || text.starts_with("date,rank,");
    if csv {
        from_csv(&text)
    } else {
        serde_json::from_str(&text).map_err(|e| format!("{source} is not a board's JSON: {e}"))
    }
}

/// The text at a URL, through curl (so that the server needs no TLS of its own).
fn fetch(url: &str) -> Result<String, String> {
    let output = std::process::Command::new("curl")
        .args([
            "-fsSL",
            "--max-time",
            "120",
            "--max-filesize",
            "500000000",
            "--",
            url,
        ])
        .output()
        .map_err(|e| {
            format!("fetching {url} needs curl ({e}): save the export and verify the file")
        })?;
    if !output.status.success() {
        let why = String::from_utf8_lossy(&output.stderr);
        return Err(format!("cannot fetch {url}: {}", why.trim()));
    }
    String::from_utf8(output.stdout).map_err(|_| format!("{url} is not text"))
}

/// Every difference between the export and its replay, each in a sentence (none: it holds).
pub fn differences(export: &Export, options: &Options) -> Vec<String> {
    let Some(day) = parse_date(&export.date) else {
        return vec![format!("“{}” is not a date", export.date)];
    };
    let daily = match DayBoard::make(day, options) {
        Ok(daily) => daily,
        Err(error) => {
            return vec![format!(
                "the daily of {} could not be made: {error}",
                export.date
            )];
        }
    };
    let mut found = board_differences(export, &daily);
    found.extend(row_differences(export, &daily));
    found.extend(duplicates(export));
    found.extend(ranking_differences(export));
    found
}

/// The export's board and shortest length against the day's daily.
fn board_differences(export: &Export, daily: &DayBoard) -> Vec<String> {
    let mut found = Vec::new();
    let shape = (daily.board.width(), daily.board.height());
    let says_board = !export.tiles.is_empty();
    if says_board && (export.tiles != daily.board.tiles() || (export.width, export.height) != shape)
    {
        found.push(format!(
            "the board it shows is not the daily of {}",
            export.date
        ));
    }
    if export.optimal != daily.optimal as u64 {
        found.push(format!(
            "it says the shortest solution is {} moves; the daily's is {}",
            export.optimal, daily.optimal
        ));
    }
    found
}

/// Each row replayed: its code checked, and its moves, time and optimum read from it.
fn row_differences(export: &Export, daily: &DayBoard) -> Vec<String> {
    let mut found = Vec::new();
    for (index, row) in export.results.iter().enumerate() {
        let at = format!("row {} ({})", index + 1, row.name);
        let checked = match check_result(&row.code, daily) {
            Ok(checked) => checked,
            Err(refusal) => {
                found.push(format!("{at}: its code is refused: {refusal}"));
                continue;
            }
        };
        let fields = [
            ("moves", row.moves, checked.moves as u64),
            ("time_ms", row.time_ms, checked.time_ms),
            ("optimal", row.optimal, daily.optimal as u64),
        ];
        for (what, says, holds) in fields {
            if says != holds {
                found.push(format!("{at}: {what} says {says}, its code holds {holds}"));
            }
        }
    }
    found
}

/// Names given twice (without regard to case) and codes given twice.
fn duplicates(export: &Export) -> Vec<String> {
    let mut found = Vec::new();
    let mut names: HashMap<String, usize> = HashMap::new();
    let mut codes: HashMap<&str, usize> = HashMap::new();
    for (index, row) in export.results.iter().enumerate() {
        let number = index + 1;
        if let Some(first) = names.insert(name_key(&row.name), number) {
            found.push(format!(
                "row {number} ({}): the name of row {first} again",
                row.name
            ));
        }
        if let Some(first) = codes.insert(row.code.as_str(), number) {
            found.push(format!(
                "row {number} ({}): the same solve as row {first}",
                row.name
            ));
        }
    }
    found
}

/// The ranking recomputed from the rows' times and moves, against the ranks and order given.
fn ranking_differences(export: &Export) -> Vec<String> {
    let mut ranked = export.results.clone();
    rank_in_place(&mut ranked);
    let mut found = Vec::new();
    for (index, (given, recomputed)) in export.results.iter().zip(&ranked).enumerate() {
        let number = index + 1;
        if given.name != recomputed.name {
            found.push(format!(
                "row {number}: {} stands there, but the ranking puts {} there",
                given.name, recomputed.name
            ));
        }
    }
    let rank_of: HashMap<&str, u64> = ranked.iter().map(|r| (r.name.as_str(), r.rank)).collect();
    for (index, row) in export.results.iter().enumerate() {
        let recomputed = rank_of.get(row.name.as_str()).copied().unwrap_or(0);
        if row.rank != recomputed {
            found.push(format!(
                "row {} ({}): rank says {}, its time and moves place it {recomputed}",
                index + 1,
                row.name,
                row.rank
            ));
        }
    }
    found
}
