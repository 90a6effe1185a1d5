//! iOS: PHPicker for the gallery (no library permission), UIImagePickerController for the
//! camera (`NSCameraUsageDescription` in `ios/Snapslide/Info.plist`), haptics, the safe area,
//! the text size and Reduce Motion, the data folder, the share sheet (UIActivityViewController,
//! for text and for a file) and challenge links (the `snapslide` scheme in Info.plist's
//! `CFBundleURLTypes`), through UIKit with the objc2 0.6 crates.
//!
//! Links: winit 0.30 hands `UIApplicationMain` no delegate class and listens to UIKit's
//! notifications instead, so the app has no delegate to be told of a URL. At launch (UIKit's
//! `UIApplicationDidFinishLaunchingNotification`, observed from the plugin, before UIKit starts)
//! the link the app was launched with is read from the launch options, and a delegate of ours
//! that answers only `application:openURL:options:` is set, for the links tapped while the
//! game runs. [`LaunchLinks`] takes the launch's link once if UIKit hands it both ways.
//!
//! Written against the sources of objc2 0.6.5, objc2-ui-kit, objc2-foundation and
//! objc2-photos-ui 0.3.2. `make phone-check` type-checks it with clippy against Linux builds
//! of those crates (no Apple SDK or iOS target for rustc here); it is not linked or run.
//!
//! UIKit wants the main thread: requests from Bevy's systems hop to the main queue. One
//! picker shows at a time (a second pick is refused while it does, see
//! [`PickerSlot`](super::picker_slot::PickerSlot)). A chosen photo is decoded by UIKit (HEIC
//! too), made upright and scaled to at most [`MAX_SIDE`] pixels, and handed over as JPEG (the
//! `image` crate has no HEIC decoder), off the main thread.

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::ptr::NonNull;

use bevy::ecs::system::NonSendMarker;
use bevy::prelude::*;
use block2::{Block, RcBlock};
use dispatch2::{DispatchQoS, DispatchQueue, GlobalQueueIdentifier};
use objc2::rc::Retained;
use objc2::runtime::{AnyObject, NSObject, NSObjectProtocol, ProtocolObject};
use objc2::{
    AnyThread, DefinedClass, MainThreadMarker, MainThreadOnly, Message, define_class, extern_class,
    extern_methods, extern_protocol, msg_send,
};
use objc2_core_foundation::{CGFloat, CGPoint, CGRect, CGSize};
use objc2_foundation::{
    NSArray, NSData, NSDictionary, NSError, NSFileManager, NSNotification, NSNotificationCenter,
    NSNotificationName, NSSearchPathDirectory, NSSearchPathDomainMask, NSString, NSURL, ns_string,
};
use objc2_photos_ui::{PHPickerConfiguration, PHPickerFilter, PHPickerResult};
use objc2_ui_kit::{
    UIAccessibilityIsReduceMotionEnabled, UIApplication, UIApplicationDelegate,
    UIApplicationDidBecomeActiveNotification, UIApplicationDidFinishLaunchingNotification,
    UIContentSizeCategory, UIContentSizeCategoryAccessibilityExtraExtraExtraLarge,
    UIContentSizeCategoryAccessibilityExtraExtraLarge,
    UIContentSizeCategoryAccessibilityExtraLarge, UIContentSizeCategoryAccessibilityLarge,
    UIContentSizeCategoryAccessibilityMedium, UIContentSizeCategoryExtraExtraExtraLarge,
    UIContentSizeCategoryExtraExtraLarge, UIContentSizeCategoryExtraLarge,
    UIContentSizeCategoryExtraSmall, UIContentSizeCategoryLarge, UIContentSizeCategoryMedium,
    UIContentSizeCategorySmall, UIGraphicsImageRenderer, UIGraphicsImageRendererContext,
    UIGraphicsImageRendererFormat, UIImage, UIImagePickerController,
    UIImagePickerControllerDelegate, UIImagePickerControllerInfoKey,
    UIImagePickerControllerOriginalImage, UIImagePickerControllerSourceType,
    UIImpactFeedbackGenerator, UIImpactFeedbackStyle, UINavigationControllerDelegate,
    UINotificationFeedbackGenerator, UINotificationFeedbackType, UIResponder, UIView,
    UIViewController,
};

