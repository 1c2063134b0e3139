#!/usr/bin/env python3
"""The differential test of the one loader: a command about one singleton plans what the whole tree plans.

Every command loads code through one loader: the files naming the singleton first, then whatever its
questions need, until it asked nothing the parsed files could not answer. `--full` parses every file instead.
So for every project and every singleton T, each command's output with `--singleton T` must equal its output
with `--singleton T --full`, byte for byte (exit code, standard output, standard error), along the journey:

  scan --singleton T --format json
  extract-protocol --singleton T --dry-run          then written (--no-verify) and committed
  inject --all --singleton T --dry-run              then written and committed
  finish --singleton T --dry-run
  mocks --singleton T --dry-run

and every file's summary, parsed with the bodies that hold no reference left blank, must be the
summary of its whole parse (`scan --check-skipping`).

Each project is copied into a throw-away git repository; each singleton's journey starts from a fresh copy.
A step whose command refuses (exit 1) in both loads ends that journey after comparing.

Usage:
  python3 Tests/Differential/differential.py --bin .build/debug/desingleton --samples     # every sample (`make test`)
  python3 Tests/Differential/differential.py --bin BIN --mirror [--package NAME]           # the mirror's packages
  python3 Tests/Differential/differential.py --bin BIN --project DIR [--project DIR]       # any folders (practice apps)

Exits 0 when every pair agreed, 1 when any differed or failed, 2 on bad usage. Standard library only.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "Corpus"))
from harness import describe_exit, excerpt  # noqa: E402
from corpus import mirror_folder, mirror_packages  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "Samples"
TIMEOUT = 600.0


@dataclass
class Result:
    project: str
    singletons: list[str] = field(default_factory=list)
    compared: int = 0
    steps: list[str] = field(default_factory=list)  # each command pair: its name and the exit code both gave
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0


def run(argv: list[str], cwd: Path) -> tuple[int | None, str, str]:
    try:
        done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT, stdin=subprocess.DEVNULL)
        return done.returncode, done.stdout, done.stderr
    except subprocess.TimeoutExpired:
        return None, "", "timed out"


def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, timeout=600)


def fresh_copy(source: Path, into: Path, ref: str = "HEAD") -> Path:
    """`source` (a folder, or a bare git repository's `ref`) as a new git repository of its own."""
    copy = into / "tree"
    if copy.exists():
        shutil.rmtree(copy)
    if (source / "HEAD").is_file() and (source / "objects").is_dir():
        copy.mkdir()
        archive = subprocess.run(["git", "-C", str(source), "archive", "--format=tar", ref], capture_output=True)
        if archive.returncode == 0:
            subprocess.run(["tar", "-x", "-C", str(copy)], input=archive.stdout, check=True, capture_output=True)
        else:
            # A snapshot whose largest files are absent: every file whose contents it has.
            listing = subprocess.run(["git", "-C", str(source), "ls-tree", "-r", "-z", ref], capture_output=True, check=True)
            for entry in listing.stdout.split(b"\0"):
                if not entry:
                    continue
                meta, path = entry.split(b"\t", 1)
                mode, kind, blob = meta.split()
                if kind != b"blob" or mode == b"120000":
                    continue
                content = subprocess.run(["git", "-C", str(source), "cat-file", "blob", blob.decode()], capture_output=True)
                if content.returncode != 0:
                    continue
                target = copy / os.fsdecode(path)
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(content.stdout)
    else:
        shutil.copytree(source, copy, ignore=shutil.ignore_patterns(".build", ".build-*", ".git", ".swiftpm"))
    git(copy, "init", "-q")
    git(copy, "add", "-A", "-f", ".")
    git(copy, "-c", "user.name=d", "-c", "user.email=d@d", "commit", "-q", "--no-verify", "-m", "base")
    return copy


def compare(binary: Path, copy: Path, command: list[str], result: Result) -> int | None:
    """Runs `command` both ways; records a difference. The exit code when they agree."""
    phased = run([str(binary), *command], copy)
    whole = run([str(binary), *command, "--full"], copy)
    result.compared += 1
    shown = " ".join(command)
    if phased != whole:
        parts = []
        for name, a, b in (("exit", str(phased[0]), str(whole[0])), ("stdout", phased[1], whole[1]), ("stderr", phased[2], whole[2])):
            if a != b:
                parts.append(f"  {name} with --singleton:\n{excerpt(a, 25)}\n  {name} with --full:\n{excerpt(b, 25)}")
        result.problems.append(f"{result.project}: desingleton {shown}: the loads differ\n" + "\n".join(parts))
        return None
    result.steps.append(f"{command[0]}={phased[0]}{'+' if phased[1] else ''}")
    if phased[0] not in (0, 1):
        result.problems.append(f"{result.project}: desingleton {shown}: {describe_exit_code(phased[0])}\n{excerpt(phased[2], 15)}")
        return None
    return phased[0]


def describe_exit_code(code: int | None) -> str:
    class R:
        pass

    r = R()
    r.code = code
    return describe_exit(r)


def write(binary: Path, copy: Path, command: list[str], result: Result) -> bool:
    """Writes the step (no build) and commits it; false when it did not go through."""
    code, _, stderr = run([str(binary), *command, "--no-verify"], copy)
    if code != 0:
        result.problems.append(f"{result.project}: desingleton {' '.join(command)} --no-verify: {describe_exit_code(code)}\n{excerpt(stderr, 15)}")
        return False
    git(copy, "add", "-A", "-f", ".")
    git(copy, "-c", "user.name=d", "-c", "user.email=d@d", "commit", "-q", "--no-verify", "--allow-empty", "-m", " ".join(command))
    return True


def journey(binary: Path, source: Path, ref: str, singleton: str, work: Path, result: Result) -> None:
    copy = fresh_copy(source, work, ref)
    compare(binary, copy, ["scan", "--singleton", singleton, "--format", "json"], result)
    steps = [
        ["extract-protocol", "--singleton", singleton],
        ["inject", "--all", "--singleton", singleton],
        ["finish", "--singleton", singleton],
        ["mocks", "--singleton", singleton],
    ]
    for position, step in enumerate(steps):
        code = compare(binary, copy, [*step, "--dry-run"], result)
        if code != 0:
            return
        # finish and mocks end the journey: what they plan is compared, not written.
        if position < 2 and not write(binary, copy, step, result):
            return


def singletons(binary: Path, source: Path, ref: str, work: Path, limit: int, result: Result) -> list[str]:
    """The first `limit` singletons of the whole tree's scan; each one's entry must be the one
    `scan --singleton T` reports."""
    copy = fresh_copy(source, work, ref)
    # Every file's summary with the bodies that hold no reference left unparsed is its whole parse's.
    code, stdout, stderr = run([str(binary), "scan", "--check-skipping"], copy)
    if code != 0:
        result.problems.append(f"{result.project}: scan --check-skipping: {describe_exit_code(code)}\n{excerpt(stdout + stderr, 15)}")
    code, stdout, _ = run([str(binary), "scan", "--format", "json"], copy)
    if code != 0:
        return []
    try:
        report = json.loads(stdout)
    except json.JSONDecodeError:
        return []
    entries = [entry for entry in report.get("singletons", []) if entry.get("type")]
    names = [entry["type"] for entry in entries]
    # Twins (one name in two modules) are one journey, planned per module.
    unique = list(dict.fromkeys(names))[:limit]
    for name in unique:
        code, stdout, stderr = run([str(binary), "scan", "--singleton", name, "--format", "json"], copy)
        result.compared += 1
        try:
            alone = json.loads(stdout).get("singletons", []) if code == 0 else None
        except json.JSONDecodeError:
            alone = None
        whole = [entry for entry in entries if entry["type"] == name]
        if alone != whole:
            result.problems.append(
                f"{result.project}: scan --singleton {name} reports it otherwise than the whole scan\n"
                f"  alone ({describe_exit_code(code)}):\n{excerpt(json.dumps(alone, indent=1, sort_keys=True), 25)}\n"
                f"  in the whole scan:\n{excerpt(json.dumps(whole, indent=1, sort_keys=True), 25)}")
    return unique


def check_project(binary: Path, name: str, source: Path, ref: str, limit: int) -> Result:
    result = Result(project=name)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="differential-") as temporary:
        work = Path(temporary)
        try:
            result.singletons = singletons(binary, source, ref, work, limit, result)
            for singleton in result.singletons:
                journey(binary, source, ref, singleton, work, result)
        except (subprocess.SubprocessError, OSError) as error:
            result.problems.append(f"{name}: {error}")
    result.seconds = time.monotonic() - started
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=str(REPO / ".build/debug/desingleton"))
    parser.add_argument("--samples", action="store_true", help="every folder of Samples/")
    parser.add_argument("--mirror", action="store_true", help="the packages of the offline mirror")
    parser.add_argument("--package", action="append", default=[], help="with --mirror: only packages whose OWNER/NAME contains this")
    parser.add_argument("--project", action="append", default=[], help="a folder to check (repeatable)")
    parser.add_argument("--max-singletons", type=int, default=4)
    parser.add_argument("-j", type=int, default=2, help="projects checked at once")
    args = parser.parse_args()
    binary = Path(args.bin).resolve()
    if not binary.is_file():
        print(f"differential: no binary at {binary}", file=sys.stderr)
        return 2
    projects: list[tuple[str, Path, str]] = []
    if args.samples:
        projects += [(path.name, path, "HEAD") for path in sorted(SAMPLES.iterdir()) if path.is_dir()]
    if args.mirror:
        folder = mirror_folder()
        if folder is None:
            print("differential: no package mirror on this machine; --mirror skipped", file=sys.stderr)
        else:
            for package in mirror_packages(folder):
                if args.package and not any(part.lower() in package.name.lower() for part in args.package):
                    continue
                projects.append((package.name, package.repo, package.tag))
    for path in args.project:
        folder = Path(path).resolve()
        # A folder holding one bare repository (`fetch`'s `owner+name/repo`) is that repository.
        if (folder / "repo" / "HEAD").is_file():
            folder = folder / "repo"
        projects.append((Path(path).name, folder, "HEAD"))
    if not projects:
        print("differential: nothing to check (give --samples, --mirror or --project)", file=sys.stderr)
        return 2
    started = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.j)) as pool:
        results = list(pool.map(lambda item: check_project(binary, *item, args.max_singletons), projects))
    problems = [problem for result in results for problem in result.problems]
    for result in results:
        print(f"{result.project}: {len(result.singletons)} singleton(s), {result.compared} command pairs, "
              f"{len(result.problems)} problem(s), {result.seconds:.1f} s; {' '.join(result.steps)}")
    print(f"differential: {sum(r.compared for r in results)} command pairs on {len(results)} projects, "
          f"{len(problems)} problem(s), {time.monotonic() - started:.0f} s")
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
