//! A JSON object read field by field: a field that is missing gets its default, one that is
//! there but cannot be read gets its default too and is noted, and the rest are kept. So one
//! bad value in a file (a hand edit, a file from another version) loses that value, not the
//! file.

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use thiserror::Error;

/// Why a file could not be read at all.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FileError {
    /// The bytes are not JSON (a file cut short, or another file altogether).
    #[error("not JSON: {0}")]
    NotJson(String),
    /// JSON, but not the object the file holds.
    #[error("not a JSON object")]
    NotAnObject,
    /// The parts the rest depends on cannot be read.
    #[error("{0}")]
    Unusable(String),
}

/// What was read of a file, and the names of the parts that were lost (read as defaults).
#[derive(Debug, Clone, PartialEq)]
pub struct Read<T> {
    /// The value.
    pub value: T,
    /// The fields or entries that could not be read, by name.
    pub lost: Vec<String>,
}

impl<T> Read<T> {
    /// A value read whole.
    pub fn whole(value: T) -> Read<T> {
        Read {
            value,
            lost: Vec::new(),
        }
    }
}

/// A JSON object being read field by field.
#[derive(Debug, Clone, PartialEq)]
pub struct Fields {
    object: Map<String, Value>,
    /// The fields that were there but could not be read.
    pub lost: Vec<String>,
}

impl Fields {
    /// The object in these bytes.
    pub fn parse(bytes: &[u8]) -> Result<Fields, FileError> {
        let value: Value =
            serde_json::from_slice(bytes).map_err(|e| FileError::NotJson(e.to_string()))?;
        Fields::of(value).ok_or(FileError::NotAnObject)
    }

    /// The object in a JSON value, if it is one.
    pub fn of(value: Value) -> Option<Fields> {
        match value {
            Value::Object(object) => Some(Fields {
                object,
                lost: Vec::new(),
            }),
            _ => None,
        }
    }

    /// A field's value: `None` if it is missing or cannot be read (then it is noted as lost).
    pub fn get<T: DeserializeOwned>(&mut self, name: &str) -> Option<T> {
        let value = self.object.get(name)?.clone();
        match serde_json::from_value(value) {
            Ok(value) => Some(value),
            Err(_) => {
                self.lost.push(name.to_string());
                None
            }
        }
    }

    /// A field's value, or `default` if it is missing or cannot be read.
    pub fn or<T: DeserializeOwned>(&mut self, name: &str, default: T) -> T {
        self.get(name).unwrap_or(default)
    }

    /// The first of several names a field has had that is there (an older file's name).
    pub fn first_of<T: DeserializeOwned>(&mut self, names: &[&str]) -> Option<T> {
        let name = names.iter().find(|name| self.object.contains_key(**name))?;
        self.get(name)
    }

    /// The raw value of a field, if it is there.
    pub fn raw(&self, name: &str) -> Option<&Value> {
        self.object.get(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_field_is_lost_alone() {
        let mut fields = Fields::parse(br#"{"speed": "fast", "theme": "Light", "n": 3}"#).unwrap();
        assert_eq!(fields.or("speed", 4.0_f32), 4.0);
        assert_eq!(fields.get::<String>("theme").as_deref(), Some("Light"));
        assert_eq!(fields.get::<u8>("n"), Some(3));
        assert_eq!(fields.get::<u8>("missing"), None);
        assert_eq!(
            fields.lost,
            vec!["speed".to_string()],
            "missing is not lost"
        );
        assert_eq!(fields.first_of::<u8>(&["old", "n"]), Some(3));
    }

    #[test]
    fn what_is_not_an_object_is_refused() {
        assert!(matches!(
            Fields::parse(b"{ not json"),
            Err(FileError::NotJson(_))
        ));
        assert_eq!(Fields::parse(b"[1, 2]"), Err(FileError::NotAnObject));
    }
}