// Deprecated for apps with scenes; winit 0.30 makes none, so UIKit hands the app its launch
// options and calls the app delegate's application:openURL:options:.
#[allow(deprecated)]
use objc2_ui_kit::UIApplicationLaunchOptionsURLKey;

use super::content_size::ContentSize;
use super::links::LaunchLinks;
use super::picker_slot::PickerSlot;
use super::{Haptic, Inbox, Platform, PlatformEvent, PlatformHandle};
use super::{SafeArea, SystemPreferences};
use crate::frame::AppSet;
use crate::messages::PhotoOrigin;

/// The long side of the photo handed to the game, in pixels.
const MAX_SIDE: CGFloat = 2048.0;
const JPEG_QUALITY: CGFloat = 0.9;

/// The iOS platform.
pub struct Ios {
    /// Where a share sheet that cannot be shown is told.
    inbox: Inbox,
}

impl Platform for Ios {
    fn photo_origins(&self) -> &'static [PhotoOrigin] {
        &[PhotoOrigin::Gallery, PhotoOrigin::Camera]
    }

    /// Shows the picker or the camera; refused (with no answer: the picker on screen gives
    /// one) while a picker shows.
    fn pick_photo(&self, origin: PhotoOrigin, inbox: Inbox) {
        on_main(move |mtm| {
            if picker_showing() {
                warn!("a photo picker is already showing: this request is ignored");
                return;
            }
            let shown = match origin {
                PhotoOrigin::Gallery => show_gallery(mtm, inbox.clone()),
                PhotoOrigin::Camera => show_camera(mtm, inbox.clone()),
            };
            if let Err(why) = shown {
                inbox.push(PlatformEvent::PhotoFailed(why.into()));
            }
        });
    }

    fn haptic(&self, haptic: Haptic) {
        on_main(move |mtm| tap(mtm, haptic));
    }

    /// The text size (Dynamic Type) and Reduce Motion, read on the main thread.
    fn ask_preferences(&self, inbox: Inbox) {
        on_main(move |mtm| inbox.push(PlatformEvent::Preferences(preferences(mtm))));
    }

    /// The share sheet, shown on the main thread (a failure there is told in the inbox).
    fn share_text(&self, text: &str) -> Result<(), String> {
        let text = text.to_owned();
        share_on_main(self.inbox.clone(), move |mtm| {
            show_share_sheet(mtm, &NSString::from_str(&text))
        });
        Ok(())
    }

    fn shares_by_sheet(&self) -> bool {
        true
    }

    /// The share sheet for the file's URL (UIKit tells its type by its extension; `mime` is
    /// not needed).
    fn share_file(&self, path: &Path, _mime: &str) -> Result<(), String> {
        if !path.is_file() {
            return Err(format!("{} is missing", path.display()));
        }
        let path = path
            .to_str()
            .ok_or("the file's name cannot be handed to iOS")?
            .to_owned();
        share_on_main(self.inbox.clone(), move |mtm| {
            show_share_sheet(mtm, &NSURL::fileURLWithPath(&NSString::from_str(&path)))
        });
        Ok(())
    }
}

pub(super) fn plugin(app: &mut App) {
    let inbox = Inbox::clone(&app.world_mut().get_resource_or_init::<Inbox>());
    watch_links(inbox.clone());
    app.insert_resource(PlatformHandle(Box::new(Ios { inbox })))
        .add_systems(Update, safe_area.in_set(AppSet::Input));
}

/// Application Support, as Foundation names it (inside the app's sandbox).
pub(super) fn data_dir() -> Option<PathBuf> {
    user_directory(NSSearchPathDirectory::ApplicationSupportDirectory)
}

/// The app's Caches folder (the system may empty it; the solver's tables are rebuilt then).
pub(super) fn cache_dir() -> Option<PathBuf> {
    user_directory(NSSearchPathDirectory::CachesDirectory)
}

fn user_directory(directory: NSSearchPathDirectory) -> Option<PathBuf> {
    let urls = NSFileManager::defaultManager()
        .URLsForDirectory_inDomains(directory, NSSearchPathDomainMask::UserDomainMask);
    let path = urls.firstObject()?.path()?;
    Some(PathBuf::from(path.to_string()))
}

