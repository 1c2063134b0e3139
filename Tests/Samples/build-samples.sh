#!/usr/bin/env bash
# Builds every sample app as it is in the repository and runs its own tests.
set -euo pipefail
cd "$(dirname "$0")/../../Samples"
for sample in UIKit SwiftUI SwiftUIApp ShoppingApp ProfileApp ThumbnailCache SingletonShapes GodObject FrameworkApp ModularApp PlatformStore TwinTargets XcodeApp XcodeFolders SwinjectApp DependenciesApp RepairShapes ConvergenceShapes CycleApp; do
  echo "== $sample"
  (cd "$sample" && swift build --build-tests -q && swift test --skip-build 2>&1 | tail -n 1)
done
# Linux cannot build an Objective-C app: both sides are type-checked instead.
echo "== ObjectiveCApp"
sh ObjectiveCApp/check.sh
