#!/usr/bin/env bash
# Runs the `desingleton` command plugin through `swift package` on a copy of a sample that depends on
# this package by path, and checks that its output is the command line tool's on the same copy.
#
# The plugin's tool is built in the copy's scratch space, swift-syntax included. The copy and that
# scratch space live in one fixed folder (DESINGLETON_PLUGIN_CACHE, default .build-plugin) so that a
# second run rebuilds only what changed.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
cache="${DESINGLETON_PLUGIN_CACHE:-$repo/.build-plugin}"
sample="ModularApp"
copy="$cache/$sample"
cli="$repo/.build/debug/desingleton"
[ -x "$cli" ] || (cd "$repo" && swift build --product desingleton -q)

mkdir -p "$cache"
rm -rf "$copy"
cp -R "$repo/Samples/$sample" "$copy"
rm -rf "$copy/.build"
# The sample depends on this package by path: its command plugins become available to it.
python3 - "$copy/Package.swift" "$repo" <<'PY'
import sys
path, repo = sys.argv[1], sys.argv[2]
text = open(path).read()
marker = "    targets: ["
assert text.count(marker) == 1, "cannot find the targets of " + path
text = text.replace(marker, '    dependencies: [.package(name: "desingleton", path: "%s")],\n%s' % (repo, marker))
open(path, "w").write(text)
PY

plugin() {
  (cd "$copy" && swift package --scratch-path "$cache/scratch" --allow-writing-to-package-directory desingleton "$@")
}
fail=0
# The plugin's standard output is the tool's; the tool's standard error comes on SwiftPM's, each
# line as `[Desingleton] line`, after SwiftPM's own build lines.
check() {
  local name="$1"; shift
  plugin "$@" >"$cache/plugin.out" 2>"$cache/plugin.err" || { echo "plugin failed: $*"; cat "$cache/plugin.err"; exit 1; }
  (cd "$copy" && "$cli" "$@") >"$cache/cli.out" 2>"$cache/cli.err" || true
  sed -n 's/^\[Desingleton\] //p' "$cache/plugin.err" >"$cache/plugin.err.tool"
  if diff -u "$cache/cli.out" "$cache/plugin.out" && diff -u "$cache/cli.err" "$cache/plugin.err.tool"; then
    echo "ok: $name"
  else
    echo "FAILED: $name: the plugin's output differs from the tool's"
    fail=1
  fi
}

start=$(date +%s)
check "scan" scan
echo "first plugin run (builds the tool): $(( $(date +%s) - start ))s"
check "scan --format json" scan --format json
check "extract-protocol --dry-run" extract-protocol --dry-run
# --target limits the paths to that target's directory.
plugin --target Core scan --format json >"$cache/plugin.out" 2>/dev/null
(cd "$copy" && "$cli" scan --format json -- Sources/Core) >"$cache/cli.out"
if diff -u "$cache/cli.out" "$cache/plugin.out"; then echo "ok: --target Core"; else echo "FAILED: --target Core"; fail=1; fi
# A refusal is the plugin's failure too, with the tool's error line.
if plugin inject --type Nobody >"$cache/plugin.out" 2>"$cache/plugin.err"; then
  echo "FAILED: a refused inject succeeded through the plugin"; fail=1
elif ! grep -q "error:" "$cache/plugin.err"; then
  echo "FAILED: no error line from a refused inject"; cat "$cache/plugin.err"; fail=1
else
  echo "ok: refusal"
fi
# Nothing written by a dry run or a scan.
if ! diff -r -q -x .build -x .swiftpm -x Package.swift -x Package.resolved "$repo/Samples/$sample" "$copy"; then
  echo "FAILED: the copy changed"; fail=1
fi
# A writing command through the plugin writes what the tool writes.
rm -rf "$cache/by-tool" && cp -R "$copy" "$cache/by-tool"
(cd "$cache/by-tool" && "$cli" extract-protocol --no-verify 2>/dev/null)
plugin extract-protocol --no-verify >/dev/null 2>&1
if diff -r -q -x .build -x .swiftpm "$cache/by-tool" "$copy"; then echo "ok: extract-protocol writes"; else echo "FAILED: extract-protocol writes"; fail=1; fi
echo "plugin test: $(( $(date +%s) - start ))s"
exit $fail