/// Runs `work` on a background queue: what would stall the main thread.
fn off_main(work: impl FnOnce() + Send + 'static) {
    DispatchQueue::global_queue(GlobalQueueIdentifier::QualityOfService(
        DispatchQoS::UserInitiated,
    ))
    .exec_async(work);
}

/// Runs `work` on the main thread, where UIKit lives.
fn on_main(work: impl FnOnce(MainThreadMarker) + Send + 'static) {
    DispatchQueue::main().exec_async(move || match MainThreadMarker::new() {
        Some(mtm) => work(mtm),
        None => warn!("the main queue ran off the main thread"),
    });
}

/// The view controller on top, to present the picker or the camera from.
fn top_view_controller(mtm: MainThreadMarker) -> Option<Retained<UIViewController>> {
    #[allow(deprecated)] // winit's app has one window in one scene
    let window = UIApplication::sharedApplication(mtm).keyWindow()?;
    let mut top = window.rootViewController()?;
    while let Some(presented) = top.presentedViewController() {
        top = presented;
    }
    Some(top)
}

/// A picker presented, and the delegate that answers it (UIKit holds delegates weakly).
struct Shown {
    picker: Retained<UIViewController>,
    _delegate: Retained<NSObject>,
}

thread_local! {
    /// The picker on screen, or the last one (main thread only).
    static PICKER: RefCell<PickerSlot<Shown>> = RefCell::new(PickerSlot::default());
}

/// Whether the picker is still presented (it can leave without its callback).
fn on_screen(shown: &Shown) -> bool {
    shown.picker.presentingViewController().is_some()
}

fn picker_showing() -> bool {
    PICKER.with(|slot| slot.borrow().is_showing(on_screen))
}

/// Keeps the picker about to be presented and its delegate; the last ones are let go here,
/// outside their callbacks.
fn keep_picker(
    picker: &UIViewController,
    delegate: Retained<NSObject>,
) -> Result<(), &'static str> {
    let shown = Shown {
        picker: picker.retain(),
        _delegate: delegate,
    };
    PICKER
        .with(|slot| slot.borrow_mut().show(shown, on_screen))
        .map_err(|_refused| "a photo picker is already showing")
}

/// The picker's delegate answered: a new pick may start. The delegate stays alive (it is
/// running this) until the next picker replaces it.
fn picker_finished() {
    PICKER.with(|slot| slot.borrow_mut().finish());
}

fn tap(mtm: MainThreadMarker, haptic: Haptic) {
    match haptic {
        Haptic::Slide => {
            #[allow(deprecated)] // initWithStyle:view: is iOS 17+; the target is iOS 15
            let generator = UIImpactFeedbackGenerator::initWithStyle(
                UIImpactFeedbackGenerator::alloc(mtm),
                UIImpactFeedbackStyle::Light,
            );
            generator.impactOccurred();
        }
        Haptic::Win => {
            let generator = UINotificationFeedbackGenerator::new(mtm);
            generator.notificationOccurred(UINotificationFeedbackType::Success);
        }
    }
}

/// The player's text size (Settings → Display & Brightness → Text Size, or Accessibility →
/// Larger Text) and Reduce Motion (Accessibility → Motion).
fn preferences(mtm: MainThreadMarker) -> SystemPreferences {
    let category = UIApplication::sharedApplication(mtm).preferredContentSizeCategory();
    SystemPreferences {
        font_scale: content_size(&category).map(ContentSize::font_scale),
        reduce_motion: Some(UIAccessibilityIsReduceMotionEnabled()),
    }
}

