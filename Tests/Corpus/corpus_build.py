#!/usr/bin/env python3
"""The whole desingleton journey on real packages, judged by their own test suites.

For every package in Tests/Corpus/build-packages.txt (its highest release tag, or the ref listed there,
unpacked with `git archive` into a throw-away git repository; dependencies as the package declares them,
resolved from the offline mirror that git's `insteadOf` points at, or from a fetched copy named in the list):

  baseline   `swift build --build-tests` and `swift test`; a package whose baseline fails is listed and skipped;
  then, for each singleton `scan --format json` reports with at least 10 references, one after the other on
  the same tree:
  extract    the `extract-protocol` command scan prints for it, run through `/bin/sh -c` as printed;
  inject     `inject --all --singleton T`;
  finish     `finish --singleton T` first (to see what it says), then `finish --singleton T --root R` at the
             root it proposes (or the one listed for the package);
  mocks      `mocks --singleton T`.

A write command whose help lists `--no-verify` gets it: the planner's own output is what is judged. After
every step that exits 0 and changes the tree, the package must build (`swift build --build-tests`), its tests
must pass (`swift test`), and the same command run again must change nothing. Each step is one of:

  ok        exit 0, builds, tests pass, a second run changes nothing (or exit 0 and nothing to change)
  refused   exit 1 and the tree unchanged
  skipped   ok, but the tool left consumers out and said why (inject) -- counted with the consumers
  WRONG     exit 0 but the build or the tests fail, or a second run changes something; a refusal that
            changed the tree; any other exit (a crash, exit 2, a timeout)

The temporary repository gets a commit after every step; a singleton whose journey went WRONG is undone
(the tree goes back to the commit before it) so the next singleton starts from a package that builds.

State (finished packages and singletons, keyed by the binary's checksum) lives in a cache folder outside the
repository, ~/.cache/desingleton-corpus-build unless --cache says otherwise, so an interrupted run resumes
where it stopped (Ctrl-C or SIGTERM ends every build and command it started, and records nothing half-run);
--fresh forgets it, --redo NAME forgets one package, --report-only prints the saved results. Packages run in parallel (-j, at most 2), each build with -j 2/jobs.
Every swift build and swift test runs under `nice -n 15`.

Usage:
  python3 Tests/Corpus/corpus_build.py --bin /work/bin/desingleton        # every package (`make corpus-build`)
  python3 Tests/Corpus/corpus_build.py --quick                           # the packages marked quick
  python3 Tests/Corpus/corpus_build.py --heavy                           # also the packages marked heavy
  python3 Tests/Corpus/corpus_build.py --package Yams --singleton Resolver

Exits 0 when nothing went WRONG, 1 when something did, 2 on bad usage or a missing binary. Standard library only.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from harness import describe_exit  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
LIST = Path(__file__).resolve().parent / "build-packages.txt"
VERSION_TAG = re.compile(r"^v?(\d+(?:\.\d+)*)$")
STEPS = ["extract", "inject", "finish", "mocks"]
MIN_REFERENCES = 10


# ---------------------------------------------------------------------------------------------------------------
# The package list


@dataclass
class Entry:
    """One line of build-packages.txt: `OWNER/NAME REF [option...]`."""

    name: str
    ref: str  # a tag, a commit, or "latest" (the highest release tag)
    quick: bool = False
    heavy: bool = False  # a debug build takes over ten minutes on two shared cores: only with --heavy
    mirrors: list[str] = field(default_factory=list)  # OWNER/NAME[@REF] dependencies taken from fetched copies
    roots: dict[str, str] = field(default_factory=dict)  # singleton -> finish root, when the tool proposes none
    only: list[str] = field(default_factory=list)  # singletons to try (default: every one with >= 10 references)
    skip_tests: list[str] = field(default_factory=list)  # `swift test --skip` patterns (tests that need a network)
    note: str = ""


def read_list(path: Path) -> list[Entry]:
    entries: list[Entry] = []
    for number, raw in enumerate(path.read_text().splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        words = line.split()
        if len(words) < 2:
            raise SystemExit(f"{path}:{number}: expected OWNER/NAME REF [option...]")
        entry = Entry(name=words[0], ref=words[1])
        for word in words[2:]:
            key, _, value = word.partition("=")
            if key == "quick":
                entry.quick = True
            elif key == "heavy":
                entry.heavy = True
            elif key == "mirror":
                entry.mirrors += value.split(",")
            elif key == "root":
                singleton, _, root = value.partition(":")
                entry.roots[singleton] = root
            elif key == "only":
                entry.only += value.split(",")
            elif key == "skip-tests":
                entry.skip_tests += value.split(",")
            elif key == "note":
                entry.note = value.replace("_", " ")
            else:
                raise SystemExit(f"{path}:{number}: unknown option {word!r}")
        entries.append(entry)
    return entries


def mirror_folder() -> Path | None:
    """The folder the git config's `insteadOf` rules point at, if it exists."""
    try:
        output = subprocess.run(["git", "config", "--get-regexp", "insteadof"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    for line in output.splitlines():
        match = re.fullmatch(r"url\.(.+)\.insteadof", line.split(None, 1)[0], flags=re.IGNORECASE)
        if match and Path(match.group(1)).is_dir():
            return Path(match.group(1))
    return None


def find_repository(name: str, mirror: Path | None, fetched: Path) -> Path | None:
    """OWNER/NAME in the offline mirror (OWNER/NAME.git) or among fetched copies (OWNER+NAME/repo)."""
    owner, _, repo = name.partition("/")
    candidates = []
    if mirror is not None:
        candidates.append(mirror / owner / f"{repo}.git")
    candidates.append(fetched / f"{owner}+{repo}" / "repo")
    for candidate in candidates:
        if candidate.is_dir():
            return candidate.resolve()
        parent = candidate.parent
        if parent.parent.is_dir():  # the same name in another case
            for owner_dir in parent.parent.iterdir():
                if owner_dir.name.lower() == parent.name.lower():
                    for child in owner_dir.iterdir() if owner_dir.is_dir() else []:
                        if child.name.lower() == candidate.name.lower() and child.is_dir():
                            return child.resolve()
    return None


def highest_tag(repo: Path) -> str:
    tags = subprocess.run(["git", "-C", str(repo), "tag"], capture_output=True, text=True, timeout=60).stdout.split()
    versions = [(tuple(int(p) for p in VERSION_TAG.match(t).group(1).split(".")), t) for t in tags if VERSION_TAG.match(t)]
    return max(versions)[1] if versions else "HEAD"


# ---------------------------------------------------------------------------------------------------------------
# Running things


@dataclass
class Run:
    code: int | None  # None: timed out
    stdout: str
    stderr: str
    seconds: float

    @property
    def output(self) -> str:
        return self.stdout + ("\n" if self.stdout and self.stderr else "") + self.stderr


# The commands running now (each in a process group of its own), ended if the harness is interrupted.
LIVE: set[subprocess.Popen] = set()
LIVE_LOCK = threading.Lock()


def end_session(session: int) -> None:
    """Ends every process of the session a command started (swift build puts its compilers in groups of their own)."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            if int(fields[3]) == session:  # pid (comm) state ppid pgrp session
                os.kill(int(entry.name), signal.SIGKILL)
        except (OSError, ValueError, IndexError):
            continue


def end_live_commands(signum, frame) -> None:
    """On SIGINT or SIGTERM: end what is running and leave at once, so no half-run step is recorded."""
    with LIVE_LOCK:
        for process in list(LIVE):
            end_session(process.pid)
    print(f"corpus-build: interrupted; the next run resumes after the last finished singleton", file=sys.stderr, flush=True)
    os._exit(128 + signum)


def run(argv: list[str], cwd: Path, timeout: float, env: dict | None = None) -> Run:
    start = time.monotonic()
    try:
        process = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, start_new_session=True, env=env)
    except OSError as error:
        return Run(127, "", str(error), 0.0)
    with LIVE_LOCK:
        LIVE.add(process)
    try:
        out, err = process.communicate(timeout=timeout)
        code: int | None = process.returncode
    except subprocess.TimeoutExpired:
        end_session(process.pid)  # only what this command started
        out, err = process.communicate()
        code = None
    finally:
        with LIVE_LOCK:
            LIVE.discard(process)
    return Run(code, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"), time.monotonic() - start)


def git(cwd: Path, *args: str, check: bool = True) -> Run:
    result = run(["git", "-c", "user.name=corpus", "-c", "user.email=corpus@localhost", "-c", "core.autocrlf=false",
                  "-c", "commit.gpgsign=false", *args], cwd, 600)
    if check and result.code != 0:
        raise RuntimeError(f"git {' '.join(args)} failed in {cwd}: {result.stderr.strip()}")
    return result




def first_errors(text: str, limit: int = 6) -> str:
    """The compiler's first error lines (with the line after each), or the failing tests, or the tail."""
    lines = text.splitlines()
    picked: list[str] = []
    for index, line in enumerate(lines):
        if re.search(r"\berror: |: error\b|Test Case .* failed|✘|Fatal error|failed \(|XCTAssert", line):
            if line not in picked:
                picked.append(line.strip())
            if len(picked) >= limit:
                break
    if not picked:
        picked = [line.strip() for line in lines[-limit:]]
    return "\n".join(line[:400] for line in picked)


# ---------------------------------------------------------------------------------------------------------------
# Results


@dataclass
class Step:
    step: str  # extract, inject, finish, mocks
    kind: str  # ok, nothing, refused, skipped, wrong, not-run
    command: str = ""
    reason: str = ""  # refusal: the first error; wrong: what failed; skipped: the consumers left out
    details: str = ""
    skipped_consumers: int = 0
    seconds: float = 0.0


@dataclass
class SingletonResult:
    name: str
    references: int
    steps: list[Step] = field(default_factory=list)
    seconds: float = 0.0
    undone: bool = False  # the tree went back to before this singleton

    @property
    def wrong(self) -> bool:
        return any(step.kind == "wrong" for step in self.steps)


@dataclass
class PackageResult:
    name: str
    ref: str
    status: str = "ok"  # ok, unavailable, baseline-failed, error
    reason: str = ""
    singletons_found: int = 0
    candidates: list[dict] = field(default_factory=list)  # every singleton with its references
    singletons: list[SingletonResult] = field(default_factory=list)
    baseline_seconds: float = 0.0
    seconds: float = 0.0
    tests: str = ""  # the baseline's test summary


def step_from(data: dict) -> Step:
    return Step(**data)


def singleton_from(data: dict) -> SingletonResult:
    result = SingletonResult(name=data["name"], references=data["references"], seconds=data.get("seconds", 0.0),
                             undone=data.get("undone", False))
    result.steps = [step_from(step) for step in data.get("steps", [])]
    return result


# ---------------------------------------------------------------------------------------------------------------
# State: what finished, so a second run resumes


class State:
    def __init__(self, path: Path, binary_key: str, fresh: bool):
        self.path = path
        self.lock = threading.Lock()
        self.data: dict = {"binary": binary_key, "packages": {}}
        self.forgotten: set[str] = set()
        if path.exists() and not fresh:
            try:
                loaded = json.loads(path.read_text())
                if loaded.get("binary") == binary_key:
                    self.data = loaded
            except ValueError:
                pass

    def package(self, key: str) -> dict:
        with self.lock:
            return json.loads(json.dumps(self.data["packages"].get(key, {})))

    def forget(self, name: str) -> None:
        with self.lock:
            for key in [key for key in self.data["packages"] if name.lower() in key.lower()]:
                del self.data["packages"][key]
                self.forgotten.add(key)

    def update(self, key: str, value: dict) -> None:
        with self.lock:
            self.data["packages"][key] = value
            try:  # another run with the same cache may have finished other packages meanwhile
                on_disk = json.loads(self.path.read_text())
                if on_disk.get("binary") == self.data["binary"]:
                    for other, saved in on_disk.get("packages", {}).items():
                        if other != key and other not in self.forgotten:
                            self.data["packages"].setdefault(other, saved)
            except (OSError, ValueError):
                pass
            temporary = self.path.with_suffix(".tmp")
            temporary.write_text(json.dumps(self.data, indent=1))
            temporary.replace(self.path)


# ---------------------------------------------------------------------------------------------------------------
# One package


class Journey:
    def __init__(self, args: argparse.Namespace, binary: Path, no_verify: set[str], mirror: Path | None,
                 state: State, log_dir: Path):
        self.args = args
        self.binary = binary
        self.no_verify = no_verify
        self.mirror = mirror
        self.state = state
        self.log_dir = log_dir
        self.print_lock = threading.Lock()

    def say(self, package: str, text: str) -> None:
        with self.print_lock:
            print(f"[{time.strftime('%H:%M:%S')}] {package}: {text}", flush=True)

    def log(self, copy: Path, name: str, text: str) -> Path:
        folder = self.log_dir / copy.name
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / name
        path.write_text(text)
        return path

    # Building -------------------------------------------------------------------------------------------

    def swift(self, copy: Path, entry: Entry, what: str, label: str) -> tuple[bool, str, float]:
        """`swift build --build-tests` or `swift test`, niced; (passed, excerpt, seconds)."""
        jobs = ["-j", str(self.args.build_jobs)]
        if what == "build":
            argv = ["nice", "-n", "15", "swift", "build", "--build-tests", *jobs]
            timeout = self.args.build_timeout
        else:
            argv = ["nice", "-n", "15", "swift", "test", *jobs]
            for pattern in entry.skip_tests:
                argv += ["--skip", pattern]
            timeout = self.args.test_timeout
        result = run(argv, copy, timeout)
        self.log(copy, f"{label}-{what}.log", f"$ {' '.join(argv)}\n{describe_exit(result)}\n{result.output}")
        if what == "test" and result.code is None:
            # Some packages' own suites hang at times (swift-subprocess's cancellation tests hang in
            # about one run in three on the unchanged package): a hang is run once more, and only
            # one that hangs again counts.
            first = result
            result = run(argv, copy, timeout)
            self.log(copy, f"{label}-{what}-again.log", f"$ {' '.join(argv)}\n{describe_exit(result)}\n{result.output}")
            if result.code == 0:
                return True, summary_of_tests(result.output) + " (on a second run: the first timed out)", first.seconds + result.seconds
        passed = result.code == 0
        if passed:
            return True, summary_of_tests(result.output) if what == "test" else "", result.seconds
        return False, f"{describe_exit(result)}: {first_errors(result.output)}", result.seconds

    def build_and_test(self, copy: Path, entry: Entry, label: str) -> tuple[bool, str]:
        built, text, _ = self.swift(copy, entry, "build", label)
        if not built:
            return False, f"swift build --build-tests: {text}"
        tested, text, _ = self.swift(copy, entry, "test", label)
        if not tested:
            return False, f"swift test: {text}"
        return True, text

    # The tree -------------------------------------------------------------------------------------------

    def unpack(self, entry: Entry, repository: Path, ref: str, copy: Path) -> None:
        if copy.exists():
            shutil.rmtree(copy)
        copy.mkdir(parents=True)
        archive = subprocess.run(["git", "-C", str(repository), "archive", "--format=tar", ref], capture_output=True, timeout=600)
        if archive.returncode != 0:
            raise RuntimeError(f"git archive {ref} failed: {archive.stderr.decode(errors='replace').strip()}")
        extract = subprocess.run(["tar", "-x", "-C", str(copy)], input=archive.stdout, capture_output=True, timeout=600)
        if extract.returncode != 0:
            raise RuntimeError(f"tar failed: {extract.stderr.decode(errors='replace').strip()}")
        git(copy, "init", "-q")
        top = git(copy, "rev-parse", "--show-toplevel").stdout.strip()
        if Path(top).resolve() != copy.resolve():
            raise RuntimeError(f"git init in {copy} made no repository of its own (top level {top})")
        # The build's own files are never part of a step's change.
        (copy / ".git" / "info").mkdir(parents=True, exist_ok=True)
        (copy / ".git" / "info" / "exclude").write_text("/.build/\n/.swiftpm/configuration/\n")
        for dependency in entry.mirrors:
            dep_name = dependency.split("@", 1)[0]
            found = find_repository(dep_name, None, self.args.fetched)
            if found is None:
                raise RuntimeError(f"the dependency {dep_name} is neither in the mirror nor fetched into {self.args.fetched}")
            # SwiftPM names a package after the last part of its location: a fetched copy at OWNER+NAME/repo would
            # be "repo", and the package's Package.resolved pin (by name) would not apply. A link named NAME.git keeps it.
            link = self.args.cache / "mirrors" / dep_name.split("/")[0] / (dep_name.split("/")[1] + ".git")
            link.parent.mkdir(parents=True, exist_ok=True)
            if not link.exists():
                link.symlink_to(found)
            found = link
            result = run(["swift", "package", "config", "set-mirror", "--original", f"https://github.com/{dep_name}.git",
                          "--mirror", str(found)], copy, 120)
            if result.code != 0:
                raise RuntimeError(f"set-mirror for {dep_name} failed: {result.output.strip()}")
        git(copy, "add", "-A", "-f", ".")
        git(copy, "commit", "-q", "--no-verify", "-m", f"{entry.name} {ref}")

    def dirty(self, copy: Path) -> list[str]:
        return [line for line in git(copy, "status", "--porcelain", "--untracked-files=all").stdout.splitlines() if line.strip()]

    def commit(self, copy: Path, message: str) -> str:
        git(copy, "add", "-A", ".")
        git(copy, "commit", "-q", "--no-verify", "--allow-empty", "-m", message)
        return git(copy, "rev-parse", "HEAD").stdout.strip()

    def reset(self, copy: Path, commit: str) -> None:
        git(copy, "reset", "-q", "--hard", commit)
        git(copy, "clean", "-q", "-fd")

    # The tool -------------------------------------------------------------------------------------------

    def tool(self, copy: Path, argv: list[str]) -> Run:
        return run([str(self.binary), *argv], copy, self.args.tool_timeout)

    def shell(self, copy: Path, command: str) -> Run:
        return run(["/bin/sh", "-c", command], copy, self.args.tool_timeout)

    # A package ------------------------------------------------------------------------------------------

    def check(self, entry: Entry) -> PackageResult:
        start = time.monotonic()
        repository = find_repository(entry.name, self.mirror, self.args.fetched)
        result = PackageResult(name=entry.name, ref=entry.ref)
        if repository is None:
            result.status, result.reason = "unavailable", "neither in the offline mirror nor fetched"
            return result
        ref = highest_tag(repository) if entry.ref == "latest" else entry.ref
        result.ref = ref
        key = f"{entry.name}@{ref}"
        copy = self.args.cache / "work" / entry.name.replace("/", "__")
        saved = self.state.package(key)
        try:
            resumed = self.resume(copy, saved)
            if saved.get("done"):
                return package_from(saved["result"])
            if not resumed:
                saved = {}
                self.unpack(entry, repository, ref, copy)
                self.say(entry.name, f"{ref}: baseline build and tests")
                base_start = time.monotonic()
                passed, text = self.build_and_test(copy, entry, "00-baseline")
                if not passed and re.search(r"Couldn.t check out revision|revision .* not found|unknown revision", text) \
                        and (copy / "Package.resolved").exists():
                    # The pins name revisions the mirror lacks: resolve the declared ranges afresh.
                    (copy / "Package.resolved").unlink()
                    self.commit(copy, "Package.resolved removed: its pins are not in the mirror")
                    result.reason = "Package.resolved pinned revisions the mirror lacks; resolved afresh"
                    passed, text = self.build_and_test(copy, entry, "00-baseline-unpinned")
                result.baseline_seconds = time.monotonic() - base_start
                if not passed:
                    result.status, result.reason = "baseline-failed", text
                    result.seconds = time.monotonic() - start
                    self.say(entry.name, f"baseline FAILED, skipped: {text.splitlines()[0] if text else ''}")
                    self.state.update(key, {"done": True, "result": asdict(result)})
                    return result
                result.tests = text
                head = self.commit(copy, "baseline (resolved)")
                saved = {"head": head, "result": asdict(result)}
                self.state.update(key, saved)
            else:
                result = package_from(saved["result"])
                self.say(entry.name, f"{ref}: resumed after {', '.join(s.name for s in result.singletons) or 'the baseline'}")
            self.journeys(entry, copy, key, result, saved, start)
        except Exception as error:  # a broken harness step is reported, never a silent pass
            result.status, result.reason = "error", f"corpus harness error: {error}"
        result.seconds = time.monotonic() - start + (0 if not saved else saved.get("elapsed", 0.0))
        self.state.update(key, {"done": True, "result": asdict(result)})
        return result

    def resume(self, copy: Path, saved: dict) -> bool:
        """Whether the saved tree is there, at the commit the state names."""
        if not saved or saved.get("done") or not (copy / ".git").is_dir():
            return False
        head = git(copy, "rev-parse", "HEAD", check=False).stdout.strip()
        if head != saved.get("head"):
            return False
        self.reset(copy, head)
        return True

    def journeys(self, entry: Entry, copy: Path, key: str, result: PackageResult, saved: dict, start: float) -> None:
        scan = self.tool(copy, ["scan", "--format", "json", "."])
        if scan.code != 0:
            raise RuntimeError(f"scan --format json {describe_exit(scan)}: {first_errors(scan.output)}")
        report = json.loads(scan.stdout)
        entries = report.get("singletons", [])
        if not result.candidates:
            result.singletons_found = len(entries)
            result.candidates = sorted(
                ({"type": e["type"], "references": e.get("references", 0), "accessor": e.get("accessor", ""),
                  "shape": e.get("shape", "")} for e in entries),
                key=lambda c: (-c["references"], c["type"]))
        chosen = [c for c in result.candidates if c["references"] >= MIN_REFERENCES]
        if entry.only:
            chosen = [c for c in chosen if c["type"] in entry.only]
        if self.args.singleton:
            chosen = [c for c in chosen if c["type"] in self.args.singleton]
        done = {s.name for s in result.singletons}
        for candidate in chosen:
            if candidate["type"] in done:
                continue
            self.say(entry.name, f"{candidate['type']} ({candidate['references']} references)")
            before = git(copy, "rev-parse", "HEAD").stdout.strip()
            singleton = self.journey(entry, copy, candidate)
            if singleton.wrong:
                self.reset(copy, before)
                singleton.undone = True
            result.singletons.append(singleton)
            kinds = ", ".join(f"{s.step} {s.kind.upper() if s.kind == 'wrong' else s.kind}" for s in singleton.steps)
            self.say(entry.name, f"{candidate['type']}: {kinds} ({singleton.seconds:.0f} s)")
            head = git(copy, "rev-parse", "HEAD").stdout.strip()
            self.state.update(key, {"head": head, "result": asdict(result), "elapsed": time.monotonic() - start})

    # A singleton ----------------------------------------------------------------------------------------

    def journey(self, entry: Entry, copy: Path, candidate: dict) -> SingletonResult:
        start = time.monotonic()
        name = candidate["type"]
        result = SingletonResult(name=name, references=candidate["references"])
        label = re.sub(r"[^A-Za-z0-9_.-]", "_", name)
        for position, step_name in enumerate(STEPS, 1):
            step_start = time.monotonic()
            if step_name == "extract":
                step = self.extract(entry, copy, name, f"{label}-{position}")
            elif step_name == "inject":
                step = self.write_step(entry, copy, "inject", ["inject", "--all", "--singleton", name], f"{label}-{position}")
            elif step_name == "finish":
                step = self.finish(entry, copy, name, f"{label}-{position}")
            else:
                step = self.write_step(entry, copy, "mocks", ["mocks", "--singleton", name], f"{label}-{position}")
            step.seconds = time.monotonic() - step_start
            result.steps.append(step)
            self.commit(copy, f"{name}: {step_name} ({step.kind})")
            if step.kind == "wrong":
                break  # the tree is broken; later steps would be judged on it
        result.seconds = time.monotonic() - start
        return result

    def extract(self, entry: Entry, copy: Path, name: str, label: str) -> Step:
        scan = self.tool(copy, ["scan", "--singleton", name, "."])
        printed = printed_command(scan.stdout)
        if scan.code != 0 or printed is None:
            why = f"scan --singleton {describe_exit(scan)}" if scan.code != 0 else "scan printed no extract-protocol command"
            self.log(copy, f"{label}-extract-scan.log", scan.output)
            return Step("extract", "not-run", reason=why, details=first_errors(scan.output))
        command = printed
        if "extract-protocol" in self.no_verify and "--no-verify" not in command:
            command += " --no-verify"
        shell_command = re.sub(r"^\s*desingleton\b", shlex.quote(str(self.binary)), command)
        return self.judge(entry, copy, "extract", command, lambda: self.shell(copy, shell_command), label)

    def write_step(self, entry: Entry, copy: Path, step_name: str, argv: list[str], label: str) -> Step:
        if argv[0] in self.no_verify:
            argv = [*argv, "--no-verify"]
        argv = [*argv, "."]
        return self.judge(entry, copy, step_name, "desingleton " + shlex.join(argv), lambda: self.tool(copy, argv), label)

    def finish(self, entry: Entry, copy: Path, name: str, label: str) -> Step:
        probe = self.tool(copy, ["finish", "--singleton", name, "."])
        self.log(copy, f"{label}-finish-probe.log", f"{describe_exit(probe)}\n{probe.output}")
        if self.dirty(copy):
            # `finish` without --root is a question; changing the tree there is wrong in itself.
            return Step("finish", "wrong", command=f"desingleton finish --singleton {name} .",
                        reason="finish without --root changed the tree", details="\n".join(self.dirty(copy)[:20]))
        root, how = self.choose_root(entry, copy, name, probe)
        if root is None:
            return Step("finish", "not-run", command=f"desingleton finish --singleton {name} .", reason=how)
        argv = ["finish", "--singleton", name, "--root", root]
        if self.args.include_tests:
            argv.append("--include-tests")
        step = self.write_step(entry, copy, "finish", argv, label)
        step.details = (f"root {root} ({how})\n" + step.details).strip()
        return step

    def choose_root(self, entry: Entry, copy: Path, name: str, probe: Run) -> tuple[str | None, str]:
        """The root listed for the singleton; else the one `finish` without --root proposes; else the consumer
        with the most references left, followed to the type `finish --dry-run` says creates it (a few hops)."""
        if entry.roots.get(name):
            return entry.roots[name], "listed"
        if probe.code in (0, 1):
            root = proposed_root(probe.output)
            if root:
                return root, "proposed by finish"
        scan = self.tool(copy, ["scan", "--format", "json", "--singleton", name, "."])
        try:
            consumers = json.loads(scan.stdout)["singletons"][0].get("consumers", [])
        except (ValueError, KeyError, IndexError):
            consumers = []
        consumers = sorted(consumers, key=lambda c: (-c.get("references", 0), c.get("type", "")))
        if not consumers:
            return None, "finish proposes no root and no consumer is left to be one"
        root, path = consumers[0]["type"], [consumers[0]["type"]]
        for _ in range(3):
            argv = ["finish", "--singleton", name, "--root", root, "--dry-run", "."]
            if self.args.include_tests:
                argv.insert(-1, "--include-tests")
            dry = self.tool(copy, argv)
            match = re.search(r"as --root: '([A-Za-z_][A-Za-z0-9_.]*)'", dry.output)
            if not match or match.group(1) in path:
                break
            root = match.group(1)
            path.append(root)
        return root, "the consumer with most references left" + (f", then the type that creates it ({' -> '.join(path)})" if len(path) > 1 else "")

    def judge(self, entry: Entry, copy: Path, step_name: str, command: str, action, label: str) -> Step:
        if self.dirty(copy):
            self.commit(copy, "untracked leftovers")
        first = action()
        self.log(copy, f"{label}-{step_name}.log", f"$ {command}\n{describe_exit(first)}\n{first.output}")
        changed = self.dirty(copy)
        skipped = skipped_consumers(first.output) if step_name == "inject" else []
        if first.code == 1:
            if changed:
                return Step(step_name, "wrong", command, reason="refused (exit 1) but changed the tree",
                            details="\n".join(changed[:20]))
            return Step(step_name, "refused", command, reason=first_errors(first.output, 1))
        if first.code != 0:
            return Step(step_name, "wrong", command, reason=f"the tool ended with {describe_exit(first)}",
                        details=first_errors(first.output))
        if not changed:
            return Step(step_name, "skipped" if skipped else "nothing", command, reason=first_errors(first.output, 1) if first.output.strip() else "",
                        skipped_consumers=len(skipped), details="\n".join(skipped[:20]))
        self.commit(copy, f"{step_name}: {command}")
        passed, text = self.build_and_test(copy, entry, f"{label}-{step_name}")
        if not passed:
            return Step(step_name, "wrong", command, reason="exit 0 but " + text.splitlines()[0] if text else "exit 0 but the build failed",
                        details=text, skipped_consumers=len(skipped))
        second = action()
        again = self.dirty(copy)
        if again:
            self.log(copy, f"{label}-{step_name}-again.diff", git(copy, "diff").stdout)
            return Step(step_name, "wrong", command, reason="a second run changed something",
                        details="\n".join(again[:20]), skipped_consumers=len(skipped))
        if second.code not in (0, 1):
            return Step(step_name, "wrong", command, reason=f"a second run ended with {describe_exit(second)}",
                        details=first_errors(second.output))
        kind = "skipped" if skipped else "ok"
        return Step(step_name, kind, command, reason="; ".join(skipped[:3]), skipped_consumers=len(skipped),
                    details="\n".join(skipped[:20]))


def package_from(data: dict) -> PackageResult:
    result = PackageResult(name=data["name"], ref=data["ref"])
    for key in ("status", "reason", "singletons_found", "candidates", "baseline_seconds", "seconds", "tests"):
        setattr(result, key, data.get(key, getattr(result, key)))
    result.singletons = [singleton_from(s) for s in data.get("singletons", [])]
    return result


def printed_command(text: str) -> str | None:
    """The `desingleton extract-protocol ...` command in scan's text output (continuation lines joined)."""
    lines = text.splitlines()
    for index, line in enumerate(lines):
        match = re.search(r"(desingleton\s+extract-protocol\b.*)$", line)
        if not match:
            continue
        command = match.group(1)
        while command.rstrip().endswith("\\") and index + 1 < len(lines):
            index += 1
            command = command.rstrip()[:-1].rstrip() + " " + lines[index].strip()
        return command.strip()
    return None


def proposed_root(text: str) -> str | None:
    match = re.search(r"--root[ =]+([A-Za-z_][A-Za-z0-9_.]*)", text)
    if match and match.group(1) not in ("TYPE", "ROOT", "NAME"):
        return match.group(1)
    match = re.search(r"(?:root|Root)[^\n]*?'([A-Za-z_][A-Za-z0-9_.]*)'", text)
    return match.group(1) if match else None


def skipped_consumers(text: str) -> list[str]:
    """The consumers inject says it left out, one line each with the reason (its `skipped N consumers:` block)."""
    lines = text.splitlines()
    found: list[str] = []
    reason = ""
    inside = False
    for line in lines:
        if re.match(r"^skipped \d+ consumers?:", line):
            inside = True
            continue
        if inside:
            if not line.startswith("  "):
                inside = False
                continue
            match = re.match(r"^  (\S.*?) \((\d+)\): (.+)$", line)
            if match:
                reason = match.group(1)
                found += [f"{name.strip()}: {reason}" for name in match.group(3).split(",")]
    return found


def summary_of_tests(text: str) -> str:
    found = re.findall(r"Executed (\d+) tests?, with (\d+) failures?", text)
    counts = []
    if found:
        counts.append(f"{found[-1][0]} XCTest tests")
    testing = re.findall(r"Test run with (\d+) tests?", text)
    if testing:
        counts.append(f"{testing[-1]} Swift Testing tests")
    return ", ".join(counts)


# ---------------------------------------------------------------------------------------------------------------
# Report


def cell(singleton: SingletonResult, step: str) -> str:
    for entry in singleton.steps:
        if entry.step == step:
            text = {"wrong": "**WRONG**", "not-run": "no command" if step == "extract" else "not run"}.get(entry.kind, entry.kind)
            if entry.kind == "skipped":
                text += f" ({entry.skipped_consumers} consumers)"
            elif entry.skipped_consumers:
                text += f" ({entry.skipped_consumers} consumers skipped)"
            return text
    return "—"


def markdown(results: list[PackageResult], seconds: float, tool: str, quick: bool) -> str:
    lines: list[str] = []
    add = lines.append
    add(f"Tool measured: {tool}. Run: {'--quick' if quick else 'full'}, {seconds / 60:.1f} min wall clock.")
    add("")
    add("| package | ref | singleton | refs | extract | inject | finish | mocks | time |")
    add("| --- | --- | --- | ---: | --- | --- | --- | --- | ---: |")
    for result in sorted(results, key=lambda r: r.name.lower()):
        if result.status != "ok" or not result.singletons:
            why = {"unavailable": "not available", "baseline-failed": "baseline fails: skipped", "error": "harness error"}.get(
                result.status, "no singleton with 10 or more references")
            if result.status == "baseline-failed" and "timed out" in result.reason.split(":", 2)[1]:
                why = "baseline timed out: skipped"
            add(f"| {result.name} | {result.ref} | — | | {why} | | | | {result.seconds:.0f} s |")
            continue
        for singleton in result.singletons:
            add(f"| {result.name} | {result.ref} | {singleton.name} | {singleton.references} | "
                + " | ".join(cell(singleton, step) for step in STEPS) + f" | {singleton.seconds:.0f} s |")
    totals: dict[str, int] = {}
    for result in results:
        for singleton in result.singletons:
            for step in singleton.steps:
                totals[step.kind] = totals.get(step.kind, 0) + 1
    add("")
    add("Steps: " + ", ".join(f"{count} {kind}" for kind, count in sorted(totals.items())))
    wrongs = [(r, s, step) for r in results for s in r.singletons for step in s.steps if step.kind == "wrong"]
    add("")
    add(f"WRONG: {len(wrongs)}")
    for result, singleton, step in wrongs:
        add(f"- {result.name} {singleton.name} {step.step}: `{step.command}` — {step.reason}")
        for line in step.details.splitlines()[:6]:
            add(f"    {line}")
    noted = [r for r in results if r.status == "ok" and r.reason]
    if noted:
        add("")
        add("Notes:")
        for result in noted:
            add(f"- {result.name} {result.ref}: {result.reason}")
    others = [r for r in results if r.status not in ("ok",)]
    if others:
        add("")
        add("Packages not measured:")
        for result in others:
            add(f"- {result.name} {result.ref}: {result.status}: {result.reason.splitlines()[0] if result.reason else ''}")
    return "\n".join(lines) + "\n"


def text_report(results: list[PackageResult]) -> str:
    lines = ["", "package / singleton                                     refs  extract   inject    finish    mocks     time"]
    for result in sorted(results, key=lambda r: r.name.lower()):
        if result.status != "ok":
            lines.append(f"{result.name} {result.ref}: {result.status} {result.reason.splitlines()[0] if result.reason else ''}")
            continue
        lines.append(f"{result.name} {result.ref}: {result.singletons_found} singletons, baseline {result.baseline_seconds:.0f} s ({result.tests})")
        for singleton in result.singletons:
            kinds = []
            for step in STEPS:
                found = [s for s in singleton.steps if s.step == step]
                kinds.append((found[0].kind.upper() if found[0].kind == "wrong" else found[0].kind) if found else "-")
            lines.append(f"  {singleton.name[:52]:52} {singleton.references:5}  " + "  ".join(f"{k:8}" for k in kinds) + f"  {singleton.seconds:4.0f} s")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------------------------
# Main


def help_lists(binary: Path, command: str, flag: str) -> bool:
    result = run([str(binary), "help", command], REPO, 60)
    if flag not in result.output:
        result = run([str(binary), command, "--help"], REPO, 60)
    return flag in result.output


def checksum(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()[:16]


def tool_version(binary: Path) -> str:
    result = run([str(binary), "--version"], REPO, 60)
    return result.stdout.strip() or "unknown version"


def parse_arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=os.environ.get("DESINGLETON_BIN"), help="the desingleton binary (default: .build/release/desingleton)")
    parser.add_argument("--quick", action="store_true", help="only the packages marked quick in the list")
    parser.add_argument("--package", action="append", default=[], metavar="NAME", help="only packages whose OWNER/NAME contains NAME")
    parser.add_argument("--heavy", action="store_true", help="also the packages marked heavy (their builds alone take most of an hour)")
    parser.add_argument("--singleton", action="append", default=[], metavar="TYPE", help="only these singletons")
    parser.add_argument("-j", "--jobs", type=int, default=min(2, os.cpu_count() or 1), help="packages at the same time (at most 2)")
    parser.add_argument("--list", type=Path, default=LIST, help="the package list (default: Tests/Corpus/build-packages.txt)")
    parser.add_argument("--cache", type=Path, default=Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "desingleton-corpus-build",
                        help="state, logs and unpacked packages (default: ~/.cache/desingleton-corpus-build)")
    parser.add_argument("--fetched", type=Path, default=Path(os.environ.get("DESINGLETON_FETCHED", "/work/.mirror")),
                        help="where fetched repositories are, as OWNER+NAME/repo (default: /work/.mirror)")
    parser.add_argument("--fresh", action="store_true", help="forget what a previous run finished")
    parser.add_argument("--redo", action="append", default=[], metavar="NAME", help="forget what a previous run finished for packages whose OWNER/NAME contains NAME")
    parser.add_argument("--no-include-tests", dest="include_tests", action="store_false",
                        help="do not pass --include-tests to finish (by default it is passed: tests hold most references)")
    parser.add_argument("--build-timeout", type=float, default=1200)
    parser.add_argument("--test-timeout", type=float, default=900)
    parser.add_argument("--tool-timeout", type=float, default=600)
    parser.add_argument("--report-only", action="store_true", help="run nothing: print (and write) the results the state holds")
    parser.add_argument("--results", type=Path, help="also write the results table (Markdown) to this file")
    parser.add_argument("--json", type=Path, help="also write the results as JSON to this file")
    args = parser.parse_args(argv)
    if not 1 <= args.jobs <= 2:
        parser.error("-j must be 1 or 2 (the machine has two cores)")
    args.build_jobs = max(1, 2 // args.jobs)
    return args


def main(argv: list[str]) -> int:
    args = parse_arguments(argv)
    signal.signal(signal.SIGTERM, end_live_commands)
    signal.signal(signal.SIGINT, end_live_commands)
    start = time.monotonic()
    binary = Path(args.bin).resolve() if args.bin else REPO / ".build" / "release" / "desingleton"
    if not binary.is_file() or not os.access(binary, os.X_OK):
        print(f"corpus-build: no desingleton binary at {binary}; build it (make release) or pass --bin", file=sys.stderr)
        return 2
    entries = read_list(args.list)
    if args.quick:
        entries = [e for e in entries if e.quick]
    elif not args.heavy and not args.package:
        left = [e.name for e in entries if e.heavy]
        entries = [e for e in entries if not e.heavy]
        if left:
            print(f"corpus-build: left out (heavy; --heavy includes them): {', '.join(left)}")
    if args.package:
        entries = [e for e in entries if any(n.lower() in e.name.lower() for n in args.package)]
    if not entries:
        print("corpus-build: no package in the list matches", file=sys.stderr)
        return 2
    mirror = mirror_folder()
    if mirror is None:
        print("corpus-build: no offline package mirror (git config --get-regexp insteadof names no folder); "
              "dependencies resolve from the network")
    args.cache.mkdir(parents=True, exist_ok=True)
    state = State(args.cache / "state.json", checksum(binary) + ("+tests" if args.include_tests else ""), args.fresh)
    for name in args.redo:
        state.forget(name)
    log_dir = args.cache / "logs"
    no_verify = {command for command in ("extract-protocol", "inject", "finish", "mocks") if help_lists(binary, command, "--no-verify")}
    version = tool_version(binary)
    print(f"corpus-build: {len(entries)} packages, binary {binary} ({version}), {args.jobs} jobs (swift -j {args.build_jobs}), "
          f"--no-verify for: {', '.join(sorted(no_verify)) or 'none'}; state and logs in {args.cache}", flush=True)
    journey = Journey(args, binary, no_verify, mirror, state, log_dir)
    results: list[PackageResult] = []
    if args.report_only:
        for entry in entries:
            repository = find_repository(entry.name, mirror, args.fetched)
            ref = entry.ref if entry.ref != "latest" or repository is None else highest_tag(repository)
            saved = state.package(f"{entry.name}@{ref}")
            if saved.get("result"):
                result = package_from(saved["result"])
                if not saved.get("done"):
                    result.reason = (result.reason + "; " if result.reason else "") + "unfinished"
                results.append(result)
        entries = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(journey.check, entry) for entry in entries]
        for future in concurrent.futures.as_completed(futures):
            result = future.result()
            results.append(result)
            journey.say(result.name, f"done: {result.status}, {len(result.singletons)} singletons, {result.seconds:.0f} s")
    seconds = time.monotonic() - start
    print(text_report(results), end="")
    table = markdown(results, seconds, version, args.quick)
    wrong = sum(1 for r in results for s in r.singletons for step in s.steps if step.kind == "wrong")
    errors = [r for r in results if r.status == "error"]
    print(f"\n{wrong} WRONG, {len(errors)} harness errors, {seconds / 60:.1f} min; logs in {log_dir}")
    if args.results:
        args.results.write_text(table)
    if args.json:
        args.json.write_text(json.dumps([asdict(r) for r in results], indent=1) + "\n")
    return 1 if wrong or errors else 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:
        sys.exit(130)
