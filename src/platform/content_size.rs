//! iOS's text sizes (Dynamic Type's content size categories, Settings → Display & Brightness →
//! Text Size, and Accessibility → Larger Text) as the app's text scale. Platform-neutral, so
//! that its test runs on Linux; `ios.rs` maps UIKit's categories onto [`ContentSize`].

/// The body style's size at the default category, Large, in points.
const BODY_AT_LARGE: f32 = 17.0;

/// One of UIKit's content size categories, smallest first (Unspecified has none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ContentSize {
    /// `UIContentSizeCategoryExtraSmall`.
    ExtraSmall,
    /// `UIContentSizeCategorySmall`.
    Small,
    /// `UIContentSizeCategoryMedium`.
    Medium,
    /// `UIContentSizeCategoryLarge`, the default.
    Large,
    /// `UIContentSizeCategoryExtraLarge`.
    ExtraLarge,
    /// `UIContentSizeCategoryExtraExtraLarge`.
    ExtraExtraLarge,
    /// `UIContentSizeCategoryExtraExtraExtraLarge`, the largest without Larger Text.
    ExtraExtraExtraLarge,
    /// `UIContentSizeCategoryAccessibilityMedium` (Larger Text).
    AccessibilityMedium,
    /// `UIContentSizeCategoryAccessibilityLarge`.
    AccessibilityLarge,
    /// `UIContentSizeCategoryAccessibilityExtraLarge`.
    AccessibilityExtraLarge,
    /// `UIContentSizeCategoryAccessibilityExtraExtraLarge`.
    AccessibilityExtraExtraLarge,
    /// `UIContentSizeCategoryAccessibilityExtraExtraExtraLarge`, the largest.
    AccessibilityExtraExtraExtraLarge,
}

impl ContentSize {
    /// The body style's size in points at this category: Apple's Dynamic Type sizes (Human
    /// Interface Guidelines, Typography).
    fn body_points(self) -> f32 {
        match self {
            ContentSize::ExtraSmall => 14.0,
            ContentSize::Small => 15.0,
            ContentSize::Medium => 16.0,
            ContentSize::Large => 17.0,
            ContentSize::ExtraLarge => 19.0,
            ContentSize::ExtraExtraLarge => 21.0,
            ContentSize::ExtraExtraExtraLarge => 23.0,
            ContentSize::AccessibilityMedium => 28.0,
            ContentSize::AccessibilityLarge => 33.0,
            ContentSize::AccessibilityExtraLarge => 40.0,
            ContentSize::AccessibilityExtraExtraLarge => 47.0,
            ContentSize::AccessibilityExtraExtraExtraLarge => 53.0,
        }
    }

    /// The text scale this category asks for: body text's size over its size at Large (so 1
    /// at Large, 0.82 at Extra Small, 3.12 at the largest accessibility size; the app uses at
    /// most 2).
    pub(crate) fn font_scale(self) -> f32 {
        self.body_points() / BODY_AT_LARGE
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ContentSize::*;

    const ALL: [ContentSize; 12] = [
        ExtraSmall,
        Small,
        Medium,
        Large,
        ExtraLarge,
        ExtraExtraLarge,
        ExtraExtraExtraLarge,
        AccessibilityMedium,
        AccessibilityLarge,
        AccessibilityExtraLarge,
        AccessibilityExtraExtraLarge,
        AccessibilityExtraExtraExtraLarge,
    ];

    #[test]
    fn large_is_the_normal_size_and_the_others_follow_apples_body_text() {
        let scales: Vec<f32> = ALL.iter().map(|size| size.font_scale()).collect();
        let expected = [
            0.82, 0.88, 0.94, 1.0, 1.12, 1.24, 1.35, 1.65, 1.94, 2.35, 2.76, 3.12,
        ];
        for ((size, scale), want) in ALL.iter().zip(&scales).zip(expected) {
            assert!(
                (scale - want).abs() < 0.006,
                "{size:?}: {scale}, not {want}"
            );
        }
        assert_eq!(Large.font_scale(), 1.0);
    }

    #[test]
    fn each_larger_category_is_a_larger_scale() {
        let scales: Vec<f32> = ALL.iter().map(|size| size.font_scale()).collect();
        assert!(
            scales.windows(2).all(|pair| pair[0] < pair[1]),
            "{scales:?}"
        );
    }
}