/// UIKit's category as a [`ContentSize`]; `None` for Unspecified or a category this code does
/// not know.
fn content_size(category: &UIContentSizeCategory) -> Option<ContentSize> {
    // SAFETY: UIKit's constants, set when UIKit loads and never changed.
    let known: [(&UIContentSizeCategory, ContentSize); 12] = unsafe {
        [
            (UIContentSizeCategoryExtraSmall, ContentSize::ExtraSmall),
            (UIContentSizeCategorySmall, ContentSize::Small),
            (UIContentSizeCategoryMedium, ContentSize::Medium),
            (UIContentSizeCategoryLarge, ContentSize::Large),
            (UIContentSizeCategoryExtraLarge, ContentSize::ExtraLarge),
            (
                UIContentSizeCategoryExtraExtraLarge,
                ContentSize::ExtraExtraLarge,
            ),
            (
                UIContentSizeCategoryExtraExtraExtraLarge,
                ContentSize::ExtraExtraExtraLarge,
            ),
            (
                UIContentSizeCategoryAccessibilityMedium,
                ContentSize::AccessibilityMedium,
            ),
            (
                UIContentSizeCategoryAccessibilityLarge,
                ContentSize::AccessibilityLarge,
            ),
            (
                UIContentSizeCategoryAccessibilityExtraLarge,
                ContentSize::AccessibilityExtraLarge,
            ),
            (
                UIContentSizeCategoryAccessibilityExtraExtraLarge,
                ContentSize::AccessibilityExtraExtraLarge,
            ),
            (
                UIContentSizeCategoryAccessibilityExtraExtraExtraLarge,
                ContentSize::AccessibilityExtraExtraExtraLarge,
            ),
        ]
    };
    known
        .into_iter()
        .find(|(name, _)| category.isEqualToString(name))
        .map(|(_, size)| size)
}

/// Hands the app the safe area (points are logical pixels) whenever it changes.
fn safe_area(_main_thread: NonSendMarker, inbox: Res<Inbox>, mut sent: Local<Option<SafeArea>>) {
    let Some(mtm) = MainThreadMarker::new() else {
        return;
    };
    #[allow(deprecated)] // winit's app has one window in one scene
    let Some(window) = UIApplication::sharedApplication(mtm).keyWindow() else {
        return;
    };
    let insets = window.safeAreaInsets();
    let area = SafeArea {
        top: insets.top as f32,
        right: insets.right as f32,
        bottom: insets.bottom as f32,
        left: insets.left as f32,
    };
    if *sent != Some(area) {
        *sent = Some(area);
        inbox.push(PlatformEvent::SafeArea(area));
    }
}

// ---- Photos: made upright, scaled and encoded, on any thread ----

/// The size to draw a photo at: its shape, the long side at most [`MAX_SIDE`].
fn target_size(size: CGSize) -> Option<CGSize> {
    if !(size.width > 0.0 && size.height > 0.0) {
        return None;
    }
    let scale = (MAX_SIDE / size.width.max(size.height)).min(1.0);
    Some(CGSize::new(
        (size.width * scale).round().max(1.0),
        (size.height * scale).round().max(1.0),
    ))
}

/// The photo, upright (its orientation drawn in), scaled down and encoded as JPEG.
fn upright_jpeg(image: &UIImage) -> Option<Vec<u8>> {
    // SAFETY: this image is used by one thread at a time.
    let size = target_size(unsafe { image.size() })?;
    // A thumbnail decodes at the size drawn, not at the camera's 12 to 48 megapixels.
    // SAFETY: UIImage's imageByPreparingThumbnailOfSize: (iOS 15) takes a CGSize and returns
    // a new image or nil, which the Option receives; the image is alive for the call.
    let thumbnail: Option<Retained<UIImage>> =
        unsafe { msg_send![image, imageByPreparingThumbnailOfSize: size] };
    let source = thumbnail.unwrap_or_else(|| image.retain());
    let format = UIGraphicsImageRendererFormat::new();
    format.setScale(1.0);
    format.setOpaque(true);
    let renderer = UIGraphicsImageRenderer::initWithSize_format(
        UIGraphicsImageRenderer::alloc(),
        size,
        &format,
    );
    let draw = RcBlock::new(move |_context: NonNull<UIGraphicsImageRendererContext>| {
        source.drawInRect(CGRect::new(CGPoint::new(0.0, 0.0), size));
    });
    // SAFETY: the block outlives the call, which runs it before returning.
    let jpeg = unsafe {
        renderer.JPEGDataWithCompressionQuality_actions(JPEG_QUALITY, RcBlock::as_ptr(&draw))
    };
    Some(jpeg.to_vec())
}

fn photo_event(image: Option<&UIImage>, name: &str) -> PlatformEvent {
    match image.and_then(upright_jpeg) {
        Some(bytes) => PlatformEvent::Photo {
            bytes,
            name: name.into(),
        },
        None => PlatformEvent::PhotoFailed("the photo could not be read".into()),
    }
}

