// swift-tools-version:6.1
import PackageDescription

let package = Package(
  name: "desingleton",
  platforms: [.macOS(.v13)],
  products: [
    .executable(name: "desingleton", targets: ["desingleton"]),
    .library(name: "DesingletonKit", targets: ["DesingletonIndex", "DesingletonPlanner", "DesingletonPrinter"]),
    .plugin(name: "Desingleton", targets: ["Desingleton"]),
  ],
  dependencies: [
    .package(url: "https://github.com/swiftlang/swift-syntax.git", exact: "603.0.1"),
    .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.0"),
  ],
  targets: [
    // Shared vocabulary: source files, locations, diagnostics, edits, plans.
    .target(name: "DesingletonCore"),
    // Parser stage: load files, parse, build the index.
    .target(
      name: "DesingletonIndex",
      dependencies: [
        "DesingletonCore",
        .product(name: "SwiftSyntax", package: "swift-syntax"),
        .product(name: "SwiftParser", package: "swift-syntax"),
        .product(name: "SwiftParserDiagnostics", package: "swift-syntax"),
      ]
    ),
    // Planner stage: pure functions from an index and options to a plan or a refusal.
    .target(
      name: "DesingletonPlanner",
      dependencies: [
        "DesingletonCore",
        "DesingletonIndex",
        .product(name: "SwiftSyntax", package: "swift-syntax"),
        .product(name: "SwiftParser", package: "swift-syntax"),
      ],
      // Each command's folder opens with its Before/After.
      exclude: ["Extract/README.md", "Inject/README.md", "Finish/README.md", "Mocks/README.md"]
    ),
    // Printer stage: apply edits, render diffs, write files as one transaction.
    .target(
      name: "DesingletonPrinter",
      dependencies: [
        "DesingletonCore",
        .product(name: "SwiftSyntax", package: "swift-syntax"),
        .product(name: "SwiftParser", package: "swift-syntax"),
      ]
    ),
    .executableTarget(
      name: "desingleton",
      dependencies: [
        "DesingletonCore",
        "DesingletonIndex",
        "DesingletonPlanner",
        "DesingletonPrinter",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // `swift package --allow-writing-to-package-directory desingleton scan`: the tool on a package's targets.
    .plugin(
      name: "Desingleton",
      capability: .command(
        intent: .custom(verb: "desingleton", description: "Find singletons, slice them into protocols, and inject the slices."),
        permissions: [
          .writeToPackageDirectory(reason: "extract-protocol, inject, finish and mocks rewrite the package's Swift files.")
        ]
      ),
      dependencies: ["desingleton"]
    ),
    .testTarget(
      name: "DesingletonTests",
      dependencies: [
        "DesingletonCore",
        "DesingletonIndex",
        "DesingletonPlanner",
        "DesingletonPrinter",
        .product(name: "SwiftSyntax", package: "swift-syntax"),
        .product(name: "SwiftParser", package: "swift-syntax"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
