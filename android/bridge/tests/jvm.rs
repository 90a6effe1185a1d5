//! The bridge exercised for real: a JVM started from Rust with `-Xcheck:jni` loads the very
//! Java files that ship in `android/` (the Android-free `Bridge`, `Host` and `PhotoSize`) and a
//! fake activity, through a class loader of their own (as on Android, `FindClass` cannot see
//! them). Needs a JDK: `make test` installs Debian's `openjdk-17-jdk-headless`. Without
//! `javac`, `javap` or a JVM these tests fail; they never skip.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use jni::objects::{Global, JClass, JClassLoader, JObject, JValue, LoaderContext};
use jni::{Env, InitArgsBuilder, JNIVersion, JavaVM, jni_sig, jni_str};
use snapslide_android_bridge::{
    Bridge, BridgeEvent, Insets, Origin, Preferences, Tap, host_methods, native_methods,
};

/// The package's folder, as `cargo test` gives it to the running test (not as it was when
/// compiled: a build folder shared by checkouts at other paths keeps a test built in another).
fn manifest_dir() -> String {
    std::env::var("CARGO_MANIFEST_DIR").expect("cargo test gives CARGO_MANIFEST_DIR")
}

/// The Java sources the app ships, relative to the crate.
const SHIPPED: [&str; 3] = ["Bridge.java", "Host.java", "PhotoSize.java"];
const SHIPPED_DIR: &str = "../app/src/main/java/org/snapslide";
const FAKE_ACTIVITY: &str = "tests/java/org/snapslide/test/FakeActivity.java";

/// A JDK tool (`javac`, `javap`) from `JAVA_HOME`, else from `PATH`; fails the test if absent.
fn jdk_tool(name: &str) -> PathBuf {
    let tool = std::env::var_os("JAVA_HOME")
        .map(|home| Path::new(&home).join("bin").join(name))
        .filter(|path| path.exists())
        .unwrap_or_else(|| PathBuf::from(name));
    let works = Command::new(&tool)
        .arg("-version")
        .output()
        .is_ok_and(|out| out.status.success());
    assert!(
        works,
        "{name} not found: install a JDK 17 (Debian: openjdk-17-jdk-headless; `make test` does)"
    );
    tool
}

/// Where a parent test process hands its compiled classes to the child it runs.
const CLASSES_ENV: &str = "SNAPSLIDE_BRIDGE_TEST_CLASSES";

/// Compiles the shipped Java and the fake activity once; returns the classes' folder.
fn classes() -> &'static Path {
    static CLASSES: OnceLock<PathBuf> = OnceLock::new();
    CLASSES.get_or_init(|| {
        if let Some(dir) = std::env::var_os(CLASSES_ENV) {
            return PathBuf::from(dir);
        }
        let crate_dir = PathBuf::from(crate::manifest_dir());
        let crate_dir = crate_dir.as_path();
        let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bridge-classes");
        let _ = std::fs::remove_dir_all(&out);
        std::fs::create_dir_all(&out).expect("a folder for the classes");
        let mut javac = Command::new(jdk_tool("javac"));
        javac.args(["-Xlint:all", "-Werror", "--release", "17", "-d"]);
        javac.arg(&out);
        for file in SHIPPED {
            javac.arg(crate_dir.join(SHIPPED_DIR).join(file));
        }
        javac.arg(crate_dir.join(FAKE_ACTIVITY));
        let result = javac.output().expect("javac runs");
        assert!(
            result.status.success(),
            "javac failed:\n{}",
            String::from_utf8_lossy(&result.stderr)
        );
        out
    })
}

/// The process's JVM (one per process) and a class loader over the compiled classes.
struct Jvm {
    vm: JavaVM,
    loader: Global<JClassLoader<'static>>,
}

fn jvm() -> &'static Jvm {
    static JVM: OnceLock<Jvm> = OnceLock::new();
    JVM.get_or_init(|| {
        let classes = classes();
        let args = InitArgsBuilder::new()
            .version(JNIVersion::V1_8)
            .option("-Xcheck:jni")
            .build()
            .expect("JVM options");
        let vm = JavaVM::new(args).expect("a JVM starts (is a JDK installed, JAVA_HOME set?)");
        let loader = vm
            .attach_current_thread(|env| url_class_loader(env, classes))
            .expect("a class loader over the compiled classes");
        Jvm { vm, loader }
    })
}

