//! Whether a photo's tiles can be told apart by eye: a player puts a tile back by matching
//! its edges to its neighbours' (an eye that runs on across the cut, a horizon). On a photo
//! with no such features (a field of stars, a clear sky, a wall) a tile's true neighbour
//! matches it no better than any other tile does, and the puzzle cannot be solved by eye
//! (play-test 59: the Hubble Deep Field at 3×3). Such a board gets its tile numbers.

use image::RgbaImage;

/// How much closer, on average, a tile's edge is to its true neighbour's than to any other
/// tile's, at which the tiles count as telling their places: the mean of
/// `true neighbour / other tiles` over the board's cuts must be below this. Measured on the
/// bundled photos at 3×3, 4×4, 6×6 and 8×8 (the `likeness` tests): 0.10–0.51 for the photos
/// with features (the cat's fur the highest), 0.75–1.04 for the Hubble Deep Field.
pub const TELLING: f32 = 0.65;

/// How alike a board's tiles are at their cuts, as an eye sees them (each edge's profile, a
/// few parts of a strip along it): for each cut between two neighbours, the difference of
/// the two edges over the mean difference of the first tile's edge to every other tile's
/// facing edge; the mean of those ratios. Near 0, each tile's edge points to its
/// neighbour; near 1 or more, the edges say nothing. `tiles` are row-major, `width` a row;
/// `None` for a board with no cut (a single tile) or tiles of no size.
pub fn edge_likeness(tiles: &[RgbaImage], width: usize) -> Option<f32> {
    let side = tiles.first()?.width();
    if width == 0 || side == 0 || tiles.len() < 2 {
        return None;
    }
    let profiles =
        |edge: Edge| -> Vec<Profile> { tiles.iter().map(|t| profile(t, edge)).collect() };
    let (rights, lefts) = (profiles(Edge::Right), profiles(Edge::Left));
    let (bottoms, tops) = (profiles(Edge::Bottom), profiles(Edge::Top));
    let mut ratios = Vec::new();
    for index in 0..tiles.len() {
        let across = index + 1;
        if across % width != 0 && across < tiles.len() {
            ratios.push(ratio(&rights[index], &lefts, index, across));
        }
        let below = index + width;
        if below < tiles.len() {
            ratios.push(ratio(&bottoms[index], &tops, index, below));
        }
    }
    (!ratios.is_empty()).then(|| ratios.iter().sum::<f32>() / ratios.len() as f32)
}

/// How many parts an edge's profile has: what an eye takes in along a cut, not its pixels
/// (at the pixels' scale, even a field of stars runs on across the cut).
const PARTS: u32 = 8;

/// A tile's side.
#[derive(Clone, Copy)]
enum Edge {
    Left,
    Right,
    Top,
    Bottom,
}

/// An edge as the eye takes it in: the mean colour of each of [`PARTS`] parts of a strip an
/// eighth of the tile deep along it.
type Profile = Vec<[f32; 3]>;

fn profile(tile: &RgbaImage, edge: Edge) -> Profile {
    let side = tile.width().min(tile.height());
    let depth = (side / PARTS).max(1);
    let part = (side / PARTS).max(1);
    (0..PARTS.min(side))
        .map(|k| {
            let (along, across) = (k * part..(k + 1) * part, 0..depth);
            let mut sum = [0.0f32; 3];
            let mut count = 0.0f32;
            for a in along {
                for d in across.clone() {
                    let (x, y) = match edge {
                        Edge::Left => (d, a),
                        Edge::Right => (side - 1 - d, a),
                        Edge::Top => (a, d),
                        Edge::Bottom => (a, side - 1 - d),
                    };
                    let pixel = tile.get_pixel(x, y);
                    (0..3).for_each(|c| sum[c] += pixel[c] as f32);
                    count += 1.0;
                }
            }
            sum.map(|channel| channel / count.max(1.0))
        })
        .collect()
}

/// Whether the tiles of a board are too alike to be placed by eye (see [`edge_likeness`]).
pub fn tiles_alike(tiles: &[RgbaImage], width: usize) -> bool {
    edge_likeness(tiles, width).is_some_and(|likeness| likeness >= TELLING)
}

/// An edge of tile `own`'s difference to its true neighbour's over its mean difference to
/// every other tile's facing edge (its own tile left out); 1 (it says nothing) when every
/// other tile's edge is the same as it.
fn ratio(edge: &Profile, facing: &[Profile], own: usize, neighbour: usize) -> f32 {
    let others: Vec<f32> = (0..facing.len())
        .filter(|&other| other != neighbour && other != own)
        .map(|other| difference(edge, &facing[other]))
        .collect();
    let mean = others.iter().sum::<f32>() / others.len().max(1) as f32;
    if mean > 0.0 {
        difference(edge, &facing[neighbour]) / mean
    } else {
        1.0
    }
}

/// The mean absolute difference of two profiles, over their parts and channels.
fn difference(a: &Profile, b: &Profile) -> f32 {
    let sum: f32 = a
        .iter()
        .zip(b)
        .flat_map(|(a, b)| (0..3).map(move |c| (a[c] - b[c]).abs()))
        .sum();
    sum / (3 * a.len().max(1)) as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The package's folder, as `cargo test` gives it to the running test (not as it was when
    /// compiled: a build folder shared by checkouts at other paths keeps a test built in another).
    fn manifest_dir() -> String {
        std::env::var("CARGO_MANIFEST_DIR").expect("cargo test gives CARGO_MANIFEST_DIR")
    }
    use crate::{load_file, prepare};

    fn likeness_of(photo: &str, side: u32) -> f32 {
        let path = format!("{}/../../assets/photos/{photo}", manifest_dir());
        let image = load_file(std::path::Path::new(&path)).unwrap();
        let prepared = prepare(&image, side, side);
        edge_likeness(&prepared.tiles, side as usize).unwrap()
    }

    #[test]
    fn a_field_of_stars_is_too_alike_to_place_by_eye_and_the_other_photos_are_not() {
        for side in [3, 4, 6, 8] {
            let stars = likeness_of("hubble_deep_field.jpg", side);
            assert!(stars >= TELLING, "the stars at {side}×{side}: {stars:.2}");
            for photo in ["chelsea.png", "astronaut.png", "coffee.png", "rocket.jpg"] {
                let seen = likeness_of(photo, side);
                assert!(seen < TELLING, "{photo} at {side}×{side}: {seen:.2}");
            }
        }
    }

    #[test]
    fn tiles_of_one_colour_say_nothing_and_one_tile_has_no_cut() {
        let plain = vec![RgbaImage::from_pixel(8, 8, image::Rgba([90, 90, 90, 255])); 9];
        assert_eq!(edge_likeness(&plain, 3), Some(1.0));
        assert!(tiles_alike(&plain, 3));
        assert_eq!(edge_likeness(&plain[..1], 1), None);
        assert!(!tiles_alike(&plain[..1], 1));
    }
}
