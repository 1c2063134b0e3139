#!/usr/bin/env bash
# Checks the manual (README.md, docs/*.md) against the binary: runs every `console` example on a
# fresh copy of its sample and compares the output, compares each command page's Flags list with
# `desingleton help COMMAND`, and follows every relative link. See Tests/Docs/check_docs.py.
#
#   bash Tests/Docs/check-docs.sh [BINARY]      (or BIN=BINARY; default .build/debug/desingleton)
set -euo pipefail
cd "$(dirname "$0")/../.."
bin="${1:-${BIN:-.build/debug/desingleton}}"
exec python3 Tests/Docs/check_docs.py --bin "$bin"
