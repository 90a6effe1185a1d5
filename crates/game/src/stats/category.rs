//! Categories (board size × mode, helped games apart) and the statistics of each.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use serde::{Serialize, Serializer};

use super::Attempt;
use super::figures::Statistics;

/// How a solve was played, for its category.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Mode {
    /// One solve.
    Single,
    /// This many solves of one size back to back, one clock (10 and 42 are the usual ones).
    Marathon(u32),
    /// 3×3, then 4×4, … up to the category's size, one clock.
    Relay,
    /// The numbers and the photo hidden after the first move; a wrong final board is a DNF.
    Blind,
}

/// A category of solves: the board size × the mode, helped games apart. Its key, as the
/// statistics' JSON names it, is `4x4 single`, `4x4 marathon x10`, `3x3-6x6 relay`,
/// `4x4 blind`, with ` helped` after it for helped games (`4x4 single helped`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Category {
    /// The board's width (for a relay, its last board's).
    pub width: usize,
    /// The board's height (for a relay, its last board's).
    pub height: usize,
    /// How it was played.
    pub mode: Mode,
    /// Whether the app helped (a hint or a solution).
    pub helped: bool,
}

impl Category {
    /// The category of unhelped solves of a `width`×`height` board in `mode`.
    pub fn new(width: usize, height: usize, mode: Mode) -> Category {
        Category {
            width,
            height,
            mode,
            helped: false,
        }
    }

    /// The same category for helped games.
    pub fn helped(self) -> Category {
        Category {
            helped: true,
            ..self
        }
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (width, height) = (self.width, self.height);
        match self.mode {
            Mode::Single => write!(f, "{width}x{height} single")?,
            Mode::Marathon(count) => write!(f, "{width}x{height} marathon x{count}")?,
            Mode::Relay => write!(f, "3x3-{width}x{height} relay")?,
            Mode::Blind => write!(f, "{width}x{height} blind")?,
        }
        if self.helped {
            f.write_str(" helped")?;
        }
        Ok(())
    }
}

/// A category key that is not one [`Category`] writes.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a category: {0:?}")]
pub struct ParseCategoryError(pub String);

/// A whole number above 0 written plainly (no sign, no leading zero).
fn positive(text: &str) -> Option<usize> {
    match text.parse::<usize>() {
        Ok(number) if number > 0 && !text.starts_with(['+', '0']) => Some(number),
        _ => None,
    }
}

/// A board size such as `4x4`.
fn parse_size(text: &str) -> Option<(usize, usize)> {
    let (width, height) = text.split_once('x')?;
    Some((positive(width)?, positive(height)?))
}

/// The size and mode of a key without ` helped`.
fn parse_unhelped(text: &str) -> Option<(usize, usize, Mode)> {
    let (size, mode) = text.split_once(' ')?;
    if mode == "relay" {
        let (first, last) = size.split_once('-')?;
        let (width, height) = parse_size(last)?;
        return (first == "3x3").then_some((width, height, Mode::Relay));
    }
    let (width, height) = parse_size(size)?;
    let mode = match mode {
        "single" => Mode::Single,
        "blind" => Mode::Blind,
        marathon => {
            let count = positive(marathon.strip_prefix("marathon x")?)?;
            Mode::Marathon(u32::try_from(count).ok()?)
        }
    };
    Some((width, height, mode))
}

/// Reads a key as [`Category`]'s `Display` writes it.
impl FromStr for Category {
    type Err = ParseCategoryError;

    fn from_str(text: &str) -> Result<Category, ParseCategoryError> {
        let (unhelped, helped) = match text.strip_suffix(" helped") {
            Some(unhelped) => (unhelped, true),
            None => (text, false),
        };
        let (width, height, mode) =
            parse_unhelped(unhelped).ok_or_else(|| ParseCategoryError(text.to_owned()))?;
        Ok(Category {
            width,
            height,
            mode,
            helped,
        })
    }
}