/// `new URLClassLoader(new URL[] { new File(dir).toURI().toURL() })`.
fn url_class_loader(
    env: &mut Env<'_>,
    dir: &Path,
) -> jni::errors::Result<Global<JClassLoader<'static>>> {
    let path = env.new_string(dir.to_string_lossy())?;
    let file = env.new_object(
        jni_str!("java/io/File"),
        jni_sig!("(Ljava/lang/String;)V"),
        &[JValue::Object(&path)],
    )?;
    let uri = env
        .call_method(&file, jni_str!("toURI"), jni_sig!("()Ljava/net/URI;"), &[])?
        .l()?;
    let url = env
        .call_method(&uri, jni_str!("toURL"), jni_sig!("()Ljava/net/URL;"), &[])?
        .l()?;
    let urls = env.new_object_array(1, jni_str!("java/net/URL"), &url)?;
    let loader = env.new_object(
        jni_str!("java/net/URLClassLoader"),
        jni_sig!("([Ljava/net/URL;)V"),
        &[JValue::Object(&urls)],
    )?;
    env.new_cast_global_ref::<JClassLoader>(loader)
}

fn load<'local>(env: &mut Env<'local>, name: &jni::strings::JNIStr) -> JClass<'local> {
    LoaderContext::Loader(&jvm().loader)
        .load_class(env, name, true)
        .expect("the class loads through the test's class loader")
}

