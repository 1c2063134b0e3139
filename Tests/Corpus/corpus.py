#!/usr/bin/env python3
"""Runs desingleton over real code nobody here wrote: the Swift packages of the offline package mirror.

For every package (the highest release tag, unpacked with `git archive` into a throw-away git repository):

  * `scan --format json` must exit 0 with valid JSON;
  * for every singleton found (up to a cap per package), each command below runs in `--dry-run`:
      scan --format json --singleton T             exit 0, JSON listing exactly T
      extract-protocol --singleton T               (the slices scan suggests)
      extract-protocol --singleton T --move-derived
      inject --all --singleton T                   on the package as it is, and again on the package with
                                                   the first extract-protocol diff applied
      extract-protocol --singleton T --slice ...   scan's printed command (its suggested slices): must be accepted
                                                   (a refusal is a failure), and on the tree with its diff applied,
                                                   `extract-protocol --singleton T` must plan nothing
    A command the binary does not list in its help is skipped with a note, and run once it exists.
    A command must exit 0 (a diff or nothing) or 1 (a refusal: nothing on stdout, and stderr made of
    compiler-style diagnostics, at least one an error, each inside its file when the file exists). Anything
    else (a signal, exit 2, a timeout) is a failure. A dry run must leave the tree untouched.
  * a diff must pass `git apply --check`; once applied, every changed .swift file must parse with no more
    errors than before (`swiftc -frontend -parse`), every new one with none; the same command run again on the
    applied tree must plan nothing (exit 0, empty diff). The tree is then restored.

The full run leaves out the packages with more than 9 MB of Swift (swift-protobuf, swift-syntax), tries at most
4 singletons a package and starts none after 150 s in a package, to stay near 15 minutes with a debug build on
two cores; `--all` lifts every limit (with a release build: `--all --bin .build/release/desingleton`).

Usage:
  python3 Tests/Corpus/corpus.py            # every package in the mirror (`make corpus`)
  python3 Tests/Corpus/corpus.py --quick    # a few small packages with singletons (`make test`)
  python3 Tests/Corpus/corpus.py --package swift-nio --package Quick   # just these

Exits 0 when every check passed (or the mirror is absent: the check is skipped with a message), 1 when any
failed, 2 on bad usage or a missing binary. Standard library only.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from harness import describe_exit, excerpt  # noqa: E402

REPO = Path(__file__).resolve().parents[2]

# Small packages that have singletons (and one that has none), for `--quick`. Matched case-insensitively on
# OWNER/NAME; the ones the mirror lacks are left out.
QUICK_PACKAGES = [
    "Quick/Quick",
    "apple/swift-metrics",
    "pointfreeco/combine-schedulers",
    "adam-fowler/compress-nio",
    "apple/swift-log",
]

DIAGNOSTIC = re.compile(r"^(?:(?P<path>.+?):(?P<line>\d+):(?P<column>\d+): )?(?P<severity>error|warning|note): (?P<message>.+)$")
SWIFTC_ERROR = re.compile(r"^(?P<path>.+?):\d+:\d+: error: ")
VERSION_TAG = re.compile(r"^v?(\d+(?:\.\d+)*)$")


# ---------------------------------------------------------------------------------------------------------------
# Results


@dataclass
class Outcome:
    """One command run on one package."""

    package: str
    command: list[str]
    kind: str  # "ok" (a scan), "diff", "nothing", "refused", "failure", "skipped"
    seconds: float = 0.0
    reason: str = ""  # refusals: the first error, names stripped; failures: what went wrong
    details: str = ""  # failures: exit code, stderr, diff excerpt
    diff_lines: int = 0
    after: str = ""  # the command whose applied diff this one ran on, if any

    @property
    def shell(self) -> str:
        line = " ".join(quote(part) for part in ["desingleton", *self.command])
        return line + (f"   (on the tree after: desingleton {self.after})" if self.after else "")


@dataclass
class PackageResult:
    name: str
    tag: str
    files: int = 0
    lines: int = 0
    singletons: int = 0
    singletons_tried: int = 0
    not_tried: list[str] = field(default_factory=list)
    not_tried_reason: str = ""
    syntax_warnings: list[str] = field(default_factory=list)
    outcomes: list[Outcome] = field(default_factory=list)
    seconds: float = 0.0

    def count(self, kind: str) -> int:
        return sum(1 for outcome in self.outcomes if outcome.kind == kind)


def quote(text: str) -> str:
    return text if re.fullmatch(r"[A-Za-z0-9_./=,:+-]+", text) else "'" + text.replace("'", "'\\''") + "'"


def strip_names(message: str) -> str:
    """A refusal message with the names taken out, so messages with the same reason group together."""
    message = re.sub(r"'[^']*'", "'…'", message)
    message = re.sub(r"\([^()]*\)", "(…)", message)
    message = re.sub(r"\b\d+\b", "N", message)
    return message.strip()


# ---------------------------------------------------------------------------------------------------------------
# The mirror


def mirror_folder() -> Path | None:
    """The folder the git config's `insteadOf` rules point at, if it exists."""
    try:
        output = subprocess.run(
            ["git", "config", "--get-regexp", "insteadof"], capture_output=True, text=True, timeout=30
        ).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    for line in output.splitlines():
        key = line.split(None, 1)[0]
        match = re.fullmatch(r"url\.(.+)\.insteadof", key, flags=re.IGNORECASE)
        if match and Path(match.group(1)).is_dir():
            return Path(match.group(1))
    return None


