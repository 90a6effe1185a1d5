//! The bridge object: registers the natives and calls the activity's `org.snapslide.Host`
//! methods (a photo, a haptic tap, the share sheet for text or a file).

use std::ffi::c_void;

use jni::objects::{Global, JClass, JObject, LoaderContext};
use jni::refs::Reference as _;
use jni::signature::MethodSignature;
use jni::strings::JNIStr;
use jni::{Env, JValue, JavaVM, jni_sig, jni_str};

use crate::error::BridgeError;
use crate::event::{Origin, Sink, Tap};
use crate::natives;

/// A method of `org.snapslide.Host` that Rust calls on the activity.
struct HostMethod {
    name: &'static JNIStr,
    signature: MethodSignature<'static, 'static>,
}

const PICK_PHOTO: HostMethod = HostMethod {
    name: jni_str!("pickPhoto"),
    signature: jni_sig!("(I)V"),
};

const HAPTIC: HostMethod = HostMethod {
    name: jni_str!("haptic"),
    signature: jni_sig!("(I)V"),
};

const SHARE_TEXT: HostMethod = HostMethod {
    name: jni_str!("shareText"),
    signature: jni_sig!("(Ljava/lang/String;)V"),
};

const SHARE_FILE: HostMethod = HostMethod {
    name: jni_str!("shareFile"),
    signature: jni_sig!("(Ljava/lang/String;Ljava/lang/String;)V"),
};

/// The methods of `org.snapslide.Host` that Rust calls, as (name, JNI descriptor). The JVM test
/// compares them with `javap -s`.
pub fn host_methods() -> Vec<(String, String)> {
    [PICK_PHOTO, HAPTIC, SHARE_TEXT, SHARE_FILE]
        .iter()
        .map(|m| {
            let descriptor = m.signature.sig().to_str().into_owned();
            (m.name.to_str().into_owned(), descriptor)
        })
        .collect()
}

/// The JVM and the activity (an `org.snapslide.Host`), held for calls either way.
#[derive(Debug)]
pub struct Bridge {
    vm: JavaVM,
    activity: Global<JObject<'static>>,
}

impl Bridge {
    /// A bridge to this activity in this JVM.
    pub fn new(vm: JavaVM, activity: Global<JObject<'static>>) -> Bridge {
        Bridge { vm, activity }
    }

    /// A bridge from the raw pointers android-activity hands out (`vm_as_ptr`,
    /// `activity_as_ptr`); the activity gets a global reference of the bridge's own.
    ///
    /// # Safety
    ///
    /// `vm` must be the process's `JavaVM*` and `activity` a valid JNI reference to an object
    /// that implements `org.snapslide.Host`, for the duration of this call.
    pub unsafe fn from_raw(vm: *mut c_void, activity: *mut c_void) -> Result<Bridge, BridgeError> {
        if vm.is_null() {
            return Err(BridgeError::NullPointer("JavaVM"));
        }
        if activity.is_null() {
            return Err(BridgeError::NullPointer("activity"));
        }
        // SAFETY: the caller guarantees a valid JavaVM pointer.
        let vm = unsafe { JavaVM::from_raw(vm.cast()) };
        let activity = vm.attach_current_thread(|env| -> Result<_, BridgeError> {
            // SAFETY: the caller guarantees a valid reference; it is only borrowed here.
            let borrowed = unsafe { JObject::from_raw(env, activity.cast()) };
            Ok(env.new_global_ref(&borrowed)?)
        })?;
        Ok(Bridge { vm, activity })
    }

    /// Installs the sink, registers the natives of `org.snapslide.Bridge` (found through the
    /// activity's class loader) and tells the class, which then sends what waited (the last
    /// insets and preferences). Safe to call again, for a new activity.
    pub fn register(&self, sink: Sink) -> Result<(), BridgeError> {
        natives::install(sink);
        self.vm
            .attach_current_thread(|env| -> Result<(), BridgeError> {
                let class = self.bridge_class(env)?;
                // SAFETY: the table's functions match their descriptors, all static.
                unsafe { env.register_native_methods(&class, &natives::table())? };
                env.call_static_method(&class, jni_str!("onRegistered"), jni_sig!("()V"), &[])?;
                Ok(())
            })
    }

    /// Asks the activity for a photo; the answer comes back through the sink.
    pub fn pick_photo(&self, origin: Origin) -> Result<(), BridgeError> {
        self.call(&PICK_PHOTO, origin as i32)
    }

    /// Asks the activity for a haptic tap.
    pub fn haptic(&self, tap: Tap) -> Result<(), BridgeError> {
        self.call(&HAPTIC, tap as i32)
    }

    /// Asks the activity to open the system's share sheet for this text (`ACTION_SEND`,
    /// `text/plain`); a failure there comes back as [`BridgeEvent::ShareFailed`].
    ///
    /// [`BridgeEvent::ShareFailed`]: crate::BridgeEvent::ShareFailed
    pub fn share_text(&self, text: &str) -> Result<(), BridgeError> {
        self.call_with_strings(&SHARE_TEXT, &[text])
    }

    /// Asks the activity to open the share sheet for the file at `path` (which must lie in a
    /// folder the app's FileProvider serves), of this MIME type; a failure there comes back
    /// as [`BridgeEvent::ShareFailed`].
    ///
    /// [`BridgeEvent::ShareFailed`]: crate::BridgeEvent::ShareFailed
    pub fn share_file(&self, path: &str, mime: &str) -> Result<(), BridgeError> {
        self.call_with_strings(&SHARE_FILE, &[path, mime])
    }

    fn call_with_strings(&self, method: &HostMethod, args: &[&str]) -> Result<(), BridgeError> {
        self.vm
            .attach_current_thread(|env| -> Result<(), BridgeError> {
                let mut strings = Vec::with_capacity(args.len());
                for arg in args {
                    strings.push(env.new_string(arg)?);
                }
                let values: Vec<JValue> = strings.iter().map(|s| JValue::Object(s)).collect();
                env.call_method(&self.activity, method.name, &method.signature, &values)?;
                Ok(())
            })
    }

    fn call(&self, method: &HostMethod, arg: i32) -> Result<(), BridgeError> {
        self.vm
            .attach_current_thread(|env| -> Result<(), BridgeError> {
                env.call_method(
                    &self.activity,
                    method.name,
                    &method.signature,
                    &[JValue::Int(arg)],
                )?;
                Ok(())
            })
    }

    /// `org.snapslide.Bridge`, loaded by the activity's class loader (`FindClass` from a native
    /// thread sees only the system's classes on Android).
    fn bridge_class<'local>(&self, env: &mut Env<'local>) -> Result<JClass<'local>, BridgeError> {
        let activity_class = env.get_object_class(&self.activity)?;
        let loader = activity_class.get_class_loader(env)?;
        if loader.is_null() {
            return Err(BridgeError::NullPointer("class loader"));
        }
        let name = jni_str!("org.snapslide.Bridge");
        Ok(LoaderContext::Loader(&loader).load_class(env, name, true)?)
    }
}