// ---- The gallery: PHPickerViewController ----

extern_class!(
    /// PhotosUI's picker. objc2-photos-ui 0.3 declares it for macOS only; on iOS it is a
    /// UIViewController.
    #[unsafe(super(UIViewController, UIResponder, NSObject))]
    #[thread_kind = MainThreadOnly]
    #[name = "PHPickerViewController"]
    struct PickerController;
);

impl PickerController {
    extern_methods!(
        #[unsafe(method(initWithConfiguration:))]
        #[unsafe(method_family = init)]
        fn init_with_configuration(
            this: objc2::rc::Allocated<Self>,
            configuration: &PHPickerConfiguration,
        ) -> Retained<Self>;

        #[unsafe(method(setDelegate:))]
        #[unsafe(method_family = none)]
        unsafe fn set_delegate(&self, delegate: Option<&AnyObject>);
    );
}

extern_protocol!(
    /// PhotosUI's delegate protocol, as on iOS (objc2-photos-ui 0.3 declares its method for
    /// macOS only). The Rust names are free; the selectors are Objective-C's.
    ///
    /// # Safety
    ///
    /// An implementor must be an Objective-C object answering `picker:didFinishPicking:` with
    /// these argument types; PhotosUI calls it on the main thread.
    // Clippy does not read doc comments that a macro from another crate re-emits, so it
    // cannot see the section above.
    #[expect(
        clippy::missing_safety_doc,
        reason = "the # Safety section is there; clippy skips docs re-emitted by objc2's macro"
    )]
    #[name = "PHPickerViewControllerDelegate"]
    unsafe trait PickerDelegate: NSObjectProtocol + MainThreadOnly {
        #[unsafe(method(picker:didFinishPicking:))]
        #[unsafe(method_family = none)]
        fn picker_did_finish_picking(
            &self,
            picker: &PickerController,
            results: &NSArray<PHPickerResult>,
        );
    }
);

define_class!(
    // SAFETY: NSObject has no subclassing requirements; GalleryDelegate has no Drop.
    #[unsafe(super(NSObject))]
    #[thread_kind = MainThreadOnly]
    #[ivars = Inbox]
    struct GalleryDelegate;

    unsafe impl NSObjectProtocol for GalleryDelegate {}

    unsafe impl PickerDelegate for GalleryDelegate {
        #[unsafe(method(picker:didFinishPicking:))]
        fn picker_did_finish_picking(
            &self,
            picker: &PickerController,
            results: &NSArray<PHPickerResult>,
        ) {
            picker.dismissViewControllerAnimated_completion(true, None);
            let inbox = self.ivars().clone();
            match results.firstObject() {
                Some(result) => load_picked(&result, inbox),
                None => inbox.push(PlatformEvent::PhotoCancelled),
            }
            picker_finished();
        }
    }
);

fn show_gallery(mtm: MainThreadMarker, inbox: Inbox) -> Result<(), &'static str> {
    let top = top_view_controller(mtm).ok_or("the game's window is not ready")?;
    // SAFETY: plain property setters of a fresh configuration.
    let configuration = unsafe {
        let configuration = PHPickerConfiguration::new();
        configuration.setFilter(Some(&PHPickerFilter::imagesFilter()));
        configuration.setSelectionLimit(1);
        configuration
    };
    let picker =
        PickerController::init_with_configuration(PickerController::alloc(mtm), &configuration);
    let delegate = GalleryDelegate::alloc(mtm).set_ivars(inbox);
    // SAFETY: NSObject's init on a freshly allocated instance whose ivars are set, as objc2's
    // define_class! requires before a class is used.
    let delegate: Retained<GalleryDelegate> = unsafe { msg_send![super(delegate), init] };
    let object: &AnyObject = &delegate;
    // SAFETY: the delegate answers picker:didFinishPicking: and is kept alive below.
    unsafe { picker.set_delegate(Some(object)) };
    keep_picker(&picker, Retained::into_super(delegate))?;
    top.presentViewController_animated_completion(&picker, true, None);
    Ok(())
}

