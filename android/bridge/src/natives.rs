//! The `native` methods of `org.snapslide.Bridge`, implemented in Rust, and the sink they feed.

use std::ffi::c_void;
use std::sync::RwLock;

use jni::errors::LogErrorAndDefault;
use jni::objects::{JByteArray, JClass, JString};
use jni::strings::JNIStr;
use jni::sys::{jboolean, jfloat, jint};
use jni::{Env, EnvUnowned, NativeMethod, jni_str};

use crate::event::{BridgeEvent, Insets, Preferences, Sink};

/// One `static native` method of `org.snapslide.Bridge` and the Rust function behind it.
struct Native {
    name: &'static JNIStr,
    descriptor: &'static JNIStr,
    func: *mut c_void,
}

/// Every native of `org.snapslide.Bridge`, with its JNI descriptor.
const NATIVES: [Native; 8] = [
    Native {
        name: jni_str!("nativePhoto"),
        descriptor: jni_str!("([BLjava/lang/String;)V"),
        func: native_photo as *mut c_void,
    },
    Native {
        name: jni_str!("nativeCancelled"),
        descriptor: jni_str!("()V"),
        func: native_cancelled as *mut c_void,
    },
    Native {
        name: jni_str!("nativeFailed"),
        descriptor: jni_str!("(Ljava/lang/String;)V"),
        func: native_failed as *mut c_void,
    },
    Native {
        name: jni_str!("nativeBack"),
        descriptor: jni_str!("()V"),
        func: native_back as *mut c_void,
    },
    Native {
        name: jni_str!("nativeInsets"),
        descriptor: jni_str!("(IIII)V"),
        func: native_insets as *mut c_void,
    },
    Native {
        name: jni_str!("nativePreferences"),
        descriptor: jni_str!("(FZ)V"),
        func: native_preferences as *mut c_void,
    },
    Native {
        name: jni_str!("nativeLink"),
        descriptor: jni_str!("(Ljava/lang/String;)V"),
        func: native_link as *mut c_void,
    },
    Native {
        name: jni_str!("nativeShareFailed"),
        descriptor: jni_str!("(Ljava/lang/String;)V"),
        func: native_share_failed as *mut c_void,
    },
];

/// The natives Rust registers on `org.snapslide.Bridge`, as (name, JNI descriptor); all are
/// `static`. The JVM test compares them with `javap -s`.
pub fn native_methods() -> Vec<(String, String)> {
    NATIVES
        .iter()
        .map(|n| {
            (
                n.name.to_str().into_owned(),
                n.descriptor.to_str().into_owned(),
            )
        })
        .collect()
}

/// The sink the natives hand their events to; the last one installed wins.
static SINK: RwLock<Option<Sink>> = RwLock::new(None);

/// Installs the sink the natives feed from now on.
pub(crate) fn install(sink: Sink) {
    *SINK
        .write()
        .unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(sink);
}

fn deliver(event: BridgeEvent) {
    let sink = SINK
        .read()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .clone();
    match sink {
        Some(sink) => sink(event),
        None => log::warn!("snapslide bridge: no sink yet, dropped {event:?}"),
    }
}

/// The table handed to `RegisterNatives`.
pub(crate) fn table() -> Vec<NativeMethod<'static>> {
    NATIVES
        .iter()
        // SAFETY: each function is `extern "system"`, takes the env, the class (the methods are
        // static) and exactly the arguments its descriptor names, and returns void.
        .map(|n| unsafe { NativeMethod::from_raw_parts(n.name, n.descriptor, n.func) })
        .collect()
}

/// The photo's bytes and name, or why they could not be read.
fn read_photo(
    env: &mut Env<'_>,
    bytes: &JByteArray<'_>,
    name: &JString<'_>,
) -> Result<BridgeEvent, String> {
    if bytes.is_null() {
        return Err("the photo arrived empty".into());
    }
    let bytes = env
        .convert_byte_array(bytes)
        .map_err(|error| format!("the photo could not be read ({error})"))?;
    if bytes.is_empty() {
        return Err("the photo arrived empty".into());
    }
    let name = if name.is_null() {
        "photo".to_owned()
    } else {
        name.try_to_string(env)
            .unwrap_or_else(|_| "photo".to_owned())
    };
    Ok(BridgeEvent::Photo { bytes, name })
}

extern "system" fn native_photo<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    bytes: JByteArray<'local>,
    name: JString<'local>,
) {
    env.with_env(|env| -> jni::errors::Result<()> {
        deliver(read_photo(env, &bytes, &name).unwrap_or_else(BridgeEvent::Failed));
        Ok(())
    })
    .resolve::<LogErrorAndDefault>()
}

extern "system" fn native_cancelled<'local>(mut env: EnvUnowned<'local>, _class: JClass<'local>) {
    env.with_env(|_| -> jni::errors::Result<()> {
        deliver(BridgeEvent::Cancelled);
        Ok(())
    })
    .resolve::<LogErrorAndDefault>()
}

extern "system" fn native_failed<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    reason: JString<'local>,
) {
    env.with_env(|env| -> jni::errors::Result<()> {
        let reason = if reason.is_null() {
            "the photo could not be had".to_owned()
        } else {
            reason.try_to_string(env)?
        };
        deliver(BridgeEvent::Failed(reason));
        Ok(())
    })
    .resolve::<LogErrorAndDefault>()
}

extern "system" fn native_back<'local>(mut env: EnvUnowned<'local>, _class: JClass<'local>) {
    env.with_env(|_| -> jni::errors::Result<()> {
        deliver(BridgeEvent::Back);
        Ok(())
    })
    .resolve::<LogErrorAndDefault>()
}

extern "system" fn native_insets<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    top: jint,
    right: jint,
    bottom: jint,
    left: jint,
) {
    env.with_env(|_| -> jni::errors::Result<()> {
        deliver(BridgeEvent::Insets(Insets::from_java(
            top, right, bottom, left,
        )));
        Ok(())
    })
    .resolve::<LogErrorAndDefault>()
}

extern "system" fn native_preferences<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    font_scale: jfloat,
    animations_off: jboolean,
) {
    env.with_env(|_| -> jni::errors::Result<()> {
        deliver(BridgeEvent::Preferences(Preferences::from_java(
            font_scale,
            animations_off,
        )));
        Ok(())
    })
    .resolve::<LogErrorAndDefault>()
}

/// Java's string, or `None` for null or a string that cannot be read.
fn text(env: &mut Env<'_>, string: &JString<'_>) -> Option<String> {
    if string.is_null() {
        return None;
    }
    string.try_to_string(env).ok()
}

extern "system" fn native_link<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    uri: JString<'local>,
) {
    env.with_env(|env| -> jni::errors::Result<()> {
        match text(env, &uri) {
            Some(uri) => deliver(BridgeEvent::Link(uri)),
            None => log::warn!("snapslide bridge: a link without text was dropped"),
        }
        Ok(())
    })
    .resolve::<LogErrorAndDefault>()
}

extern "system" fn native_share_failed<'local>(
    mut env: EnvUnowned<'local>,
    _class: JClass<'local>,
    reason: JString<'local>,
) {
    env.with_env(|env| -> jni::errors::Result<()> {
        let reason = text(env, &reason).unwrap_or_else(|| "the share sheet did not open".into());
        deliver(BridgeEvent::ShareFailed(reason));
        Ok(())
    })
    .resolve::<LogErrorAndDefault>()
}
