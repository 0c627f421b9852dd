/// Modules the platform provides: importing one needs no declared dependency, so an import of one is never a finding.
///
/// Where the names come from:
/// - ``toolchain``: the modules a Swift 6 toolchain ships on any platform (its `lib/swift` and `lib/swift/<os>` folders on
///   Linux, and the C libraries each operating system's overlay names), checked against Swift 6.3.1 on Debian.
/// - ``appleSDKs``: the framework and library modules of Apple's iOS, iPadOS, macOS, tvOS, watchOS and visionOS SDKs
///   (Xcode 26), taken from Apple's framework documentation index: each name is the module a Swift file imports.
///   No Apple SDK exists on Linux to list them from, so this list is data to extend: a module missing here is one line,
///   and a team adds its own in components.yaml (`checks.system-modules`).
public enum PlatformModules {
    /// The modules every Swift toolchain ships.
    public static let toolchain: Set<String> = [
        "Swift", "_Concurrency", "_StringProcessing", "_RegexParser", "RegexBuilder", "Observation", "Distributed", "Synchronization",
        "_Differentiation", "_Volatile", "Cxx", "CxxStdlib", "SwiftShims", "SwiftOnoneSupport", "Foundation", "FoundationEssentials",
        "FoundationInternationalization", "FoundationNetworking", "FoundationXML", "CoreFoundation", "_FoundationCShims", "Dispatch",
        "XCTest", "Testing", "Glibc", "SwiftGlibc", "Musl", "Bionic", "Android", "WASILibc", "WinSDK", "ucrt", "CRT", "Darwin",
        "ObjectiveC", "PackageDescription", "PackagePlugin", "CompilerPluginSupport", "XcodeProjectPlugin", "Builtin",
    ]