/// Loads the picked photo's data (off the main thread) and hands it over.
fn load_picked(result: &PHPickerResult, inbox: Inbox) {
    // SAFETY: a result's item provider is valid while the result is.
    let provider = unsafe { result.itemProvider() };
    let handler = RcBlock::new(move |data: *mut NSData, _error: *mut NSError| {
        // SAFETY: the data, if any, is valid while the handler runs.
        let image = unsafe { data.as_ref() }.and_then(UIImage::imageWithData);
        inbox.push(photo_event(image.as_deref(), "Photo"));
    });
    // SAFETY: the handler only touches the inbox (Send) and objects it creates.
    let _progress = unsafe {
        provider.loadDataRepresentationForTypeIdentifier_completionHandler(
            ns_string!("public.image"),
            &handler,
        )
    };
}

// ---- The camera: UIImagePickerController ----

define_class!(
    // SAFETY: NSObject has no subclassing requirements; CameraDelegate has no Drop.
    #[unsafe(super(NSObject))]
    #[thread_kind = MainThreadOnly]
    #[ivars = Inbox]
    struct CameraDelegate;

    unsafe impl NSObjectProtocol for CameraDelegate {}

    unsafe impl UINavigationControllerDelegate for CameraDelegate {}

    unsafe impl UIImagePickerControllerDelegate for CameraDelegate {
        #[unsafe(method(imagePickerController:didFinishPickingMediaWithInfo:))]
        unsafe fn image_picker_controller_did_finish_picking_media_with_info(
            &self,
            picker: &UIImagePickerController,
            info: &NSDictionary<UIImagePickerControllerInfoKey, AnyObject>,
        ) {
            picker.dismissViewControllerAnimated_completion(true, None);
            // SAFETY: a UIKit constant.
            let key = unsafe { UIImagePickerControllerOriginalImage };
            let image = info
                .objectForKey(key)
                .and_then(|object| object.downcast::<UIImage>().ok());
            let inbox = self.ivars().clone();
            // A 12 to 48 megapixel photo takes a visible while to thumbnail, draw and encode:
            // off the main thread, as the gallery's photo (which arrives on a background queue).
            off_main(move || inbox.push(photo_event(image.as_deref(), "Camera photo")));
            picker_finished();
        }

        #[unsafe(method(imagePickerControllerDidCancel:))]
        fn image_picker_controller_did_cancel(&self, picker: &UIImagePickerController) {
            picker.dismissViewControllerAnimated_completion(true, None);
            self.ivars().push(PlatformEvent::PhotoCancelled);
            picker_finished();
        }
    }
);

fn show_camera(mtm: MainThreadMarker, inbox: Inbox) -> Result<(), &'static str> {
    let camera = UIImagePickerControllerSourceType::Camera;
    if !UIImagePickerController::isSourceTypeAvailable(camera, mtm) {
        return Err("this device has no camera");
    }
    let top = top_view_controller(mtm).ok_or("the game's window is not ready")?;
    let picker = UIImagePickerController::new(mtm);
    picker.setSourceType(camera);
    let delegate = CameraDelegate::alloc(mtm).set_ivars(inbox);
    // SAFETY: NSObject's init on a freshly allocated instance whose ivars are set, as objc2's
    // define_class! requires before a class is used.
    let delegate: Retained<CameraDelegate> = unsafe { msg_send![super(delegate), init] };
    let object: &AnyObject = &delegate;
    // SAFETY: the delegate is a UIImagePickerControllerDelegate and a
    // UINavigationControllerDelegate, kept alive below.
    unsafe { picker.setDelegate(Some(object)) };
    keep_picker(&picker, Retained::into_super(delegate))?;
    top.presentViewController_animated_completion(&picker, true, None);
    Ok(())
}

// ---- The share sheet: UIActivityViewController ----

extern_class!(
    /// UIKit's share sheet, with the one initializer used (objc2-ui-kit's
    /// `UIActivityViewController` feature is not turned on).
    #[unsafe(super(UIViewController, UIResponder, NSObject))]
    #[thread_kind = MainThreadOnly]
    #[name = "UIActivityViewController"]
    struct ShareSheet;
);

impl ShareSheet {
    extern_methods!(
        #[unsafe(method(initWithActivityItems:applicationActivities:))]
        #[unsafe(method_family = init)]
        fn init_with_activity_items(
            this: objc2::rc::Allocated<Self>,
            items: &NSArray<AnyObject>,
            activities: Option<&NSArray<AnyObject>>,
        ) -> Retained<Self>;
    );
}

