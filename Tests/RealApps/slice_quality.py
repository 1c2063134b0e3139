#!/usr/bin/env python3
"""How scan's suggested slices serve the consumers of the practice apps' god objects.

For every app in Tests/RealApps/apps.txt that the mirror holds, the commit is unpacked (as `make
realapps` does: files the snapshot lacks are left out) into a throw-away folder, `scan --format json`
runs once, and every singleton whose consumers use at least --min-used members is a god object. For
each, scan's own `quality` figures are printed: coverage (used members that can be requirements and
are in a slice), mean cohesion, median and largest number of protocols a consumer receives, and
slices per members sliced; then the same figures over all of them. Nothing is judged: the numbers
are what slicing is measured by.

Usage:
  python3 Tests/RealApps/slice_quality.py --bin .build/release/desingleton [--min-used 10] [--app NAME] [--names]

With --names, every suggested slice of every god object is listed under its figures (name: members),
for reading the names a team would get.

Exits 0, or 2 on bad usage or a missing binary. Standard library only.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import realapps  # noqa: E402  (the same list of apps, mirror lookup and unpacking rules)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=os.environ.get("DESINGLETON_BIN", ".build/release/desingleton"))
    parser.add_argument("--apps", default=str(HERE / "apps.txt"))
    parser.add_argument("--mirror", default=os.environ.get("DESINGLETON_MIRROR", "/work/.mirror"))
    parser.add_argument("--min-used", type=int, default=10, help="a god object's consumers use at least this many members (default 10)")
    parser.add_argument("--app", action="append", default=[], help="only these apps (a substring of OWNER/NAME; repeatable)")
    parser.add_argument("--names", action="store_true", help="list each god object's suggested slices (name: members)")
    args = parser.parse_args()
    binary = Path(args.bin).resolve()
    if not binary.is_file():
        print(f"error: no binary at {binary}", file=sys.stderr)
        return 2
    rows = []
    for app in realapps.read_apps(Path(args.apps)):
        if args.app and not any(part in app.name for part in args.app):
            continue
        git_dir = realapps.find_git_dir(Path(args.mirror), app.name)
        if git_dir is None:
            print(f"{app.name}: not fetched, skipped")
            continue
        folder = Path(tempfile.mkdtemp(prefix="slice-quality-"))
        try:
            realapps.unpack(git_dir, app.commit, folder)
            scan = subprocess.run([str(binary), "scan", "--format", "json"], cwd=folder, capture_output=True, text=True)
            try:
                document = json.loads(scan.stdout)
            except json.JSONDecodeError:
                print(f"{app.name}: scan failed: {scan.stderr.strip()[:200]}")
                continue
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        for entry in document.get("singletons", []):
            used = set()
            for consumer in entry.get("consumers", []):
                used |= set(consumer["reads"]) | set(consumer["writes"]) | set(consumer["calls"])
            if len(used) < args.min_used:
                continue
            name = entry["type"] + (f" ({entry['module']})" if entry.get("module") else "")
            quality = entry.get("quality")
            if not quality:
                print(f"{app.name:32} {name:30} used {len(used):3}  nothing suggested: {entry.get('note', '')[:80]}")
                continue
            rows.append(quality)
            print(
                f"{app.name:32} {name:30} used {len(used):3}  coverage {quality['coverage']:.2f}  cohesion {quality['meanCohesion']:.2f}"
                f"  protocols {quality['medianProtocols']} (median) / {quality['maxProtocols']} (max)"
                f"  {quality['slices']} slices for {quality['slicedMembers']} members  kept {len(entry.get('kept', []))}"
            )
            if args.names:
                for slice_ in entry.get("suggestedSlices", []):
                    print(f"    {slice_['name']}: {', '.join(slice_['members'])}")
    if rows:
        print(
            f"\n{len(rows)} god objects: coverage {min(r['coverage'] for r in rows):.2f} (lowest), "
            f"{statistics.median(r['coverage'] for r in rows):.2f} (median); cohesion {min(r['meanCohesion'] for r in rows):.2f} (lowest), "
            f"{statistics.median(r['meanCohesion'] for r in rows):.2f} (median); protocols per consumer {max(r['medianProtocols'] for r in rows)} "
            f"(largest median) / {max(r['maxProtocols'] for r in rows)} (max); members per slice "
            f"{min(r['slicedMembers'] / r['slices'] for r in rows):.1f} (lowest)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
