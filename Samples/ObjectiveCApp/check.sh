#!/bin/sh
# The app cannot be built on Linux (nothing runs Objective-C here): both sides are type-checked.
# The Swift files against the headers, as the bridging header shows them to Swift...
set -e
cd "$(dirname "$0")"
swiftc -frontend -typecheck -enable-objc-interop -disable-objc-attr-requires-foundation-module \
  -import-objc-header App/Bridging-Header.h -I Legacy -module-name ObjectiveCApp App/*.swift
# ...and the Objective-C files on their own.
for file in Legacy/*.m; do
  clang -fsyntax-only -fblocks -fobjc-runtime=gnustep-2.0 -fobjc-arc -x objective-c -ILegacy "$file"
done