@dataclass
class Package:
    name: str  # OWNER/NAME as the mirror spells it (symlinked aliases resolved)
    repo: Path
    tag: str


def highest_tag(repo: Path) -> str | None:
    try:
        tags = subprocess.run(
            ["git", "-C", str(repo), "tag"], capture_output=True, text=True, timeout=60, check=True
        ).stdout.split()
    except (OSError, subprocess.SubprocessError):
        return None
    versions = [(tuple(int(part) for part in VERSION_TAG.match(tag).group(1).split(".")), tag) for tag in tags if VERSION_TAG.match(tag)]
    if versions:
        return max(versions)[1]
    return "HEAD"


def mirror_packages(folder: Path) -> list[Package]:
    seen: dict[Path, Package] = {}
    for repo in sorted(folder.glob("*/*.git")):
        real = repo.resolve()
        if real in seen or not real.is_dir():
            continue
        tag = highest_tag(real)
        if tag is None:
            continue
        seen[real] = Package(name=f"{real.parent.name}/{real.name[:-4]}", repo=real, tag=tag)
    return sorted(seen.values(), key=lambda package: package.name.lower())


# ---------------------------------------------------------------------------------------------------------------
# Running things


@dataclass
class Run:
    code: int | None  # None: timed out
    stdout: str
    stderr: str
    seconds: float


