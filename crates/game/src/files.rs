//! The player's files, as bytes: their names, what each holds, and each read back field by
//! field or entry by entry (see `fields`), so a bad value loses that value, not the file.
//! Where the files live and how they are written is the app's business (`persist`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::fields::{Fields, FileError, Read};
use super::saved::read_saved_game;
use super::{
    BestScores, DailyResult, DailyResults, Day, FramedPhoto, Game, PhotoFraming, PhotoSource,
    Record, SavedGame,
};

/// The settings file's name.
pub const SETTINGS_FILE: &str = "settings.json";
/// The best scores file's name.
pub const SCORES_FILE: &str = "scores.json";
/// The puzzles of the day's results file's name.
pub const DAILY_FILE: &str = "daily.json";
/// The game in progress file's name.
pub const GAME_FILE: &str = "game.json";

/// The game file: the game in progress (or the last one finished) and its photo, with the
/// player's framing of it (the photo the next games are cut from too).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedState {
    /// The game.
    pub game: SavedGame,
    /// Its photo.
    pub photo: PhotoSource,
    /// The part of the photo the player framed (older files have none); `frame` in the file.
    #[serde(rename = "frame", default)]
    pub framing: Option<PhotoFraming>,
}

/// The game file read back: the game, and its photo (with its framing) if that could be read.
pub fn read_state(bytes: &[u8]) -> Result<Read<(Game, Option<FramedPhoto>)>, FileError> {
    let mut fields = Fields::parse(bytes)?;
    let source: Option<PhotoSource> = fields.get("photo");
    let framing = fields.or("frame", None);
    let photo = source.map(|source| FramedPhoto { source, framing });
    let saved = fields
        .raw("game")
        .cloned()
        .and_then(Fields::of)
        .ok_or_else(|| FileError::Unusable("the file holds no game".into()));
    let mut game_fields = saved?;
    let saved = read_saved_game(&mut game_fields)?;
    let game = Game::from_saved(&saved).map_err(|e| FileError::Unusable(e.to_string()))?;
    let mut lost = fields.lost;
    lost.extend(game_fields.lost);
    Ok(Read {
        value: (game, photo),
        lost,
    })
}

/// The entries of a JSON object, each read alone: the ones that cannot be read are noted by
/// their key and left out.
fn entries<K: Ord, V: serde::de::DeserializeOwned>(
    bytes: &[u8],
    key: impl Fn(&str) -> Option<K>,
) -> Result<Read<BTreeMap<K, V>>, FileError> {
    let value: Value =
        serde_json::from_slice(bytes).map_err(|e| FileError::NotJson(e.to_string()))?;
    let Value::Object(object) = value else {
        return Err(FileError::NotAnObject);
    };
    let mut read = Read::whole(BTreeMap::new());
    for (name, value) in object {
        match (key(&name), serde_json::from_value(value)) {
            (Some(key), Ok(value)) => {
                read.value.insert(key, value);
            }
            _ => read.lost.push(name),
        }
    }
    Ok(read)
}

impl BestScores {
    /// Reads the scores file entry by entry.
    pub fn read(bytes: &[u8]) -> Result<Read<BestScores>, FileError> {
        let read = entries::<String, Record>(bytes, |key| Some(key.to_string()))?;
        Ok(Read {
            value: BestScores(read.value),
            lost: read.lost,
        })
    }
}

impl DailyResults {
    /// Reads the puzzles of the day's file entry by entry (one a day).
    pub fn read(bytes: &[u8]) -> Result<Read<DailyResults>, FileError> {
        let read = entries::<Day, DailyResult>(bytes, |key| key.parse().ok())?;
        Ok(Read {
            value: DailyResults(read.value),
            lost: read.lost,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Difficulty;
    use npuzzle::parse_board;

    #[test]
    fn a_bad_entry_loses_that_entry_only() {
        let text = br#"{"4x4-easy": {"moves": 30, "millis": 9000, "wins": 2},
                        "5x5-hard": {"moves": "many"}}"#;
        let read = BestScores::read(text).unwrap();
        assert_eq!(read.value.get("4x4-easy").map(|r| r.wins), Some(2));
        assert_eq!(read.lost, vec!["5x5-hard"]);
        let days = br#"{"20787": {"moves": 40, "millis": 1, "shortest": 36, "helped": false},
                        "tuesday": {"moves": 40, "millis": 1, "shortest": 36, "helped": false}}"#;
        let read = DailyResults::read(days).unwrap();
        assert_eq!(
            read.value.0.keys().copied().collect::<Vec<_>>(),
            vec![20_787]
        );
        assert_eq!(read.lost, vec!["tuesday"]);
        assert!(matches!(
            BestScores::read(b"[]"),
            Err(FileError::NotAnObject)
        ));
    }

    #[test]
    fn the_game_file_keeps_the_game_when_its_photo_is_bad() {
        let game = Game::new(
            parse_board("1 2 3 / 4 0 5 / 7 8 6").unwrap(),
            Difficulty::Hard,
        );
        let framing = PhotoFraming {
            turns: 1,
            x: 10,
            y: 20,
            width: 300,
            height: 300,
        };
        let state = SavedState {
            game: game.to_saved(),
            photo: PhotoSource::Bundled("chelsea.png".into()),
            framing: Some(framing),
        };
        let mut json = serde_json::to_value(&state).unwrap();
        let read = read_state(&serde_json::to_vec(&json).unwrap()).unwrap();
        let framed = FramedPhoto {
            source: state.photo.clone(),
            framing: Some(framing),
        };
        assert_eq!(read.value, (game.clone(), Some(framed)));
        // A bad framing loses the framing; a bad photo loses the photo; the game is kept.
        json["frame"] = "wide".into();
        let read = read_state(&serde_json::to_vec(&json).unwrap()).unwrap();
        assert_eq!(read.value.1.map(|p| p.framing), Some(None));
        json["photo"] = 12.into();
        let read = read_state(&serde_json::to_vec(&json).unwrap()).unwrap();
        assert_eq!(read.value, (game, None));
        assert_eq!(read.lost, vec!["photo", "frame"]);
        json["game"] = "gone".into();
        assert!(read_state(&serde_json::to_vec(&json).unwrap()).is_err());
    }
}
