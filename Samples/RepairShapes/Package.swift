// swift-tools-version: 6.0
import PackageDescription

// Consumer shapes `inject` rewrote into code that did not compile when this sample was written: the
// build that verifies each write leaves them out, with the compiler's message, and keeps the rest.
let package = Package(
    name: "RepairShapes",
    targets: [
        .target(name: "Depot"),
        .testTarget(name: "DepotTests", dependencies: ["Depot"]),
    ],
    swiftLanguageModes: [.v6]
)