def run(argv: list[str], cwd: Path, timeout: float, stdin: str | None = None) -> Run:
    start = time.monotonic()
    try:
        process = subprocess.Popen(
            argv,
            cwd=cwd,
            stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
    except OSError as error:
        return Run(127, "", str(error), 0.0)
    try:
        out, err = process.communicate(input=stdin.encode() if stdin is not None else None, timeout=timeout)
        code: int | None = process.returncode
    except subprocess.TimeoutExpired:
        # Only this process (and its own group, if it made children) is ended.
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, err = process.communicate()
        code = None
    return Run(code, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"), time.monotonic() - start)


def git(cwd: Path, *args: str, stdin: str | None = None, check: bool = True) -> Run:
    result = run(
        ["git", "-c", "user.name=corpus", "-c", "user.email=corpus@localhost", "-c", "core.autocrlf=false", *args],
        cwd,
        600,
        stdin,
    )
    if check and result.code != 0:
        raise RuntimeError(f"git {' '.join(args)} failed in {cwd}: {result.stderr.strip()}")
    return result


def available_commands(binary: Path) -> set[str]:
    """The subcommands the binary lists in its help."""
    result = run([str(binary), "--help"], REPO, 60)
    commands: set[str] = set()
    in_list = False
    for line in result.stdout.splitlines():
        if line.strip() == "SUBCOMMANDS:":
            in_list = True
            continue
        if in_list:
            match = re.match(r"^  ([a-z][a-z0-9-]*)(?:\s{2,}|$)", line)
            if match:
                commands.add(match.group(1))
            elif line and not line.startswith(" "):
                in_list = False
    return commands






# ---------------------------------------------------------------------------------------------------------------
# Checks


class Checker:
    def __init__(self, args: argparse.Namespace, binary: Path, commands: set[str], swiftc: str | None, failures_dir: Path):
        self.args = args
        self.binary = binary
        self.commands = commands
        self.swiftc = swiftc
        self.failures_dir = failures_dir
        self.lock = threading.Lock()
        self.failure_count = 0

    # A single package --------------------------------------------------------------------------------------

    def check_package(self, package: Package, work: Path) -> PackageResult:
        start = time.monotonic()
        result = PackageResult(name=package.name, tag=package.tag)
        copy = work / package.name.replace("/", "__")
        if copy.exists():
            shutil.rmtree(copy)
        copy.mkdir(parents=True)
        try:
            self.unpack(package, copy)
            self.check_unpacked(package, copy, result)
        except Exception as error:  # a broken harness step is a failure too, never a silent pass
            result.outcomes.append(Outcome(package.name, [], "failure", reason="corpus harness error", details=str(error)))
        finally:
            if not self.args.keep:
                shutil.rmtree(copy, ignore_errors=True)
        result.seconds = time.monotonic() - start
        return result

    def unpack(self, package: Package, copy: Path) -> None:
        archive = subprocess.run(
            ["git", "-C", str(package.repo), "archive", "--format=tar", package.tag],
            capture_output=True,
            timeout=600,
        )
        if archive.returncode != 0:
            raise RuntimeError(f"git archive {package.tag} failed: {archive.stderr.decode(errors='replace').strip()}")
        extract = subprocess.run(["tar", "-x", "-C", str(copy)], input=archive.stdout, capture_output=True, timeout=600)
        if extract.returncode != 0:
            raise RuntimeError(f"tar failed: {extract.stderr.decode(errors='replace').strip()}")
        git(copy, "init", "-q")
        top = git(copy, "rev-parse", "--show-toplevel").stdout.strip()
        if Path(top).resolve() != copy.resolve():
            raise RuntimeError(f"git init in {copy} did not make a repository of its own (top level {top})")
        git(copy, "add", "-A", "-f", ".")
        git(copy, "commit", "-q", "--no-verify", "-m", f"{package.name} {package.tag}")

    def check_unpacked(self, package: Package, copy: Path, result: PackageResult) -> None:
        scan_command = ["scan", "--format", "json", "."]
        scan = run([str(self.binary), *scan_command], copy, self.args.scan_timeout)
        report = self.check_scan(package, copy, scan_command, scan, result)
        if report is None:
            return
        result.files = report.get("files", 0)
        result.lines = report.get("lines", 0)
        result.syntax_warnings = [warning for warning in report.get("warnings", []) if "syntax error" in warning]
        types = sorted(entry["type"] for entry in report["singletons"])
        result.singletons = len(types)
        # Later commands may take a few times as long as the scan, never forever.
        timeout = max(self.args.timeout, 4 * scan.seconds)
        chosen = spread(types, self.args.max_singletons)
        result.not_tried = [name for name in types if name not in chosen]
        if result.not_tried:
            result.not_tried_reason = f"at most {self.args.max_singletons} per package"
        budget_end = time.monotonic() + self.args.package_budget if self.args.package_budget else None
        for position, name in enumerate(chosen):
            if budget_end is not None and time.monotonic() > budget_end:
                result.not_tried += chosen[position:]
                result.not_tried_reason = (
                    (result.not_tried_reason + "; " if result.not_tried_reason else "")
                    + f"package time budget of {self.args.package_budget:.0f} s spent"
                )
                break
            result.singletons_tried += 1
            self.check_singleton(package, copy, name, timeout, result)
            entry = next(entry for entry in report["singletons"] if entry["type"] == name)
            self.check_scan_command(package, copy, name, entry.get("suggestedSlices", []), timeout, result)

    def check_scan(self, package: Package, copy: Path, command: list[str], scan: Run, result: PackageResult) -> dict | None:
        outcome = Outcome(package.name, command, "ok", seconds=scan.seconds)
        result.outcomes.append(outcome)
        if scan.code != 0:
            self.fail(outcome, f"scan {describe_exit(scan)}", scan)
            return None
        try:
            report = json.loads(scan.stdout)
            if not isinstance(report.get("singletons"), list) or not all(
                isinstance(entry.get("type"), str) for entry in report["singletons"]
            ):
                raise ValueError("no 'singletons' list of entries with a 'type'")
        except ValueError as error:
            self.fail(outcome, f"scan printed invalid JSON: {error}", scan)
            return None
        self.check_untouched(copy, outcome, scan)
        return report

    def check_singleton(self, package: Package, copy: Path, name: str, timeout: float, result: PackageResult) -> None:
        commands: list[list[str]] = [
            ["scan", "--format", "json", "--singleton", name, "."],
            ["extract-protocol", "--singleton", name, "--dry-run", "."],
            ["extract-protocol", "--singleton", name, "--move-derived", "--dry-run", "."],
            ["inject", "--all", "--singleton", name, "--dry-run", "."],
        ]
        for command in commands:
            if command[0] not in self.commands:
                result.outcomes.append(Outcome(package.name, command, "skipped", reason=f"no '{command[0]}' command in this build"))
                continue
            if command[0] == "scan":
                result.outcomes.append(self.check_single_scan(package, copy, command, name, timeout))
                continue
            # inject needs the protocols extract-protocol makes: run it again on the tree with that diff applied.
            then = [commands[3]] if command == commands[1] and commands[3][0] in self.commands else []
            result.outcomes.append(self.check_rewrite(package, copy, command, timeout, then=then, chained=result.outcomes))

    def check_scan_command(
        self, package: Package, copy: Path, name: str, slices: list[dict], timeout: float, result: PackageResult
    ) -> None:
        """The command scan prints (its suggested slices, named) must be accepted, and once applied, a default
        `extract-protocol` must plan nothing."""
        if not slices or "extract-protocol" not in self.commands:
            return
        command = ["extract-protocol", "--singleton", name]
        for entry in slices:
            command += ["--slice", f"{entry['name']}={','.join(entry['members'])}"]
        command += ["--dry-run", "."]
        default = ["extract-protocol", "--singleton", name, "--dry-run", "."]
        result.outcomes.append(
            self.check_rewrite(package, copy, command, timeout, then=[default], chained=result.outcomes,
                               refusal_fails=True, then_empty=True)
        )

    def check_single_scan(self, package: Package, copy: Path, command: list[str], name: str, timeout: float) -> Outcome:
        scan = run([str(self.binary), *command], copy, timeout)
        outcome = Outcome(package.name, command, "ok", seconds=scan.seconds)
        if scan.code == 1:
            self.check_refusal(copy, outcome, scan)
            return outcome
        if scan.code != 0:
            return self.fail(outcome, f"scan --singleton {describe_exit(scan)}", scan)
        try:
            report = json.loads(scan.stdout)
            listed = [entry.get("type") for entry in report.get("singletons", [])]
        except (ValueError, AttributeError) as error:
            return self.fail(outcome, f"scan --singleton printed invalid JSON: {error}", scan)
        if listed != [name]:
            return self.fail(outcome, f"scan --singleton lists {listed}, not just '{name}'", scan)
        self.check_untouched(copy, outcome, scan)
        return outcome

    def check_rewrite(
        self,
        package: Package,
        copy: Path,
        command: list[str],
        timeout: float,
        after: str = "",
        then: list[list[str]] | None = None,
        chained: list[Outcome] | None = None,
        refusal_fails: bool = False,
        then_empty: bool = False,
    ) -> Outcome:
        """Runs `command`; when it makes a diff that passes every check, runs each of `then` on the tree with
        the diff applied, adding their outcomes to `chained`. With `refusal_fails`, a refusal is a failure (scan's
        own command); with `then_empty`, each of `then` must plan nothing."""
        first = run([str(self.binary), *command], copy, timeout)
        outcome = Outcome(package.name, command, "nothing", seconds=first.seconds, after=after)
        if first.code == 1 and refusal_fails:
            return self.fail(outcome, "scan's printed command was refused", first)
        if first.code == 1:
            self.check_refusal(copy, outcome, first)
            return outcome
        if first.code != 0:
            return self.fail(outcome, f"{describe_exit(first)}", first)
        if not self.check_untouched(copy, outcome, first):
            return outcome
        if first.stdout == "":
            return outcome
        diff = first.stdout
        outcome.kind = "diff"
        outcome.diff_lines = diff.count("\n")
        if not diff.startswith("diff --git "):
            return self.fail(outcome, "exit 0 with output that is not a diff", first)
        try:
            self.check_diff(copy, command, diff, timeout, outcome, first)
            if outcome.kind != "failure" and then and chained is not None:
                git(copy, "add", "-A", "-f", ".")
                git(copy, "commit", "-q", "--no-verify", "-m", "applied: " + " ".join(command))
                try:
                    label = " ".join(quote(part) for part in command)
                    for next_command in then:
                        if then_empty:
                            chained.append(self.check_empty(package, copy, next_command, timeout, after=label))
                        else:
                            chained.append(self.check_rewrite(package, copy, next_command, timeout, after=label))
                finally:
                    git(copy, "reset", "-q", "--hard", "HEAD~1")
        finally:
            git(copy, "checkout", "-q", "--", ".", check=False)
            git(copy, "clean", "-fdxq", check=False)
        return outcome

    def check_empty(self, package: Package, copy: Path, command: list[str], timeout: float, after: str) -> Outcome:
        """`command` must exit 0 and plan nothing."""
        second = run([str(self.binary), *command], copy, timeout)
        outcome = Outcome(package.name, command, "nothing", seconds=second.seconds, after=after)
        if second.code != 0 or second.stdout != "":
            return self.fail(outcome, f"a default run after scan's command is not empty: {describe_exit(second)}", second,
                             extra=second.stdout)
        return outcome

    def check_diff(self, copy: Path, command: list[str], diff: str, timeout: float, outcome: Outcome, first: Run) -> None:
        check = git(copy, "apply", "--check", "-", stdin=diff, check=False)
        if check.code != 0:
            self.fail(outcome, "the diff does not pass 'git apply --check'", first, extra=check.stderr)
            return
        numstat = git(copy, "apply", "--numstat", "-", stdin=diff).stdout
        changed = [line.split("\t", 2)[2] for line in numstat.splitlines() if line.count("\t") >= 2]
        swift_files = [path for path in changed if path.endswith(".swift")]
        before = self.parse_errors(copy, [path for path in swift_files if (copy / path).is_file()])
        apply = git(copy, "apply", "-", stdin=diff, check=False)
        if apply.code != 0:
            self.fail(outcome, "'git apply' failed after '--check' passed", first, extra=apply.stderr)
            return
        after = self.parse_errors(copy, swift_files)
        if after is not None and before is not None:
            worse = [
                f"{path}: {before.get(path, 0)} -> {after.get(path, 0)} errors"
                for path in swift_files
                if after.get(path, 0) > before.get(path, 0)
            ]
            if worse:
                self.fail(outcome, "an output file has new syntax errors (swiftc -frontend -parse)", first, extra="\n".join(worse + [self.swiftc_output(copy, swift_files)]))
                return
        second = run([str(self.binary), *command], copy, timeout)
        if second.code != 0:
            self.fail(outcome, f"the second run on the applied diff did not plan nothing: {describe_exit(second)}", first, extra="second run:\n" + second.stderr + second.stdout)
            return
        if second.stdout != "":
            self.fail(outcome, "the second run on the applied diff plans more changes", first, extra="second diff:\n" + second.stdout)

    # Pieces ------------------------------------------------------------------------------------------------

    def check_refusal(self, copy: Path, outcome: Outcome, result: Run) -> bool:
        """Exit 1: nothing on stdout, every stderr line a diagnostic, at least one error, locations inside files."""
        outcome.kind = "refused"
        problems: list[str] = []
        errors: list[str] = []
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        for line in lines:
            match = DIAGNOSTIC.match(line)
            if not match:
                problems.append(f"not a diagnostic: {line!r}")
                continue
            if match.group("severity") == "error":
                errors.append(match.group("message"))
            if match.group("path") is not None:
                problem = location_problem(copy, match.group("path"), int(match.group("line")), int(match.group("column")))
                if problem:
                    problems.append(f"{problem}: {line!r}")
        if not errors:
            problems.append("no 'error:' diagnostic")
        if result.stdout.strip():
            problems.append("refused but printed output on stdout")
        outcome.reason = strip_names(errors[0]) if errors else ""
        if problems:
            self.fail(outcome, "a refusal that is not a proper diagnostic", result, extra="\n".join(problems))
            return False
        return self.check_untouched(copy, outcome, result)

    def check_untouched(self, copy: Path, outcome: Outcome, result: Run) -> bool:
        status = git(copy, "status", "--porcelain", "--ignored", "-uall").stdout
        if status.strip():
            self.fail(outcome, "a dry run changed the tree", result, extra=status)
            git(copy, "checkout", "-q", "--", ".", check=False)
            git(copy, "clean", "-fdxq", check=False)
            return False
        return True

    def parse_errors(self, copy: Path, paths: list[str]) -> dict[str, int] | None:
        """Syntax errors per file, as the compiler's parser counts them; None without a compiler."""
        if self.swiftc is None:
            return None
        counts = {path: 0 for path in paths}
        for chunk in (paths[i : i + 50] for i in range(0, len(paths), 50)):
            output = run([self.swiftc, "-frontend", "-parse", "-diagnostic-style", "llvm", *chunk], copy, 300)
            for line in output.stderr.splitlines():
                match = SWIFTC_ERROR.match(line)
                if match and match.group("path") in counts:
                    counts[match.group("path")] += 1
        return counts

    def swiftc_output(self, copy: Path, paths: list[str]) -> str:
        if self.swiftc is None:
            return ""
        output = run([self.swiftc, "-frontend", "-parse", "-diagnostic-style", "llvm", *paths], copy, 300)
        return "\n".join(line for line in output.stderr.splitlines() if ": error: " in line)

    def fail(self, outcome: Outcome, reason: str, result: Run, extra: str = "") -> Outcome:
        outcome.kind = "failure"
        outcome.reason = reason
        parts = [f"{describe_exit(result)} after {result.seconds:.1f} s"]
        if result.stderr.strip():
            parts.append("stderr:\n" + excerpt(result.stderr))
        if extra.strip():
            parts.append(excerpt(extra, 60))
        if result.stdout.strip() and outcome.command and outcome.command[0] != "scan":
            parts.append("stdout:\n" + excerpt(result.stdout, 30))
        outcome.details = "\n".join(parts)
        with self.lock:
            self.failure_count += 1
            number = self.failure_count
        try:
            self.failures_dir.mkdir(parents=True, exist_ok=True)
            record = self.failures_dir / f"{number:03d}-{outcome.package.replace('/', '__')}.txt"
            record.write_text(
                f"{outcome.package}\n{outcome.shell}\n{reason}\n\n{outcome.details}\n\n--- stdout ---\n{result.stdout}"
                f"\n--- stderr ---\n{result.stderr}\n"
            )
        except OSError:
            pass
        return outcome


def location_problem(copy: Path, path: str, line: int, column: int) -> str | None:
    file = Path(path) if Path(path).is_absolute() else copy / path
    if not file.exists():
        return None  # a file the command would have created
    if not file.is_file():
        return f"the diagnostic names something that is not a file ({path})"
    lines = file.read_bytes().split(b"\n")
    if line < 1 or line > len(lines):
        return f"line {line} is outside the file ({len(lines)} lines)"
    if column < 1 or column > len(lines[line - 1].rstrip(b"\r")) + 1:
        return f"column {column} is outside line {line}"
    return None


def command_shape(command: list[str]) -> str:
    """The command without its singleton and path: `extract-protocol --move-derived --dry-run`."""
    shape: list[str] = []
    skip = False
    for part in command:
        if skip:
            skip = False
        elif part == "--singleton":
            skip = True
        elif part == "--slice":
            # scan's command: its slices differ for every singleton.
            skip = True
            if "--slice…" not in shape:
                shape.append("--slice…")
        elif part != ".":
            shape.append(part)
    return " ".join(shape)


def spread(items: list[str], limit: int) -> list[str]:
    """At most `limit` items, evenly spaced over the sorted list (always the same ones)."""
    if limit <= 0 or len(items) <= limit:
        return list(items)
    if limit == 1:
        return [items[0]]
    step = (len(items) - 1) / (limit - 1)
    return [items[round(i * step)] for i in range(limit)]


# ---------------------------------------------------------------------------------------------------------------
# Report


def report(results: list[PackageResult], seconds: float, notes: list[str]) -> str:
    outcomes = [outcome for result in results for outcome in result.outcomes]
    run_outcomes = [outcome for outcome in outcomes if outcome.kind != "skipped"]
    lines: list[str] = []
    add = lines.append
    add("")
    add("desingleton corpus check")
    add("=" * 24)
    add(f"packages:    {len(results)}")
    add(f"files:       {sum(result.files for result in results)}")
    add(f"lines:       {sum(result.lines for result in results)}")
    add(f"singletons:  {sum(result.singletons for result in results)} found, {sum(result.singletons_tried for result in results)} tried")
    skipped_count = len(outcomes) - len(run_outcomes)
    add(f"commands:    {len(run_outcomes)} run" + (f", {skipped_count} skipped" if skipped_count else ""))
    add(f"scans:       {sum(1 for outcome in outcomes if outcome.kind == 'ok')} (exit 0, valid JSON)")
    add(f"diffs:       {sum(1 for outcome in outcomes if outcome.kind == 'diff')} (each applied, re-parsed and run again)")
    add(f"nothing:     {sum(1 for outcome in outcomes if outcome.kind == 'nothing')} (exit 0, nothing to change)")
    add(f"refusals:    {sum(1 for outcome in outcomes if outcome.kind == 'refused')}")
    add(f"failures:    {sum(1 for outcome in outcomes if outcome.kind == 'failure')}")
    printed = [outcome for outcome in outcomes if "--slice" in outcome.command and not outcome.after]
    printed_failed = sum(1 for outcome in printed if outcome.kind == "failure")
    add(f"scan's commands: {len(printed)} run, {len(printed) - printed_failed} accepted and idempotent "
        f"(then a default run plans nothing), {printed_failed} failures")
    add(f"files with syntax errors (scan warnings): {sum(len(result.syntax_warnings) for result in results)}")
    add(f"time:        {seconds:.1f} s")

    by_command: dict[str, dict[str, int]] = {}
    for outcome in run_outcomes:
        key = command_shape(outcome.command) + (f" (after {command_shape(outcome.after.split())})" if outcome.after else "")
        counts = by_command.setdefault(key, {})
        counts[outcome.kind] = counts.get(outcome.kind, 0) + 1
    if by_command:
        add("")
        add("by command:")
        for key in sorted(by_command):
            counts = by_command[key]
            add(f"  {key}: " + ", ".join(f"{counts[kind]} {kind}" for kind in ("ok", "diff", "nothing", "refused", "failure") if kind in counts))

    refusals: dict[str, int] = {}
    for outcome in outcomes:
        if outcome.kind == "refused":
            refusals[outcome.reason] = refusals.get(outcome.reason, 0) + 1
    if refusals:
        add("")
        add("refusals by reason:")
        for reason, count in sorted(refusals.items(), key=lambda item: (-item[1], item[0])):
            add(f"  {count:5d}  {reason}")

    skipped = sorted({outcome.reason for outcome in outcomes if outcome.kind == "skipped"})
    capped = [result for result in results if result.not_tried]
    if skipped or capped or notes:
        add("")
        add("not run:")
        for note in notes:
            add(f"  {note}")
        for reason in skipped:
            count = sum(1 for outcome in outcomes if outcome.kind == "skipped" and outcome.reason == reason)
            add(f"  {count} commands skipped: {reason}")
        for result in capped:
            add(f"  {result.name}: {len(result.not_tried)} of {result.singletons} singletons not tried ({result.not_tried_reason})")

    warned = [(result.name, warning) for result in results for warning in result.syntax_warnings]
    if warned:
        add("")
        add("files scan reports with syntax errors (skipped in part; worth a look: real errors, or the parser?):")
        for name, warning in sorted(warned):
            add(f"  {name}: {warning}")

    add("")
    add("packages:")
    for result in sorted(results, key=lambda result: result.name.lower()):
        add(
            f"  {result.name} {result.tag}: {result.files} files, {result.lines} lines, {result.singletons} singletons, "
            f"{len([o for o in result.outcomes if o.kind != 'skipped'])} commands, {result.count('diff')} diffs, "
            f"{result.count('refused')} refusals, {result.count('failure')} failures, {result.seconds:.1f} s"
        )

    failures = [outcome for outcome in outcomes if outcome.kind == "failure"]
    if failures:
        add("")
        add(f"FAILURES ({len(failures)}):")
        for outcome in failures:
            add("")
            add(f"- {outcome.package}: {outcome.shell}")
            add(f"  {outcome.reason}")
            add(outcome.details)
    add("")
    add("FAILED" if failures else "PASSED")
    return "\n".join(lines) + "\n"


def json_report(results: list[PackageResult], seconds: float) -> dict:
    return {
        "seconds": round(seconds, 1),
        "packages": [
            {
                "name": result.name,
                "tag": result.tag,
                "files": result.files,
                "lines": result.lines,
                "singletons": result.singletons,
                "singletonsTried": result.singletons_tried,
                "notTried": result.not_tried,
                "seconds": round(result.seconds, 1),
                "outcomes": [
                    {
                        "command": outcome.command,
                        "after": outcome.after,
                        "kind": outcome.kind,
                        "reason": outcome.reason,
                        "details": outcome.details,
                        "seconds": round(outcome.seconds, 2),
                        "diffLines": outcome.diff_lines,
                    }
                    for outcome in result.outcomes
                ],
            }
            for result in results
        ],
    }


# ---------------------------------------------------------------------------------------------------------------
# Main


def find_swiftc() -> str | None:
    found = shutil.which("swiftc")
    if found:
        return found
    swift = shutil.which("swift")
    if swift and (Path(swift).parent / "swiftc").exists():
        return str(Path(swift).parent / "swiftc")
    return None


def parse_arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="a few small packages with singletons (what `make test` runs)")
    parser.add_argument("--package", action="append", default=[], metavar="NAME", help="only packages whose OWNER/NAME contains NAME (repeatable)")
    parser.add_argument("--bin", default=os.environ.get("DESINGLETON_BIN"), help="the desingleton binary (default: $DESINGLETON_BIN or .build/debug/desingleton)")
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1), help="packages checked at the same time (default: 2 or the cores, if fewer)")
    parser.add_argument("--timeout", type=float, default=120, help="seconds one command may take, at least (default 120; 4x the package's scan time if longer)")
    parser.add_argument("--scan-timeout", type=float, default=900, help="seconds the first scan of a package may take (default 900)")
    parser.add_argument("--max-singletons", type=int, default=None, help="singletons tried per package, evenly spread (default: 3 quick, 4 full; 0 = all)")
    parser.add_argument("--package-budget", type=float, default=None, help="seconds per package after which no further singleton is started (default: none quick, 150 full; 0 = none)")
    parser.add_argument("--max-megabytes", type=float, default=None, help="leave out packages with more Swift source than this (default: none quick, 9 full, where a debug build would take most of the time on swift-protobuf and swift-syntax; 0 = no limit)")
    parser.add_argument("--all", action="store_true", help="no limits: every package, every singleton, no time budget (same as --max-megabytes 0 --max-singletons 0 --package-budget 0)")
    parser.add_argument("--work-dir", default=None, help="where packages are unpacked (default: .build-corpus-work in the repository)")
    parser.add_argument("--keep", action="store_true", help="keep the unpacked packages")
    parser.add_argument("--json", metavar="FILE", help="also write the results as JSON to FILE")
    args = parser.parse_args(argv)
    if args.all:
        args.max_singletons, args.package_budget, args.max_megabytes = 0, 0, 0
    if args.max_singletons is None:
        args.max_singletons = 3 if args.quick else 4
    if args.package_budget is None:
        args.package_budget = 0 if args.quick else 150
    if args.max_megabytes is None:
        args.max_megabytes = 0 if args.quick else 9
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    return args