/// Shows a share sheet on the main thread; why it could not is told in the inbox.
fn share_on_main(
    inbox: Inbox,
    show: impl FnOnce(MainThreadMarker) -> Result<(), &'static str> + Send + 'static,
) {
    on_main(move |mtm| {
        if let Err(why) = show(mtm) {
            inbox.push(PlatformEvent::ShareFailed(why.into()));
        }
    });
}

/// Presents the share sheet for `item` (an `NSString`, or a file's `NSURL`) over the game.
fn show_share_sheet(mtm: MainThreadMarker, item: &AnyObject) -> Result<(), &'static str> {
    let top = top_view_controller(mtm).ok_or("the game's window is not ready")?;
    let items = NSArray::from_slice(&[item]);
    let sheet = ShareSheet::init_with_activity_items(ShareSheet::alloc(mtm), &items, None);
    if let Some(view) = top.view() {
        point_popover_at(&sheet, &view);
    }
    top.presentViewController_animated_completion(&sheet, true, None);
    Ok(())
}

/// On an iPad the sheet is a popover, which must point somewhere (UIKit raises an exception
/// otherwise): the middle of the game's view, with no arrow. An iPhone's sheet has no popover.
fn point_popover_at(sheet: &ShareSheet, view: &UIView) {
    // SAFETY: UIViewController's popoverPresentationController returns its
    // UIPopoverPresentationController, or nil (declared here: objc2-ui-kit's needs a feature
    // that is not turned on).
    let popover: Option<Retained<AnyObject>> =
        unsafe { msg_send![sheet, popoverPresentationController] };
    let Some(popover) = popover else {
        return;
    };
    let bounds = view.bounds();
    let middle = CGRect::new(
        CGPoint::new(bounds.size.width / 2.0, bounds.size.height / 2.0),
        CGSize::new(0.0, 0.0),
    );
    // SAFETY: UIPopoverPresentationController's setters of a UIView, a CGRect and a
    // UIPopoverArrowDirection (an NSUInteger; 0 is no arrow), on the main thread.
    unsafe {
        let () = msg_send![&popover, setSourceView: view];
        let () = msg_send![&popover, setSourceRect: middle];
        let () = msg_send![&popover, setPermittedArrowDirections: 0usize];
    }
}

// ---- Challenge links: snapslide://c/CODE ----

define_class!(
    // SAFETY: NSObject has no subclassing requirements; LinkDelegate has no Drop.
    #[unsafe(super(NSObject))]
    #[thread_kind = MainThreadOnly]
    #[name = "SnapslideLinkDelegate"]
    #[ivars = Inbox]
    struct LinkDelegate;

    unsafe impl NSObjectProtocol for LinkDelegate {}

    unsafe impl UIApplicationDelegate for LinkDelegate {
        /// A link tapped while the app runs (or, perhaps, the one it launched with); whether
        /// it was taken. (The options' keys are UIApplicationOpenURLOptionsKey, an NSString.)
        #[unsafe(method(application:openURL:options:))]
        fn application_open_url_options(
            &self,
            _application: &UIApplication,
            url: &NSURL,
            _options: &NSDictionary<NSString, AnyObject>,
        ) -> bool {
            url_opened(url, self.ivars())
        }
    }
);

/// What the links keep on the main thread: the launch's gate, the delegate (UIApplication
/// holds it unretained) and the notification observers.
#[derive(Default)]
struct Links {
    gate: LaunchLinks,
    delegate: Option<Retained<LinkDelegate>>,
    observers: Vec<Retained<AnyObject>>,
}

thread_local! {
    /// The links' state (main thread only).
    static LINKS: RefCell<Links> = RefCell::new(Links::default());
}

