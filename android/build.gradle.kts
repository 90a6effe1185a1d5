// Top-level build file: the plugin versions are in gradle/libs.versions.toml.
plugins {
    alias(libs.plugins.android.application) apply false
}