/// A category is written as its key.
impl Serialize for Category {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// The attempts of each category, each list in the order given (oldest first).
pub fn group(
    attempts: impl IntoIterator<Item = (Category, Attempt)>,
) -> BTreeMap<Category, Vec<Attempt>> {
    let mut groups: BTreeMap<Category, Vec<Attempt>> = BTreeMap::new();
    for (category, attempt) in attempts {
        groups.entry(category).or_default().push(attempt);
    }
    groups
}

/// The statistics of every category played, as `snapslide --stats` prints them: a JSON object
/// keyed by category (`{"4x4 single": {…}}`), `{}` when there are no solves (check
/// [`StatsReport::is_empty`] to say "No solves yet").
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(transparent)]
pub struct StatsReport {
    /// The statistics of each category with at least one solve.
    pub categories: BTreeMap<Category, Statistics>,
}

impl StatsReport {
    /// The statistics of keyed attempts, oldest first.
    pub fn new(attempts: impl IntoIterator<Item = (Category, Attempt)>) -> StatsReport {
        StatsReport::of_groups(&group(attempts))
    }

    /// The statistics of attempts already grouped by category ([`group`]), for a caller that
    /// keeps the groups too (the app's chart).
    pub fn of_groups(groups: &BTreeMap<Category, Vec<Attempt>>) -> StatsReport {
        let categories = groups
            .iter()
            .map(|(category, attempts)| (*category, Statistics::of(attempts)))
            .collect();
        StatsReport { categories }
    }

    /// Whether there are no solves in any category.
    pub fn is_empty(&self) -> bool {
        self.categories.is_empty()
    }

    /// The statistics of a category, if it has solves.
    pub fn get(&self, category: &Category) -> Option<&Statistics> {
        self.categories.get(category)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_read_back_as_the_categories_they_name() {
        let categories = [
            (Category::new(4, 4, Mode::Single), "4x4 single"),
            (
                Category::new(4, 4, Mode::Single).helped(),
                "4x4 single helped",
            ),
            (Category::new(4, 4, Mode::Marathon(10)), "4x4 marathon x10"),
            (
                Category::new(3, 5, Mode::Marathon(42)).helped(),
                "3x5 marathon x42 helped",
            ),
            (Category::new(6, 6, Mode::Relay), "3x3-6x6 relay"),
            (Category::new(5, 5, Mode::Blind), "5x5 blind"),
        ];
        for (category, key) in categories {
            assert_eq!(category.to_string(), key);
            assert_eq!(key.parse::<Category>(), Ok(category));
        }
    }

    #[test]
    fn keys_not_written_by_a_category_are_refused() {
        for key in [
            "",
            "4x4",
            "4x4 single ",
            "4x4 Single",
            "4x 4 single",
            "0x4 single",
            "04x4 single",
            "4x4 marathon",
            "4x4 marathon x0",
            "4x4 marathon x+3",
            "4x4 marathon x99999999999",
            "4x4 relay",
            "2x2-6x6 relay",
            "4x4 blind helped helped",
            "helped",
        ] {
            assert_eq!(
                key.parse::<Category>(),
                Err(ParseCategoryError(key.to_owned())),
                "{key:?}"
            );
        }
    }

    #[test]
    fn groups_keep_each_categorys_solves_in_order_and_helped_games_apart() {
        let single = Category::new(4, 4, Mode::Single);
        let marathon = Category::new(4, 4, Mode::Marathon(10));
        let attempt = |ms| Attempt::solved(ms, 1, 1);
        let groups = group([
            (marathon, attempt(3)),
            (single, attempt(1)),
            (single.helped(), attempt(9)),
            (single, attempt(2)),
        ]);
        let keys: Vec<String> = groups.keys().map(Category::to_string).collect();
        assert_eq!(
            keys,
            ["4x4 single", "4x4 single helped", "4x4 marathon x10"]
        );
        assert_eq!(groups[&single], [attempt(1), attempt(2)]);
        assert_eq!(groups[&single.helped()], [attempt(9)]);
        let report = StatsReport::new([(marathon, attempt(3))]);
        assert_eq!(report.get(&marathon).map(|s| s.solves), Some(1));
        assert_eq!(report.get(&single), None);
    }
}
