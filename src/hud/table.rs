//! Tables that never run past their sheet: a striped grid of columns under their captions
//! where it fits the width, else each row as a line of its own, wrapped ("ao5 (time):
//! current 20.09, best 16.32"), as on a small phone at large text.

use bevy_egui::egui;

use super::style;

/// The room between a grid's columns (its rows are spaced as the ui's items are).
const COLUMN_SPACING: f32 = 12.0;

/// A widget added after each row, given the row's index (a Watch button), with the width
/// it takes.
pub type Trailing<'a> = Option<(f32, &'a mut dyn FnMut(&mut egui::Ui, usize))>;

/// Draws `rows` under `captions`: a grid where it fits the width left, else a line a row.
/// `trailing` adds a widget after each row (given the row's index), such as a Watch button.
pub fn table(
    ui: &mut egui::Ui,
    id: impl egui::AsIdSalt,
    captions: &[&str],
    rows: &[Vec<String>],
    mut trailing: Trailing,
) {
    let extra = trailing
        .as_ref()
        .map_or(0.0, |(width, _)| width + COLUMN_SPACING);
    if needed_width(ui, captions, rows) + extra > ui.available_width() {
        // The line the whole width, its widget below it.
        for (index, row) in rows.iter().enumerate() {
            ui.add(egui::Label::new(line(captions, row)).wrap());
            if let Some((_, trailing)) = trailing.as_mut() {
                trailing(ui, index);
            }
        }
        return;
    }
    egui::Grid::new(id)
        .striped(true)
        .spacing([COLUMN_SPACING, ui.spacing().item_spacing.y])
        .show(ui, |ui| {
            for caption in captions {
                ui.label(style::caption(caption));
            }
            ui.end_row();
            for (index, row) in rows.iter().enumerate() {
                for cell in row {
                    ui.label(cell);
                }
                if let Some((_, trailing)) = trailing.as_mut() {
                    trailing(ui, index);
                }
                ui.end_row();
            }
        });
}

/// A row as a line: its first cell, then each other one after its caption ("Today: board
/// 4×4, time 24.37 s"); empty cells left out.
pub fn line(captions: &[&str], row: &[String]) -> String {
    let Some((first, rest)) = row.split_first() else {
        return String::new();
    };
    let said: Vec<String> = rest
        .iter()
        .zip(captions.iter().skip(1))
        .filter(|(cell, _)| !cell.is_empty())
        .map(|(cell, caption)| match caption.is_empty() {
            true => cell.clone(),
            false => format!("{} {cell}", in_a_sentence(caption)),
        })
        .collect();
    match said.is_empty() {
        true => first.clone(),
        false => format!("{first}: {}", said.join(", ")),
    }
}

/// A caption as a sentence has it: "Time" as "time", an abbreviation ("MTM", "TPS") as is.
fn in_a_sentence(caption: &str) -> String {
    let shouted = caption
        .chars()
        .filter(|c| c.is_alphabetic())
        .all(char::is_uppercase);
    match shouted && caption.chars().count() > 1 {
        true => caption.to_string(),
        false => caption.to_lowercase(),
    }
}

/// The width a grid of these rows takes: each column as wide as its widest cell or caption,
/// with the spacing between them.
fn needed_width(ui: &egui::Ui, captions: &[&str], rows: &[Vec<String>]) -> f32 {
    let width = |text: &str, style: egui::TextStyle| style::text_width(ui, text, style);
    let columns = captions
        .len()
        .max(rows.iter().map(Vec::len).max().unwrap_or(0));
    let widest: f32 = (0..columns)
        .map(|column| {
            let caption = captions
                .get(column)
                .map_or(0.0, |c| width(&c.to_uppercase(), egui::TextStyle::Small));
            rows.iter()
                .filter_map(|row| row.get(column))
                .map(|cell| width(cell, egui::TextStyle::Body))
                .fold(caption, f32::max)
        })
        .sum();
    widest + COLUMN_SPACING * columns as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_reads_as_a_line_after_its_captions() {
        let captions = ["", "Current", "Best"];
        let row = ["ao5 (time)", "20.09", "16.32"].map(String::from);
        assert_eq!(
            line(&captions, &row),
            "ao5 (time): current 20.09, best 16.32"
        );
        let mean = ["mean (time)", "20.69", ""].map(String::from);
        assert_eq!(line(&captions, &mean), "mean (time): current 20.69");
        let versus = ["", "Moves", "MTM", "TPS"];
        let you = ["You", "16", "12", "2.41"].map(String::from);
        assert_eq!(line(&versus, &you), "You: moves 16, MTM 12, TPS 2.41");
    }

    /// The size a table takes in a sheet `width` wide, at the app's fonts.
    fn drawn(width: f32, rows: &[Vec<String>]) -> egui::Vec2 {
        let ctx = egui::Context::default();
        ctx.set_fonts(style::fonts());
        let mut drawn = egui::Vec2::ZERO;
        for _ in 0..2 {
            let mut output = ctx.run_ui(Default::default(), |ui| {
                ui.set_width(width);
                ui.set_max_width(width);
                let captions = ["Day", "Board", "Time", "Moves", "TPS", "Shortest"];
                let shown = ui.scope(|ui| table(ui, "t", &captions, rows, None));
                drawn = shown.response.rect.size();
            });
            output.textures_delta.clear();
        }
        drawn
    }

    #[test]
    fn a_table_too_wide_for_its_sheet_becomes_lines_and_one_that_fits_stays_a_grid() {
        let row = ["Yesterday", "4×4", "24.37 s", "76 (55 MTM)", "3.12", "48"].map(String::from);
        let rows = vec![row.to_vec(); 5];
        for width in [148.0, 328.0, 520.0] {
            let taken = drawn(width, &rows);
            assert!(taken.x <= width + 0.5, "{taken:?} in {width}");
        }
        // A grid: a row of captions and a line a row, not rows wrapped onto several lines.
        let (grid, lines) = (drawn(520.0, &rows), drawn(148.0, &rows));
        assert!(grid.y * 1.5 < lines.y, "{grid:?} against {lines:?}");
    }
}