def main(argv: list[str]) -> int:
    args = parse_arguments(argv)
    start = time.monotonic()
    folder = mirror_folder()
    if folder is None:
        print("corpus: no offline package mirror (git config --get-regexp insteadof names no folder); skipped")
        return 0
    binary = Path(args.bin).resolve() if args.bin else REPO / ".build" / "debug" / "desingleton"
    if not binary.is_file() or not os.access(binary, os.X_OK):
        print(f"corpus: no desingleton binary at {binary}; build it first (make build) or pass --bin", file=sys.stderr)
        return 2
    commands = available_commands(binary)
    if "scan" not in commands:
        print(f"corpus: {binary} --help lists no 'scan' command (found: {sorted(commands)})", file=sys.stderr)
        return 2

    packages = mirror_packages(folder)
    if args.quick and not args.package:
        wanted = [name.lower() for name in QUICK_PACKAGES]
        packages = sorted((p for p in packages if p.name.lower() in wanted), key=lambda p: wanted.index(p.name.lower()))
    if args.package:
        packages = [p for p in packages if any(name.lower() in p.name.lower() for name in args.package)]
        if not packages:
            print(f"corpus: no package in the mirror at {folder} matches {', '.join(args.package)}", file=sys.stderr)
            return 2
    if not packages:
        print(f"corpus: the mirror at {folder} holds none of the packages asked for; skipped")
        return 0

    sizes = {package.name: swift_bytes(package) for package in packages}
    left_out: list[str] = []
    if args.max_megabytes:
        limit = args.max_megabytes * 1_000_000
        for package in packages:
            if sizes[package.name] > limit:
                left_out.append(
                    f"{package.name} {package.tag}: left out, {sizes[package.name] / 1e6:.1f} MB of Swift "
                    f"(more than --max-megabytes {args.max_megabytes:g}; --all includes it)"
                )
        packages = [package for package in packages if sizes[package.name] <= limit]

    work = Path(args.work_dir) if args.work_dir else REPO / ".build-corpus-work"
    work.mkdir(parents=True, exist_ok=True)
    run_dir = Path(tempfile.mkdtemp(prefix="run-", dir=work))
    failures_dir = run_dir / "failures"
    notes = list(left_out)
    swiftc = find_swiftc()
    if swiftc is None:
        notes.append("no swiftc on PATH: outputs were not re-parsed by the compiler")

    mode = "quick" if args.quick else "full"
    print(
        f"corpus ({mode}): {len(packages)} packages from {folder}{f' ({len(left_out)} left out)' if left_out else ''}, binary {binary}, {args.jobs} jobs, "
        f"commands: {', '.join(sorted(commands))}",
        flush=True,
    )
    checker = Checker(args, binary, commands, swiftc, failures_dir)
    results: list[PackageResult] = []
    # Biggest first, so a large package does not start last and hold up the end.
    order = sorted(packages, key=lambda p: -sizes[p.name])
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {pool.submit(checker.check_package, package, run_dir): package for package in order}
        for done, future in enumerate(concurrent.futures.as_completed(futures), 1):
            result = future.result()
            results.append(result)
            print(
                f"[{done}/{len(packages)}] {result.name} {result.tag}: {result.files} files, {result.lines} lines, "
                f"{result.singletons} singletons, {result.count('diff')} diffs, {result.count('refused')} refusals, "
                f"{result.count('failure')} failures ({result.seconds:.1f} s)",
                flush=True,
            )
    seconds = time.monotonic() - start
    text = report(results, seconds, notes)
    print(text, end="")
    if args.json:
        Path(args.json).write_text(json.dumps(json_report(results, seconds), indent=2) + "\n")
    failed = any(outcome.kind == "failure" for result in results for outcome in result.outcomes)
    if failed:
        print(f"failure records: {failures_dir}")
    elif not args.keep:
        shutil.rmtree(run_dir, ignore_errors=True)
    return 1 if failed else 0


def swift_bytes(package: Package) -> int:
    """The size of the package's Swift files at its tag: how long the tool will take on it, roughly."""
    listing = run(["git", "-C", str(package.repo), "ls-tree", "-r", "-l", package.tag], REPO, 120).stdout
    total = 0
    for line in listing.splitlines():
        meta, _, path = line.partition("\t")
        parts = meta.split()
        if path.endswith(".swift") and len(parts) == 4 and parts[3].isdigit():
            total += int(parts[3])
    return total


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:
        sys.exit(130)
