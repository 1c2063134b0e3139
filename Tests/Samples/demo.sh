#!/usr/bin/env bash
# The whole journey on ShoppingApp, as the dry-run diffs a user would read: each step is shown,
# then applied to a scratch copy so the next step starts where it left off.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
bin="$root/.build/debug/desingleton"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp -R "$root/Samples/ShoppingApp" "$work/ShoppingApp"
rm -rf "$work/ShoppingApp"/.build*
cd "$work/ShoppingApp"
sed -i.bak "s#path: \"../UIKit\"#path: \"$root/Samples/UIKit\"#" Package.swift && rm -f Package.swift.bak

step() {
  printf '\n\033[1m$ desingleton %s --dry-run\033[0m\n' "$*"
  "$bin" "$@" --dry-run
  # Applied without building after each step: the demo builds and tests the result at the end.
  "$bin" "$@" --no-verify 2>/dev/null
}

printf '\033[1m$ desingleton scan\033[0m\n'
"$bin" scan
step extract-protocol --singleton SessionController \
  --slice CurrentUserProvider=currentUser --slice CurrentCart=cart,addItemToCart \
  --slice ItemFetcher=fetchedItems,availableItems,fetchAvailableItems --move-derived
step inject --type ItemListViewController
step inject --all
step finish --root AppCoordinator --include-tests
step mocks --singleton SessionController
cp -R "$root/Tests/Golden/shopping-journey/tests/05/." .   # a hand-written test against the doubles
printf '\n\033[1m$ swift build && swift test\033[0m   (the rewritten app)\n'
swift build --build-tests -q 2>&1 | tail -n 5
swift test --skip-build 2>&1 | tail -n 1
