#!/usr/bin/env bash
# Instruction profile of the whole scan, 1 thread, over a ~50k-line slice of the mirror corpus.
# Usage: bench/profile.sh [BIN]   (default .build/release/desingleton); writes bench/out/callgrind.*
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-.build/release/desingleton}
SLICE=$(python3 -B -c 'import sys; sys.path.insert(0, "bench"); import bench; c = bench.prepare_mirror(50_000, "50k"); print(c["root"]) if c else sys.exit(1)')
mkdir -p bench/out
# valgrind 3.19 cannot read the DWARF 5 that swiftc emits ("unhandled dwarf2 abbrev form code 0x25"):
# profile a copy without debug info; the symbol table still names every function.
objcopy --strip-debug "$BIN" bench/out/desingleton-nodebug
OUTF=bench/out/callgrind.out
valgrind --tool=callgrind --callgrind-out-file=$OUTF bench/out/desingleton-nodebug scan --format json --threads 1 "$SLICE" > /dev/null 2> bench/out/callgrind.log
valgrind --tool=callgrind --callgrind-out-file=$OUTF.parse bench/out/desingleton-nodebug scan --parse-only --threads 1 "$SLICE" > /dev/null 2>> bench/out/callgrind.log
annotate() { callgrind_annotate "$@" > bench/out/annotate.tmp; swift demangle --simplified < bench/out/annotate.tmp | sed -n 1,120p; }
annotate --inclusive=yes $OUTF > bench/out/callgrind.inclusive.txt
annotate $OUTF > bench/out/callgrind.self.txt
annotate --inclusive=yes $OUTF.parse > bench/out/callgrind.parse-only.txt
annotate $OUTF.parse > bench/out/callgrind.parse-only.self.txt
grep "refs" bench/out/callgrind.log
echo "bench/out/callgrind.parse-only{,.self}.txt, bench/out/callgrind.inclusive.txt, bench/out/callgrind.self.txt"
