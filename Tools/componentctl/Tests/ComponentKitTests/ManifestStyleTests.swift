import Foundation
import Testing

@testable import ComponentKit

/// A new plain package is written as its repository writes manifests, and only with what its tools version offers.
@Suite struct ManifestStyleTests {
    private func manifest(toolsVersion: String) -> String {
        let style = ManifestStyle(of: [Array("// swift-tools-version:\(toolsVersion)\nimport PackageDescription\n".utf8)])
        return Templates(name: "Pay", scheme: "team", style: style).plain(layer: "core")["Package.swift"] ?? ""
    }

    @Test func aToolsVersionBeforeUpcomingFeaturesGetsAManifestWithoutThem() {
        #expect(manifest(toolsVersion: "5.7").hasPrefix("// swift-tools-version: 5.7\n"))
        #expect(!manifest(toolsVersion: "5.7").contains("enableUpcomingFeature"), "tools 5.7 has no enableUpcomingFeature")
        #expect(manifest(toolsVersion: "5.8").contains(".enableUpcomingFeature(\"InternalImportsByDefault\")"))
        #expect(manifest(toolsVersion: "6.0").hasSuffix("}\n"))
        #expect(manifest(toolsVersion: "5.3").hasPrefix("// swift-tools-version:5.3\n"), "no space before a version below 5.4")
    }
}