    /// The modules of Apple's SDKs.
    public static let appleSDKs: Set<String> = [
        // App frameworks and UI
        "UIKit", "AppKit", "Cocoa", "SwiftUI", "SwiftUICore", "WatchKit", "ClockKit", "TVUIKit", "TVServices", "TVMLKit", "CarPlay",
        "WidgetKit", "ActivityKit", "AppIntents", "Intents", "IntentsUI", "TipKit", "Charts", "SwiftData", "Observation", "Combine",
        "UserNotifications", "UserNotificationsUI", "NotificationCenter", "BackgroundTasks", "BackgroundAssets", "ExtensionFoundation",
        "ExtensionKit", "AccessibilityUIServer", "Accessibility", "Symbols", "CoreTransferable", "UniformTypeIdentifiers",
        "LinkPresentation", "QuickLook", "QuickLookThumbnailing", "QuickLookUI", "PDFKit", "PencilKit", "PaperKit", "MessageUI",
        "Messages", "SafariServices", "WebKit", "JavaScriptCore", "BrowserEngineKit", "BrowserEngineCore", "ScreenSaver",
        "PreferencePanes", "InputMethodKit", "FinderSync", "Quartz", "QuartzComposer", "ImageKit", "Automator", "OSAKit",
        "ScriptingBridge", "AppleScriptKit", "AppleScriptObjC", "Carbon", "InstallerPlugins", "GroupActivities", "SharedWithYou",
        "SharedWithYouCore", "DeveloperToolsSupport", "Translation", "FoundationModels", "ImagePlayground", "JournalingSuggestions",
        "WeatherKit", "WorkoutKit", "Cinematic", "CompositorServices", "RealityKit", "RealityFoundation", "Spatial", "ARKit",
        "SceneKit", "SpriteKit", "GameplayKit", "GameKit", "GameController", "GameSave", "ReplayKit", "TabletopKit",
        // Data, system and services
        "Foundation", "CoreFoundation", "CoreData", "CloudKit", "CoreServices", "CoreSpotlight", "MobileCoreServices", "FileProvider",
        "FileProviderUI", "Contacts", "ContactsUI", "EventKit", "EventKitUI", "Photos", "PhotosUI", "AddressBook", "AddressBookUI",
        "Accounts", "Social", "Twitter", "NewsstandKit", "HealthKit", "HealthKitUI", "HomeKit", "ClassKit", "CareKit", "ResearchKit",
        "SensorKit", "CoreMotion", "CoreLocation", "CoreLocationUI", "MapKit", "CoreNFC", "CoreBluetooth", "ExternalAccessory",
        "NearbyInteraction", "WatchConnectivity", "MultipeerConnectivity", "CallKit", "PushKit", "PushToTalk", "LiveCommunicationKit",
        "CoreTelephony", "IdentityLookup", "IdentityLookupUI", "SMS", "PassKit", "StoreKit", "StoreKitTest", "AdSupport", "AdServices",
        "AdAttributionKit", "AppTrackingTransparency", "iAd", "ManagedSettings", "ManagedSettingsUI", "FamilyControls",
        "DeviceActivity", "ScreenTime", "DeviceCheck", "DeviceDiscoveryExtension", "DeviceDiscoveryUI", "ExposureNotification",
        "SafetyKit", "ProximityReader", "RoomPlan", "MatterSupport", "ThreadNetwork", "AccessorySetupKit", "DockKit", "EnergyKit",
        "ContactProvider", "AutomaticAssessmentConfiguration", "BusinessChat", "CryptoTokenKit", "LocalAuthentication",
        "LocalAuthenticationEmbeddedUI", "AuthenticationServices", "Security", "SecurityFoundation", "SecurityInterface", "CryptoKit",
        "DataDetection", "NaturalLanguage", "Speech", "SoundAnalysis", "CoreML", "CreateML", "CreateMLComponents", "Vision",
        "VisionKit", "MLCompute", "MetricKit", "MusicKit", "ShazamKit", "MediaPlayer", "MediaAccessibility",
        "VideoSubscriberAccount", "AVKit", "AVFoundation", "AVFAudio", "AVRouting", "CoreAudio", "CoreAudioKit", "CoreAudioTypes",
        "AudioToolbox", "AudioUnit", "CoreMIDI", "CoreMedia", "CoreMediaIO", "CoreVideo", "MediaToolbox", "MediaExtension",
        "VideoToolbox", "ScreenCaptureKit", "ImageCaptureCore", "ICADevices", "CoreHaptics", "SensitiveContentAnalysis",
        // Graphics
        "CoreGraphics", "CoreImage", "CoreText", "ImageIO", "ColorSync", "QuartzCore", "IOSurface", "Metal", "MetalKit",
        "MetalPerformanceShaders", "MetalPerformanceShadersGraph", "MetalFX", "ModelIO", "GLKit", "OpenGLES", "OpenGL", "GLUT",
        "Accelerate", "vecLib", "vImage", "simd", "Compression", "AppleArchive", "System",
        // Networking and low level
        "Network", "NetworkExtension", "CFNetwork", "SystemConfiguration", "CoreWLAN", "OSLog", "os", "os_log", "XPC", "notify", "asl",
        "ServiceManagement", "SystemExtensions", "EndpointSecurity", "DriverKit", "IOKit", "IOBluetooth", "IOBluetoothUI", "IOUSBHost",
        "DiskArbitration", "Hypervisor", "Virtualization", "vmnet", "Kerberos", "GSS", "LDAP", "OpenDirectory", "Collaboration",
        "DiscRecording", "DiscRecordingUI", "DVDPlayback", "ForceFeedback", "ExecutionPolicy", "LatentSemanticMapping",
        "LightweightCodeRequirements", "SyncServices", "CalendarStore", "Tcl", "Tk", "MachO", "libkern", "zlib", "libxml2", "SQLite3",
        "CommonCrypto", "XCUIAutomation", "MailKit", "Matter", "HomeKitADK",
    ]

    /// Every module the platform provides.
    public static let all: Set<String> = toolchain.union(appleSDKs)
}