/// A new fake activity (an `org.snapslide.Host`).
fn fake_activity(env: &mut Env<'_>) -> Global<JObject<'static>> {
    let class = load(env, jni_str!("org.snapslide.test.FakeActivity"));
    let activity = env
        .new_object(&class, jni_sig!("()V"), &[])
        .expect("a FakeActivity");
    env.new_global_ref(&activity).expect("a global reference")
}

/// The JVM tests share one JVM and the bridge's one sink: they run one at a time.
fn serial() -> MutexGuard<'static, ()> {
    static SERIAL: Mutex<()> = Mutex::new(());
    SERIAL
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// (name, descriptor) of the methods `javap -p -s` lists whose declaration contains `marker`.
fn javap_methods(class: &str, marker: &str) -> Vec<(String, String)> {
    let out = Command::new(jdk_tool("javap"))
        .args(["-p", "-s", "-cp"])
        .arg(classes())
        .arg(class)
        .output()
        .expect("javap runs");
    assert!(
        out.status.success(),
        "javap {class} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let mut methods: Vec<(String, String)> = lines
        .windows(2)
        .filter(|pair| pair[0].contains(marker) && pair[0].contains('('))
        .filter_map(|pair| {
            let head = pair[0].split('(').next()?;
            let name = head.split_whitespace().last()?;
            let descriptor = pair[1].strip_prefix("descriptor: ")?;
            Some((name.to_owned(), descriptor.to_owned()))
        })
        .collect();
    methods.sort();
    methods
}

#[test]
fn the_rust_natives_are_exactly_the_java_natives() {
    let mut rust = native_methods();
    rust.sort();
    let java = javap_methods("org.snapslide.Bridge", " static native ");
    assert_eq!(java.len(), 8, "javap found {java:?}");
    assert_eq!(rust, java);
}

#[test]
fn the_rust_calls_are_exactly_the_host_interface() {
    let mut rust = host_methods();
    rust.sort();
    let java = javap_methods("org.snapslide.Host", " abstract ");
    assert_eq!(java.len(), 4, "javap found {java:?}");
    assert_eq!(rust, java);
}

/// Collects what the bridge delivers.
#[derive(Clone, Default)]
struct Received(Arc<Mutex<Vec<BridgeEvent>>>);

impl Received {
    fn take(&self) -> Vec<BridgeEvent> {
        std::mem::take(&mut *self.0.lock().unwrap())
    }
}

/// Calls a static method of `org.snapslide.Bridge`, as the Android side does.
fn call_bridge(env: &mut Env<'_>, name: &jni::strings::JNIStr, sig: &str, args: &[JValue]) -> bool {
    let class = load(env, jni_str!("org.snapslide.Bridge"));
    let sig = jni::signature::RuntimeMethodSignature::from_str(sig).expect("a descriptor");
    let value = env
        .call_static_method(&class, name, sig.method_signature(), args)
        .expect("the Bridge method runs");
    value.z().unwrap_or(false)
}

type TestResult = Result<(), Box<dyn std::error::Error>>;

/// The only test that registers the natives (the natives and their sink are one per process).
#[test]
fn events_cross_from_java_to_rust() {
    let _serial = serial();
    let jvm = jvm();
    let received = Received::default();
    let sink = received.clone();
    jvm.vm
        .attach_current_thread(|env| -> TestResult {
            what_waits_for_registration(env)?;
            let activity = fake_activity(env);
            let bridge = Bridge::new(jvm.vm.clone(), activity);
            bridge.register(Arc::new(move |event| sink.0.lock().unwrap().push(event)))?;
            let waited = Insets {
                top: 96,
                right: 0,
                bottom: 63,
                left: 0,
            };
            let preferences = Preferences {
                font_scale: Some(1.3),
                animations_off: true,
            };
            assert_eq!(
                received.take(),
                vec![
                    BridgeEvent::Insets(waited),
                    BridgeEvent::Preferences(preferences),
                    BridgeEvent::Link(WAITING_LINK.into()),
                ]
            );
            every_kind_of_event_crosses(env, &received)?;
            a_big_photo_crosses_from_a_java_thread(env, &received)
        })
        .expect("the JNI calls succeed");
}

/// The link that launched the app, sent before the game registered the natives.
const WAITING_LINK: &str = "snapslide://c/7ZX3KQ";

/// Before registration: back is refused, a share failure is dropped, and the insets, the
/// preferences and the link wait, the last of each (Bridge is hidden from FindClass, as on
/// Android).
fn what_waits_for_registration(env: &mut Env<'_>) -> TestResult {
    assert!(
        env.find_class(jni_str!("org/snapslide/Bridge")).is_err(),
        "the test must hide Bridge from FindClass, as Android does"
    );
    assert!(!call_bridge(env, jni_str!("back"), "()Z", &[]));
    let insets = [
        JValue::Int(96),
        JValue::Int(0),
        JValue::Int(63),
        JValue::Int(0),
    ];
    call_bridge(env, jni_str!("insets"), "(IIII)V", &insets);
    for (scale, off) in [(1.0, false), (1.3, true)] {
        let preferences = [JValue::Float(scale), JValue::Bool(off)];
        call_bridge(env, jni_str!("preferences"), "(FZ)V", &preferences);
    }
    for link in ["snapslide://c/OLDER", WAITING_LINK] {
        let link = env.new_string(link)?;
        call_bridge(env, jni_str!("link"), STRING_ARG, &[JValue::Object(&link)]);
    }
    let reason = env.new_string("dropped")?;
    call_bridge(
        env,
        jni_str!("shareFailed"),
        STRING_ARG,
        &[JValue::Object(&reason)],
    );
    Ok(())
}

/// The descriptor of `Bridge.link` and `Bridge.shareFailed`.
const STRING_ARG: &str = "(Ljava/lang/String;)V";

/// A photo, a cancel, a failure, back, insets (a negative one clamped), the preferences, an
/// empty photo, a link (a null one dropped) and share failures (a null reason said) reach Rust
/// in order.
fn every_kind_of_event_crosses(env: &mut Env<'_>, received: &Received) -> TestResult {
    let jpeg = env.byte_array_from_slice(&[0xFF, 0xD8, 0xFF, 0x00, 0x80, 0xD9])?;
    let name = env.new_string("IMG_0001.jpg")?;
    let photo = [JValue::Object(&jpeg), JValue::Object(&name)];
    call_bridge(env, jni_str!("photo"), "([BLjava/lang/String;)V", &photo);
    call_bridge(env, jni_str!("cancelled"), "()V", &[]);
    let reason = env.new_string("no camera app — é")?;
    let failed = [JValue::Object(&reason)];
    call_bridge(env, jni_str!("failed"), "(Ljava/lang/String;)V", &failed);
    assert!(call_bridge(env, jni_str!("back"), "()Z", &[]));
    let insets = [
        JValue::Int(0),
        JValue::Int(24),
        JValue::Int(0),
        JValue::Int(-5),
    ];
    call_bridge(env, jni_str!("insets"), "(IIII)V", &insets);
    let preferences = [JValue::Float(0.85), JValue::Bool(false)];
    call_bridge(env, jni_str!("preferences"), "(FZ)V", &preferences);
    let null = JObject::null();
    let nulls = [JValue::Object(&null), JValue::Object(&null)];
    call_bridge(env, jni_str!("photo"), "([BLjava/lang/String;)V", &nulls);
    let link = env.new_string("snapslide://c/AB12-CD34")?;
    call_bridge(env, jni_str!("link"), STRING_ARG, &[JValue::Object(&link)]);
    call_bridge(env, jni_str!("link"), STRING_ARG, &[JValue::Object(&null)]);
    let reason = env.new_string("this phone has no app to share with")?;
    call_bridge(
        env,
        jni_str!("shareFailed"),
        STRING_ARG,
        &[JValue::Object(&reason)],
    );
    call_bridge(
        env,
        jni_str!("shareFailed"),
        STRING_ARG,
        &[JValue::Object(&null)],
    );
    assert_eq!(
        received.take(),
        vec![
            BridgeEvent::Photo {
                bytes: vec![0xFF, 0xD8, 0xFF, 0x00, 0x80, 0xD9],
                name: "IMG_0001.jpg".into()
            },
            BridgeEvent::Cancelled,
            BridgeEvent::Failed("no camera app — é".into()),
            BridgeEvent::Back,
            BridgeEvent::Insets(Insets {
                top: 0,
                right: 24,
                bottom: 0,
                left: 0
            }),
            BridgeEvent::Preferences(Preferences {
                font_scale: Some(0.85),
                animations_off: false
            }),
            BridgeEvent::Failed("the photo arrived empty".into()),
            BridgeEvent::Link("snapslide://c/AB12-CD34".into()),
            BridgeEvent::ShareFailed("this phone has no app to share with".into()),
            BridgeEvent::ShareFailed("the share sheet did not open".into()),
        ]
    );
    Ok(())
}

/// As on Android: a photo of a few megabytes, from a decoding thread of Java's own.
fn a_big_photo_crosses_from_a_java_thread(env: &mut Env<'_>, received: &Received) -> TestResult {
    let big: Vec<u8> = (0..3_000_000u32).map(|i| (i % 251) as u8).collect();
    let jpeg = env.byte_array_from_slice(&big)?;
    let name = env.new_string("camera.jpg")?;
    let class = load(env, jni_str!("org.snapslide.test.FakeActivity"));
    env.call_static_method(
        &class,
        jni_str!("photoFromWorker"),
        jni_sig!("([BLjava/lang/String;)V"),
        &[JValue::Object(&jpeg), JValue::Object(&name)],
    )?;
    let photo = BridgeEvent::Photo {
        bytes: big,
        name: "camera.jpg".into(),
    };
    assert_eq!(received.take(), vec![photo]);
    Ok(())
}

#[test]
fn calls_from_rust_reach_the_activity() {
    let _serial = serial();
    let jvm = jvm();
    jvm.vm
        .attach_current_thread(|env| -> Result<(), Box<dyn std::error::Error>> {
            let activity = fake_activity(env);
            let bridge = Bridge::new(jvm.vm.clone(), env.new_global_ref(&*activity)?);
            bridge.pick_photo(Origin::Gallery)?;
            bridge.pick_photo(Origin::Camera)?;
            bridge.haptic(Tap::Slide)?;
            bridge.haptic(Tap::Win)?;
            bridge.share_text("beat me: snapslide://c/7ZX3KQ — é")?;
            bridge.share_file("/data/cache/shared/replay.gif", "image/gif")?;
            let calls = env
                .call_method(
                    &activity,
                    jni_str!("calls"),
                    jni_sig!("()Ljava/lang/String;"),
                    &[],
                )?
                .l()?;
            let calls = env
                .cast_local::<jni::objects::JString>(calls)?
                .try_to_string(env)?;
            assert_eq!(
                calls,
                "pickPhoto:0,pickPhoto:1,haptic:0,haptic:1,\
                 shareText:beat me: snapslide://c/7ZX3KQ — é,\
                 shareFile:/data/cache/shared/replay.gif:image/gif"
            );
            Ok(())
        })
        .expect("the JNI calls succeed");
}

#[test]
fn rust_s_codes_are_java_s_constants() {
    let _serial = serial();
    let jvm = jvm();
    jvm.vm
        .attach_current_thread(|env| -> Result<(), Box<dyn std::error::Error>> {
            let class = load(env, jni_str!("org.snapslide.Bridge"));
            let mut constant = |name: &jni::strings::JNIStr| -> jni::errors::Result<i32> {
                env.get_static_field(&class, name, jni_sig!("I"))?.i()
            };
            assert_eq!(
                constant(jni_str!("ORIGIN_GALLERY"))?,
                Origin::Gallery as i32
            );
            assert_eq!(constant(jni_str!("ORIGIN_CAMERA"))?, Origin::Camera as i32);
            assert_eq!(constant(jni_str!("TAP_SLIDE"))?, Tap::Slide as i32);
            assert_eq!(constant(jni_str!("TAP_WIN"))?, Tap::Win as i32);
            Ok(())
        })
        .expect("the JNI calls succeed");
}

#[test]
fn photos_are_scaled_to_what_the_board_needs() {
    let _serial = serial();
    let jvm = jvm();
    jvm.vm
        .attach_current_thread(|env| -> Result<(), Box<dyn std::error::Error>> {
            let class = load(env, jni_str!("org.snapslide.PhotoSize"));
            let mut sample = |w: i32, h: i32| -> jni::errors::Result<i32> {
                let args = [JValue::Int(w), JValue::Int(h), JValue::Int(2048)];
                env.call_static_method(&class, jni_str!("sampleSize"), jni_sig!("(III)I"), &args)?
                    .i()
            };
            assert_eq!(sample(4032, 3024)?, 1, "12 MP: decoded whole, then scaled");
            assert_eq!(sample(8160, 6120)?, 2, "50 MP: decoded at half size");
            assert_eq!(sample(3024, 16384)?, 8, "a panorama, by its long side");
            assert_eq!(sample(800, 600)?, 1);
            assert_eq!(sample(0, 600)?, 1, "a bad size decodes whole");
            let class = load(env, jni_str!("org.snapslide.PhotoSize"));
            let mut scaled = |w: i32, h: i32| -> jni::errors::Result<(i32, i32)> {
                let args = [JValue::Int(w), JValue::Int(h), JValue::Int(2048)];
                let array = env
                    .call_static_method(&class, jni_str!("scaledSize"), jni_sig!("(III)[I"), &args)?
                    .l()?;
                let array = env.cast_local::<jni::objects::JIntArray>(array)?;
                let mut size = [0; 2];
                array.get_region(env, 0, &mut size)?;
                Ok((size[0], size[1]))
            };
            assert_eq!(scaled(4032, 3024)?, (2048, 1536));
            assert_eq!(scaled(3024, 4032)?, (1536, 2048));
            assert_eq!(scaled(800, 600)?, (800, 600), "never enlarged");
            let class = load(env, jni_str!("org.snapslide.PhotoSize"));
            let rotation = |env: &mut Env<'_>, o: i32| -> jni::errors::Result<i32> {
                env.call_static_method(
                    &class,
                    jni_str!("exifRotation"),
                    jni_sig!("(I)I"),
                    &[JValue::Int(o)],
                )?
                .i()
            };
            let turns: Vec<i32> = (0..=9)
                .map(|o| rotation(env, o))
                .collect::<Result<_, _>>()?;
            assert_eq!(turns, [0, 0, 0, 180, 180, 270, 90, 90, 270, 0]);
            let class = load(env, jni_str!("org.snapslide.PhotoSize"));
            let mirrored = |env: &mut Env<'_>, o: i32| -> jni::errors::Result<bool> {
                let args = [JValue::Int(o)];
                env.call_static_method(&class, jni_str!("exifMirrored"), jni_sig!("(I)Z"), &args)?
                    .z()
            };
            let flips: Vec<bool> = (0..=9)
                .map(|o| mirrored(env, o))
                .collect::<Result<_, _>>()?;
            let expected = [
                false, false, true, false, true, true, false, true, false, false,
            ];
            assert_eq!(flips, expected);
            Ok(())
        })
        .expect("the JNI calls succeed");
}

/// `-Xcheck:jni` prints its warnings rather than failing: run the JVM tests again in a child
/// process and fail on any.
#[test]
fn xcheck_jni_finds_nothing_to_report() {
    let tests = [
        "events_cross_from_java_to_rust",
        "calls_from_rust_reach_the_activity",
        "rust_s_codes_are_java_s_constants",
        "photos_are_scaled_to_what_the_board_needs",
    ];
    let out = Command::new(std::env::current_exe().expect("the test binary"))
        .env(CLASSES_ENV, classes())
        .args(tests)
        .args(["--exact", "--test-threads=1", "--nocapture"])
        .output()
        .expect("the test binary runs again");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success(),
        "the JVM tests failed in the child:\n{text}"
    );
    assert!(
        text.contains(&format!("{} passed", tests.len())),
        "the child did not run them all:\n{text}"
    );
    for alarm in ["WARNING in native method", "FATAL ERROR in native method"] {
        assert!(!text.contains(alarm), "-Xcheck:jni reported:\n{text}");
    }
}