/// Observes the launch and the app becoming active (from the plugin, on the main thread,
/// before `UIApplicationMain` runs).
fn watch_links(inbox: Inbox) {
    if MainThreadMarker::new().is_none() {
        warn!("the app was not built on the main thread: challenge links are not heard");
        return;
    }
    let launched = RcBlock::new(move |notification: NonNull<NSNotification>| {
        // UIKit posts UIApplication's notifications on the main thread.
        let Some(mtm) = MainThreadMarker::new() else {
            return;
        };
        // SAFETY: the notification is alive while its observer runs.
        let notification = unsafe { notification.as_ref() };
        app_launched(mtm, notification, &inbox);
    });
    let active = RcBlock::new(|_: NonNull<NSNotification>| {
        LINKS.with(|links| links.borrow_mut().gate.became_active());
    });
    // SAFETY: UIKit's constants.
    let (launch, activate) = unsafe {
        (
            UIApplicationDidFinishLaunchingNotification,
            UIApplicationDidBecomeActiveNotification,
        )
    };
    let observers = [observe(launch, &launched), observe(activate, &active)];
    LINKS.with(|links| links.borrow_mut().observers.extend(observers));
}

/// Runs `handler` on the posting thread (the main thread, for UIApplication's notifications)
/// each time the named notification is posted; the observer returned must be kept.
fn observe(
    name: &NSNotificationName,
    handler: &Block<dyn Fn(NonNull<NSNotification>)>,
) -> Retained<AnyObject> {
    let center = NSNotificationCenter::defaultCenter();
    // SAFETY: addObserverForName:object:queue:usingBlock: (sent here: objc2-foundation's
    // declaration needs its NSOperation feature) takes a name, nil for any sender, nil for the
    // posting thread and a block, which it copies; it returns the observer.
    unsafe {
        msg_send![
            &center,
            addObserverForName: name,
            object: None::<&AnyObject>,
            queue: None::<&AnyObject>,
            usingBlock: handler
        ]
    }
}

/// The app finished launching: the link it was launched with, if any, is handed on, and the
/// delegate that hears the next links is set.
fn app_launched(mtm: MainThreadMarker, notification: &NSNotification, inbox: &Inbox) {
    let url = launch_url(notification);
    if let Some(event) = LINKS.with(|links| links.borrow_mut().gate.launched(url.as_deref())) {
        inbox.push(event);
    }
    set_link_delegate(mtm, inbox);
}

/// The URL in the launch options (`UIApplicationLaunchOptionsURLKey` of the notification's
/// user info), as text.
fn launch_url(notification: &NSNotification) -> Option<String> {
    let options = notification.userInfo()?;
    // SAFETY: a UIKit constant. (Deprecated for scenes; winit 0.30's app has none.)
    #[allow(deprecated)]
    let key: &AnyObject = unsafe { UIApplicationLaunchOptionsURLKey };
    let url = options.objectForKey(key)?.downcast::<NSURL>().ok()?;
    url_text(&url)
}

/// Hands on a link the system opened the app with, unless it is the launch's again; whether
/// the URL could be read.
fn url_opened(url: &NSURL, inbox: &Inbox) -> bool {
    let Some(text) = url_text(url) else {
        return false;
    };
    if let Some(event) = LINKS.with(|links| links.borrow_mut().gate.opened(&text)) {
        inbox.push(event);
    }
    true
}

fn url_text(url: &NSURL) -> Option<String> {
    Some(url.absoluteString()?.to_string())
}

/// Makes our [`LinkDelegate`] the app's delegate (winit leaves it unset), kept in [`LINKS`];
/// if the app has a delegate after all, it is left alone and only the launch's link is heard.
fn set_link_delegate(mtm: MainThreadMarker, inbox: &Inbox) {
    let app = UIApplication::sharedApplication(mtm);
    // SAFETY: the delegate is only asked whether there is one.
    if unsafe { app.delegate() }.is_some() {
        warn!("the app has a delegate already: links tapped while the game runs are not heard");
        return;
    }
    let delegate = LinkDelegate::alloc(mtm).set_ivars(inbox.clone());
    // SAFETY: NSObject's init on a freshly allocated instance whose ivars are set, as objc2's
    // define_class! requires before a class is used.
    let delegate: Retained<LinkDelegate> = unsafe { msg_send![super(delegate), init] };
    // SAFETY: UIApplication holds its delegate unretained; LINKS keeps it for the app's life.
    unsafe { app.setDelegate(Some(ProtocolObject::from_ref(&*delegate))) };
    LINKS.with(|links| links.borrow_mut().delegate = Some(delegate));
}
