//! A player's name: 1–24 characters (letters, digits, space, `-_.`), NFC-normalised, and the
//! key that keeps names unique without regard to case.

use unicode_normalization::UnicodeNormalization;

/// The most characters a name may have.
pub const MAX_NAME_CHARS: usize = 24;

/// The name as it is kept and shown (spaces at its ends trimmed, NFC), if it keeps the rules:
/// 1 to [`MAX_NAME_CHARS`] letters, digits, spaces or `-_.`, beginning with a letter or digit
/// (so that no spreadsheet reads a name of the CSV export as a formula).
pub fn checked_name(text: &str) -> Option<String> {
    let name: String = text.trim().nfc().collect();
    let count = name.chars().count();
    let allowed = |c: char| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_' | '.');
    let begins_well = name.chars().next().is_some_and(char::is_alphanumeric);
    let fits = (1..=MAX_NAME_CHARS).contains(&count) && name.chars().all(allowed);
    (fits && begins_well).then_some(name)
}

/// The key two names share when they are one name to the players: NFC, in lower case.
pub fn name_key(name: &str) -> String {
    let lower: String = name.nfc().collect::<String>().to_lowercase();
    lower.nfc().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_keep_the_rules() {
        assert_eq!(checked_name("  Ann Lee "), Some("Ann Lee".into()));
        assert_eq!(checked_name("zoë_2.0-x"), Some("zoë_2.0-x".into()));
        assert_eq!(checked_name("東京"), Some("東京".into()));
        assert_eq!(checked_name(&"a".repeat(24)), Some("a".repeat(24)));
        for bad in [
            "",
            "   ",
            &"a".repeat(25),
            "<script>",
            "ann\u{0}",
            "a,b",
            "-1",
            ".hidden",
            "tab\there",
            "emoji🙂",
        ] {
            assert_eq!(checked_name(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn one_name_in_any_case_or_composition_has_one_key() {
        let composed = checked_name("Zo\u{eb}").unwrap();
        let decomposed = checked_name("Zoe\u{308}").unwrap();
        assert_eq!(composed, decomposed, "NFC");
        assert_eq!(composed.chars().count(), 3);
        assert_eq!(name_key(&composed), name_key("ZOË"));
        assert_eq!(name_key("Ann"), name_key("aNN"));
        assert_ne!(name_key("Ann"), name_key("Anne"));
    }
}
