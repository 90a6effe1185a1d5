// The app: a thin GameActivity around the Rust game (libsnapslide_android.so in jniLibs).
plugins {
    alias(libs.plugins.android.application)
}

android {
    namespace = "org.snapslide"
    compileSdk = 36

    defaultConfig {
        applicationId = "org.snapslide"
        // bevy_audio (cpal on AAudio) needs API level 26.
        minSdk = 26
        targetSdk = 36
        // The crate's version (Cargo.toml); android/check.sh fails when they differ.
        // versionCode = major * 1_000_000 + minor * 1_000 + patch.
        versionCode = 1000
        versionName = "0.1.0"
        ndk {
            // What android/build.sh built: gradle.properties' snapslide.abis, or the
            // ANDROID_ABIS it passes as -Psnapslide.abis (android/check.sh checks they agree).
            abiFilters += providers.gradleProperty("snapslide.abis").get()
                .split(" ").filter { it.isNotBlank() }
        }
    }

    buildTypes {
        release {
            isMinifyEnabled = false
        }
    }

    compileOptions {
        sourceCompatibility = JavaVersion.VERSION_17
        targetCompatibility = JavaVersion.VERSION_17
    }

    buildFeatures {
        // android-activity links GameActivity's C glue itself: no prefab.
        prefab = false
    }

    sourceSets {
        getByName("main") {
            // The game's photos, sounds and fonts: the repository's own assets folder.
            assets.directories.add("../../assets")
        }
    }
}

dependencies {
    implementation(libs.games.activity)
    implementation(libs.appcompat)
    implementation(libs.activity)
    implementation(libs.core)
    implementation(libs.exifinterface)
}
