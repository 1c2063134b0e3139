#!/usr/bin/env python3
"""Runs the whole desingleton journey on real iOS and macOS apps, and checks what holds without Apple's SDKs.

The apps (Tests/RealApps/apps.txt: `owner/name commit`) do not build on Linux, so nothing here compiles
them; instead every step is held to invariants. For each app, the commit is unpacked with `git archive`
into a throw-away git repository (TEMP/app, committed), `scan --format json` lists the singletons, and for
every singleton with at least 10 references (`--min-references`) the journey runs on a fresh copy of the
app, one commit per step:

  extract   scan's printed `desingleton extract-protocol ... --slice ...` command, pasted through
            `/bin/sh -c` exactly as printed (so it must be shell-safe)
  inject    inject --all --singleton T
  finish    finish --singleton T (no --root: it lists what is left), then every command it suggests
            (`'desingleton inject ...'`, a `--root`), each a step of its own. A binary whose finish
            still requires --root (exit 2 without it, reported once) gets the app's @main types instead
  mocks     mocks --singleton T

A write command whose `--help` lists `--no-verify` gets it (these apps cannot be built here).
After every step:

  exit       exit 0, or 1 (a refusal: at least one `path:line:col: error:` or `error:` line, locations
             inside their files, and the tree unchanged); a signal, exit 2 or a timeout is a violation
  parse      every changed or new .swift file parses (`swiftc -frontend -parse`) with no more errors
             than before
  import     every `import X` the step added names a module of the app: a SwiftPM target (any
             Package.swift), an Xcode target's module (PRODUCT_MODULE_NAME, else the product or target
             name made a C99 identifier), a system module, or one the app already imports somewhere
  new-file   a new file lies in a folder that existed before (or a project.pbxproj now names it, or it is
             below an Xcode synchronized folder or a SwiftPM target's folder), and in an Xcode project it is
             in the same targets as some file beside it
  outside    nothing is created or changed outside the app (its temp folder's other entries, HOME and
             TMPDIR are watched; both point into the temp folder)
  rerun      the same command run again changes nothing
  references the accessor's reference count outside composition roots, entry points and tests (`scan
             --format json --census --singleton T`'s referencesOutsideRootsAndTests: roots and entry points are where
             finish puts the instance, tests get their own) never grows; the count outside tests alone is
             shown beside it
  suggested  every command finish suggests changes something (no refusal, no "nothing to change")
  printed    scan's printed extract-protocol command is accepted (the README promises it; a refusal counts)

Before the journeys, `scan --format json` runs twice on the app: the two reports must be the same byte
for byte (check `deterministic`).

Not a check but measured: the last `finish` of each journey either succeeds, or lists only what finish may
still list after `inject --all` (consumers inject skipped, each with its reason; static contexts; types the
system creates and required inits that keep their parameters; tests; Objective-C), or says something else; the report counts the three and shows the last.

Output: a table per app (singletons tried, steps ok / refused / violations, time) and every violation with
file:line and the check; `--results FILE` also writes it as Markdown. Logs of each violation's command are
kept under the work folder (printed at the end).

Usage:
  python3 Tests/RealApps/realapps.py                              # every app in apps.txt (`make realapps`)
  python3 Tests/RealApps/realapps.py --app iina/iina --bin /path/to/desingleton
  python3 Tests/RealApps/realapps.py --max-singletons 2 --app-budget 600 --results Tests/RealApps/results.md

The mirror is --mirror DIR, else $DESINGLETON_MIRROR, else /work/.mirror (OWNER+NAME/repo, or any git
directory below OWNER+NAME); an app not there is listed as "not fetched" and skipped.
Exits 0 when no violation was found, 1 when any was, 2 on bad usage or a missing binary. Standard library only.
"""

from __future__ import annotations

import argparse
import json
import os
import posixpath
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from harness import describe_exit, excerpt  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(REPO / "Tests" / "Xcode"))
import pbxproj  # noqa: E402  (Tests/Xcode/pbxproj.py: an independent reader of Xcode projects)

# Entries of `/` that change on their own (or hold this run): not watched.
VOLATILE_ROOT = {"proc", "sys", "dev", "run", "tmp", "var", "work", "root", "home", "mnt", "media", "lost+found"}
# Big system folders: only their own entry is watched, not what they hold.
DEEP_ROOT = {"usr", "opt", "lib", "lib64", "bin", "sbin", "etc", "boot", "srv", "nix", "snap"}
SWIFTC_ERROR = re.compile(r"^(?P<path>.+?):(?P<line>\d+):\d+: error: ")
LOCATED_ERROR = re.compile(r"^(?P<path>[^\s:][^:]*):(?P<line>\d+):(?P<column>\d+): error: ")
PLAIN_ERROR = re.compile(r"^(?:desingleton: )?error: ")
IMPORT = re.compile(
    r"^\s*(?:@[A-Za-z_]+(?:\([^)]*\))?\s+)*import\s+"
    r"(?:(?:typealias|struct|class|enum|protocol|let|var|func|actor)\s+)?`?(?P<module>[A-Za-z_][A-Za-z0-9_]*)"
)
HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+(?P<start>\d+)(?:,\d+)? @@")
QUOTED_COMMAND = re.compile(r"'(desingleton [^']+)'")
LINE_COMMAND = re.compile(r"^\s*(?:\$\s+)?(desingleton\s+[a-z-]+\b.*?)\s*$")
ROOT_HINT = re.compile(r"--root\s+([A-Za-z_][A-Za-z0-9_.]*)")
NOTHING = re.compile(r"nothing to (?:change|do)", re.IGNORECASE)

# Modules of Apple's SDKs and the Swift toolchain that an app may import without declaring them.
SYSTEM_MODULES = set(
    """
    Foundation FoundationNetworking FoundationEssentials UIKit SwiftUI SwiftUICore Combine AppKit Cocoa CoreData
    CoreGraphics CoreLocation CoreLocationUI MapKit AVFoundation AVFAudio AVKit AVRouting Photos PhotosUI StoreKit
    WebKit SafariServices UserNotifications UserNotificationsUI WidgetKit Intents IntentsUI AppIntents CloudKit
    Security LocalAuthentication AuthenticationServices CryptoKit CommonCrypto Network NetworkExtension
    SystemConfiguration QuartzCore Quartz CoreImage CoreMedia CoreVideo CoreAudio CoreAudioKit AudioToolbox
    AudioUnit MediaPlayer MessageUI Messages Contacts ContactsUI EventKit EventKitUI HealthKit HealthKitUI HomeKit
    WatchKit WatchConnectivity ClockKit CoreMotion CoreBluetooth CoreNFC CoreSpotlight CoreServices
    MobileCoreServices UniformTypeIdentifiers QuickLook QuickLookUI QuickLookThumbnailing PDFKit Vision VisionKit
    CoreML NaturalLanguage Speech SpriteKit SceneKit ARKit RealityKit Metal MetalKit MetalPerformanceShaders
    GameKit GameplayKit GameController os OSLog Dispatch Darwin ObjectiveC Swift _Concurrency _StringProcessing
    Observation SwiftData Charts BackgroundTasks LinkPresentation NotificationCenter FileProvider FileProviderUI
    CarPlay CallKit PushKit IOKit ServiceManagement Carbon ApplicationServices CoreText ImageIO Accelerate XCTest
    Testing TipKit ActivityKit CoreTelephony AdSupport AppTrackingTransparency iAd Social Accounts GLKit OpenGLES
    OpenGL CoreHaptics MultipeerConnectivity PassKit ExternalAccessory JavaScriptCore Synchronization
    RegexBuilder Distributed Glibc Musl WinSDK XCUIAutomation DeveloperToolsSupport ScreenCaptureKit MusicKit
    ShazamKit DeviceCheck CoreTransferable GroupActivities ExtensionFoundation ExtensionKit SystemExtensions
    DiskArbitration IOBluetooth CoreWLAN MediaAccessibility VideoToolbox SensitiveContentAnalysis Translation
    StoreKitTest CoreFoundation CFNetwork DataDetection EventKitUI LocalAuthenticationEmbeddedUI
    MediaToolbox ModelIO NearbyInteraction PencilKit ReplayKit SafetyKit SharedWithYou SoundAnalysis UserNotifications
    WeatherKit ManagedSettings FamilyControls DeviceActivity Cocoa IOSurface CoreDisplay
    """.split()
)

STEP_ORDER = ["extract", "inject", "finish", "suggested", "mocks"]


# ---------------------------------------------------------------------------------------------------------------
# Processes


@dataclass
class Run:
    code: int | None  # None: timed out
    stdout: str
    stderr: str
    seconds: float


def run(argv: list[str], cwd: Path, timeout: float, env: dict | None = None) -> Run:
    start = time.monotonic()
    try:
        process = subprocess.Popen(
            argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            start_new_session=True,
        )
    except OSError as error:
        return Run(127, "", str(error), 0.0)
    try:
        out, err = process.communicate(timeout=timeout)
        code: int | None = process.returncode
    except subprocess.TimeoutExpired:
        try:
            os.killpg(process.pid, signal.SIGKILL)  # only the process this script started, and its group
        except ProcessLookupError:
            pass
        out, err = process.communicate()
        code = None
    return Run(code, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"), time.monotonic() - start)


def git(cwd: Path, *args: str, check: bool = True, timeout: float = 900) -> Run:
    result = run(
        ["git", "-c", "user.name=realapps", "-c", "user.email=realapps@localhost", "-c", "core.autocrlf=false",
         "-c", "core.quotepath=off", "-c", "commit.gpgsign=false", *args],
        cwd, timeout,
    )
    if check and result.code != 0:
        raise RuntimeError(f"git {' '.join(args)} failed in {cwd}: {result.stderr.strip()}")
    return result






# ---------------------------------------------------------------------------------------------------------------
# Results


@dataclass
class Violation:
    app: str
    singleton: str
    step: str
    check: str
    location: str  # file:line, or "-"
    detail: str
    log: str = ""


@dataclass
class AppResult:
    name: str
    commit: str
    note: str = ""
    swift_files: int = 0
    swift_lines: int = 0
    singletons: int = 0
    eligible: int = 0
    tried: list[str] = field(default_factory=list)
    not_tried: list[str] = field(default_factory=list)
    steps_ok: int = 0
    steps_refused: int = 0
    steps_violating: int = 0
    seconds: float = 0.0
    scan_seconds: float = 0.0
    violations: list[Violation] = field(default_factory=list)
    journeys: list[str] = field(default_factory=list)  # one line per singleton: what each step did
    finishes: list[tuple[str, str, list[str]]] = field(default_factory=list)  # (singleton, outcome, lines not listed)


# ---------------------------------------------------------------------------------------------------------------
# What the app declares


def c99_identifier(name: str) -> str:
    ident = re.sub(r"[^A-Za-z0-9_]", "_", name)
    return "_" + ident if ident[:1].isdigit() else ident


def resolve_setting(value: str, target: str, product: str) -> list[str]:
    value = value.replace("$(TARGET_NAME)", target).replace("${TARGET_NAME}", target)
    value = value.replace("$(PRODUCT_NAME)", product).replace("${PRODUCT_NAME}", product)
    value = re.sub(r"\$\((\w+):[^)]*\)", r"$(\1)", value)
    if "$" in value:
        return []  # set from elsewhere (an xcconfig): the target and product names stand in
    return [value]


@dataclass
class XcodeProject:
    folder: str  # relative to the app: the folder holding the .xcodeproj
    pbxproj: str  # relative path of project.pbxproj
    modules: set[str]
    products: set[str]
    membership: dict[str, set[str]]  # app-relative file -> targets (explicit files)
    folders: list[tuple[str, str, set[str]]]  # (app-relative folder, target, exceptions as app-relative paths)
    included: dict[str, set[str]]  # files a synchronized folder's exception adds to a target not using the folder


def read_xcode_project(app: Path, relative: str) -> XcodeProject | None:
    try:
        root, _ = pbxproj.read(app / relative)
        described = pbxproj.describe(app / relative)
    except (SystemExit, Exception):  # an unreadable project: reported as a note by the caller
        return None
    folder = posixpath.dirname(posixpath.dirname(relative))
    objects = root["objects"]
    modules: set[str] = set()
    products: set[str] = set()
    for obj in objects.values():
        isa = obj.get("isa")
        if isa in ("PBXNativeTarget", "PBXAggregateTarget", "PBXLegacyTarget"):
            name = obj.get("name", "")
            product = obj.get("productName", name)
            candidates = {name, product}
            config_list = objects.get(obj.get("buildConfigurationList", ""), {})
            for config_id in config_list.get("buildConfigurations", []):
                settings = objects.get(config_id, {}).get("buildSettings", {})
                product_setting = settings.get("PRODUCT_NAME")
                if isinstance(product_setting, str):
                    for value in resolve_setting(product_setting, name, product):
                        candidates.add(value)
                module_setting = settings.get("PRODUCT_MODULE_NAME")
                if isinstance(module_setting, str):
                    candidates.update(resolve_setting(module_setting, name, product))
            modules.update(c99_identifier(c) for c in candidates if c)
        elif isa == "XCSwiftPackageProductDependency" and obj.get("productName"):
            products.add(obj["productName"])

    def rel(path: str) -> str:
        return posixpath.normpath(posixpath.join(folder, path)) if folder else posixpath.normpath(path)

    membership: dict[str, set[str]] = {}
    folders: list[tuple[str, str, set[str]]] = []
    for target, info in described["targets"].items():
        for path in info["files"]:
            membership.setdefault(rel(path), set()).add(target)
        for sync in info["folders"]:
            if sync["path"] is None:
                continue
            base = rel(sync["path"])
            folders.append((base, target, {posixpath.normpath(posixpath.join(base, e)) for e in sync["exceptions"]}))
    return XcodeProject(folder, relative, modules, products, membership, folders, {})


def targets_of(projects: list[XcodeProject], path: str) -> set[str]:
    """The Xcode targets (as PROJECT:TARGET) whose Sources hold the app-relative path."""
    found: set[str] = set()
    for project in projects:
        for target in project.membership.get(path, set()):
            found.add(f"{project.pbxproj}:{target}")
        for base, target, exceptions in project.folders:
            if (path == base or path.startswith(base + "/")) and path not in exceptions:
                found.add(f"{project.pbxproj}:{target}")
    return found


PACKAGE_NAME = re.compile(r"\b(?:name|product|package)\s*:\s*\"([^\"]+)\"")
PACKAGE_TARGET = re.compile(r"\.(?:target|executableTarget|testTarget|macro|binaryTarget|systemLibrary|plugin)\(\s*name\s*:\s*\"([^\"]+)\"")


@dataclass
class AppModel:
    modules: set[str]  # names an added import may use
    packages: list[str]  # folders holding a Package.swift (app-relative, "" for the root)
    projects: list[XcodeProject]
    notes: list[str]
    entry_points: list[str] = field(default_factory=list)  # @main / @UIApplicationMain / @NSApplicationMain types


ENTRY_POINT = re.compile(
    r"^\s*@(?:main|UIApplicationMain|NSApplicationMain)\b[^\n]*?\n?(?:\s*@\w+(?:\([^)]*\))?\s*)*"
    r"\s*(?:(?:public|internal|final|open|private|fileprivate)\s+)*(?:struct|class|enum|actor)\s+([A-Za-z_][A-Za-z0-9_]*)",
    re.MULTILINE,
)

APP_DELEGATE = re.compile(r"\b(?:class|struct)\s+([A-Za-z_][A-Za-z0-9_]*)\s*:[^{]*\b(?:UIApplicationDelegate|NSApplicationDelegate)\b")


def read_app(app: Path, files: list[str]) -> AppModel:
    modules = set(SYSTEM_MODULES)
    packages: list[str] = []
    projects: list[XcodeProject] = []
    notes: list[str] = []
    entry_points: list[str] = []
    delegates: list[str] = []
    for path in files:
        name = posixpath.basename(path)
        if name == "Package.swift" or re.fullmatch(r"Package@swift-[\d.]+\.swift", name):
            packages.append(posixpath.dirname(path))
            text = (app / path).read_text(encoding="utf-8", errors="replace")
            modules.update(PACKAGE_TARGET.findall(text))
            modules.update(c99_identifier(n) for n in PACKAGE_NAME.findall(text))
        elif path.endswith(".xcodeproj/project.pbxproj"):
            project = read_xcode_project(app, path)
            if project is None:
                notes.append(f"{path}: not readable by Tests/Xcode/pbxproj.py; its targets are unknown")
                continue
            projects.append(project)
            modules.update(project.modules)
            modules.update(c99_identifier(p) for p in project.products)
        elif path.endswith(".swift"):
            try:
                text = (app / path).read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            for line in text.splitlines():
                match = IMPORT.match(line)
                if match:
                    modules.add(match.group("module"))
            if not re.search(r"(^|/)(Tests?|UITests|[^/]*Tests)/", path):
                if "@main" in text or "ApplicationMain" in text:
                    entry_points.extend(ENTRY_POINT.findall(text))
                delegates.extend(APP_DELEGATE.findall(text))
    unique = sorted(set(entry_points)) or sorted(set(delegates))
    return AppModel(modules, sorted(set(packages)), projects, notes, unique)


def in_package(model: AppModel, path: str) -> bool:
    return package_of(model, path) is not None


def package_of(model: AppModel, path: str) -> str | None:
    """The folder of the innermost Package.swift above the path, or None."""
    found = [p for p in model.packages if p == "" or path.startswith(p + "/")]
    return max(found, key=len) if found else None


# ---------------------------------------------------------------------------------------------------------------
# The journey


@dataclass
class Context:
    args: argparse.Namespace
    binary: Path
    no_verify: dict[str, bool]
    swiftc: str | None
    logs: Path
    finish_needs_root: bool = False
    # Whether `scan` takes --census (it then gives the count outside roots, entry points and tests).
    scan_census: bool = False
    log_count: int = 0


@dataclass
class StepResult:
    kind: str  # ok, changed, refused, violation
    changed: bool = False
    run: Run | None = None


class Journey:
    def __init__(self, ctx: Context, result: AppResult, model: AppModel, temp: Path, app: Path, singleton: dict, env: dict):
        self.ctx = ctx
        self.result = result
        self.model = model
        self.temp = temp
        self.app = app
        self.entry = singleton
        self.name = singleton["type"] + (f" ({singleton['module']})" if singleton.get("module") else "")
        self.env = env
        self.references = singleton.get("references", 0)
        self.counted = self.references
        self.summary: list[str] = []

    # -- checks --------------------------------------------------------------------------------------------

    def violation(self, step: str, check: str, location: str, detail: str, run_: Run | None = None, command: str = "") -> None:
        log = ""
        if run_ is not None or command:
            self.ctx.log_count += 1
            slug = re.sub(r"[^A-Za-z0-9]+", "-", f"{self.result.name}-{self.entry['type']}-{step}-{check}")[:90]
            path = self.ctx.logs / f"{self.ctx.log_count:03d}-{slug}.txt"
            body = f"{self.result.name} {self.result.commit}\nsingleton {self.name}\nstep {step}: {command}\ncheck {check}: {detail}\n"
            if run_ is not None:
                body += f"{describe_exit(run_)} after {run_.seconds:.1f} s\n--- stdout ---\n{run_.stdout}\n--- stderr ---\n{run_.stderr}\n"
            path.write_text(body)
            log = str(path)
        self.result.violations.append(Violation(self.result.name, self.name, step, check, location, detail, log))

    def outside_listing(self) -> dict[str, tuple[int, int]]:
        """Every entry of the temp folder outside the app (and HOME, TMPDIR inside it), with size and mtime."""
        listing: dict[str, tuple[int, int]] = {}
        for root, dirs, files in os.walk(self.temp):
            if Path(root) == self.temp and "app" in dirs:
                dirs.remove("app")
            if Path(root) == self.temp and "before" in dirs:
                dirs.remove("before")  # this script's own scratch space
            for name in dirs + files:
                full = Path(root) / name
                try:
                    info = full.lstat()
                except OSError:
                    continue
                listing[str(full.relative_to(self.temp))] = (info.st_size, info.st_mtime_ns)
        return listing

    def root_listing(self) -> dict[str, int]:
        """The filesystem root's entries and the entries of its quiet folders: a path the tool resolved
        against `/` instead of the app (`/Mocks/...`) shows up here as a new entry."""
        listing: dict[str, int] = {}
        for name in sorted(os.listdir("/")):
            if name in VOLATILE_ROOT:
                continue
            path = "/" + name
            try:
                info = os.lstat(path)
            except OSError:
                continue
            listing[path] = info.st_mtime_ns
            if os.path.isdir(path) and not os.path.islink(path) and name not in DEEP_ROOT:
                try:
                    for child in os.listdir(path):
                        try:
                            listing[f"{path}/{child}"] = os.lstat(f"{path}/{child}").st_mtime_ns
                        except OSError:
                            pass
                except OSError:
                    pass
        return listing

    def status(self) -> str:
        return git(self.app, "status", "--porcelain", "--ignored", "-uall").stdout

    def reset(self) -> None:
        git(self.app, "reset", "-q", "--hard")
        git(self.app, "clean", "-fdxq")

    def parse_errors(self, paths: list[str], base: Path) -> dict[str, list[str]]:
        """swiftc -frontend -parse errors per file (paths relative to base)."""
        errors: dict[str, list[str]] = {path: [] for path in paths}
        if self.ctx.swiftc is None:
            return errors
        for chunk in (paths[i : i + 40] for i in range(0, len(paths), 40)):
            output = run([self.ctx.swiftc, "-frontend", "-parse", "-diagnostic-style", "llvm", *chunk], base, 600)
            for line in output.stderr.splitlines():
                match = SWIFTC_ERROR.match(line)
                if match and match.group("path") in errors:
                    errors[match.group("path")].append(line)
        return errors

    def check_refusal(self, step: str, command: str, result: Run) -> bool:
        ok = True
        lines = [line for line in result.stderr.splitlines() if line.strip()] + [
            line for line in result.stdout.splitlines() if line.strip()
        ]
        errors = [line for line in lines if LOCATED_ERROR.match(line) or PLAIN_ERROR.match(line)]
        if not errors:
            self.violation(step, "exit", "-", "exit 1 without a `path:line:col: error:` or `error:` line", result, command)
            ok = False
        for line in errors:
            match = LOCATED_ERROR.match(line)
            if not match:
                continue
            path, number = match.group("path"), int(match.group("line"))
            file = Path(path) if Path(path).is_absolute() else self.app / path
            if file.is_file():
                count = len(file.read_bytes().split(b"\n"))
                if number < 1 or number > count:
                    self.violation(step, "exit", f"{path}:{number}", f"refusal points past the end of the file ({count} lines): {line[:200]}", result, command)
                    ok = False
        status = self.status()
        if status.strip():
            self.violation(step, "exit", "-", "refused (exit 1) but changed the tree:\n" + excerpt(status, 10), result, command)
            ok = False
            self.reset()
        return ok

    def added_imports(self, diff: str) -> list[tuple[str, int, str]]:
        """(file, line, module) for each import line the diff adds that it does not also remove in the same file."""
        found: list[tuple[str, int, str]] = []
        file = None
        line_number = 0
        removed: dict[str, set[str]] = {}
        added: list[tuple[str, int, str, str]] = []
        for line in diff.splitlines():
            if line.startswith("+++ "):
                file = line[6:] if line.startswith("+++ b/") else None
                continue
            if line.startswith("--- "):
                continue
            hunk = HUNK.match(line)
            if hunk:
                line_number = int(hunk.group("start"))
                continue
            if file is None:
                continue
            if line.startswith("+"):
                match = IMPORT.match(line[1:])
                if match:
                    added.append((file, line_number, match.group("module"), line[1:].strip()))
                line_number += 1
            elif line.startswith("-"):
                match = IMPORT.match(line[1:])
                if match:
                    removed.setdefault(file, set()).add(line[1:].strip())
            else:
                line_number += 1
        for file_, number, module, text in added:
            if text in removed.get(file_, set()):
                continue
            found.append((file_, number, module))
        return found

    def check_change(self, step: str, command: str, result: Run, outside_before: dict) -> None:
        """After a step that changed the tree (staged): parse, import, new-file checks."""
        names = git(self.app, "diff", "--cached", "--no-renames", "--name-status", "HEAD").stdout
        changed: list[str] = []
        created: list[str] = []
        for line in names.splitlines():
            status, _, path = line.partition("\t")
            if status.startswith("A"):
                created.append(path)
            elif status.startswith("M"):
                changed.append(path)
        swift_changed = [p for p in changed if p.endswith(".swift")]
        swift_created = [p for p in created if p.endswith(".swift")]
        # parse
        if swift_changed or swift_created:
            before_dir = self.temp / "before"
            shutil.rmtree(before_dir, ignore_errors=True)
            for path in swift_changed:
                blob = run(["git", "show", f"HEAD:{path}"], self.app, 120)
                target = before_dir / path
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(blob.stdout.encode("utf-8", "surrogateescape"))
            before = self.parse_errors(swift_changed, before_dir) if swift_changed else {}
            after = self.parse_errors(swift_changed + swift_created, self.app)
            for path in swift_changed + swift_created:
                was = len(before.get(path, []))
                now = after.get(path, [])
                if len(now) > was:
                    first = SWIFTC_ERROR.match(now[0])
                    location = f"{path}:{first.group('line')}" if first else path
                    self.violation(step, "parse", location, f"{len(now)} parse errors after the step, {was} before: {now[0][:300]}", result, command)
            shutil.rmtree(before_dir, ignore_errors=True)
        # import
        diff = git(self.app, "diff", "--cached", "--no-renames", "-U0", "--no-color", "HEAD", "--", "*.swift").stdout
        for path, number, module in self.added_imports(diff):
            if module not in self.model.modules:
                self.violation(step, "import", f"{path}:{number}", f"adds `import {module}`, a module the app does not declare or import anywhere", result, command)
        # new-file
        tracked_before = set(git(self.app, "ls-tree", "-r", "--name-only", "HEAD").stdout.splitlines())
        folders_before = {posixpath.dirname(p) for p in tracked_before}
        folders_before = {prefix for folder in folders_before for prefix in prefixes(folder)}
        pbx_changed = [p for p in changed if p.endswith("project.pbxproj")]
        projects_after = self.model.projects
        if pbx_changed:
            projects_after = []
            for project in self.model.projects:
                fresh = read_xcode_project(self.app, project.pbxproj) if project.pbxproj in pbx_changed else project
                if fresh is None:
                    self.violation(step, "new-file", f"{project.pbxproj}:1", "the rewritten project.pbxproj no longer reads", result, command)
                    fresh = project
                projects_after.append(fresh)
        for path in created:
            folder = posixpath.dirname(path)
            named = any(posixpath.basename(path) in (self.app / p).read_text(errors="replace") for p in pbx_changed)
            package = package_of(self.model, path)
            if package is not None:
                # SwiftPM compiles a target's folder and everything below it: a new subfolder (`Mocks/`) of a
                # folder that existed inside the package (`Tests/EnvTests`) is in that target.
                depth = len(package.split("/")) if package else 0
                target_folders = [p for p in prefixes(folder) if p and len(p.split("/")) >= depth + 2]
                if folder not in folders_before and not any(p in folders_before for p in target_folders):
                    self.violation(step, "new-file", f"{path}:1", f"new file in '{folder}', below no folder of a target of the package at '{package or '.'}'", result, command)
                continue
            if folder not in folders_before and not named and not targets_of(projects_after, path):
                self.violation(step, "new-file", f"{path}:1", f"new file in a new folder '{folder or '.'}' that no project.pbxproj names", result, command)
                continue
            if not path.endswith(".swift") or in_package(self.model, path) or not self.model.projects:
                continue
            siblings = [p for p in tracked_before if posixpath.dirname(p) == folder and p.endswith(".swift")]
            if not siblings and folder not in folders_before:
                # A new subfolder of a synchronized folder: its files are the folder's targets' files; compare
                # with the Swift files of the nearest folder above that has some.
                for above in reversed(prefixes(folder)[:-1]):
                    siblings = [p for p in tracked_before if posixpath.dirname(p) == above and p.endswith(".swift")]
                    if siblings:
                        break
            sibling_targets = [targets_of(self.model.projects, p) for p in siblings]
            sibling_targets = [t for t in sibling_targets if t]
            mine = targets_of(projects_after, path)
            if not mine and (sibling_targets or named):
                self.violation(step, "new-file", f"{path}:1", "new Swift file in no Xcode target, while files beside it are in " + ", ".join(sorted(short_targets(sibling_targets[0] if sibling_targets else set()))), result, command)
            elif mine and sibling_targets and mine not in sibling_targets:
                self.violation(step, "new-file", f"{path}:1", f"new Swift file in targets {sorted(short_targets(mine))}, no file beside it is in exactly those (e.g. {sorted(short_targets(sibling_targets[0]))})", result, command)
            elif mine and not sibling_targets and not siblings:
                pass  # a folder of its own (an Xcode-only folder holding no Swift yet): nothing to compare with
        # outside
        self.check_outside(step, command, result, outside_before)

    def snapshot(self) -> tuple[dict, dict]:
        return self.outside_listing(), self.root_listing()

    def check_outside(self, step: str, command: str, result: Run, outside_before: tuple[dict, dict]) -> None:
        before_temp, before_root = outside_before
        after_root = self.root_listing()
        # Only new entries: other programs on the machine change their own files under / all the time.
        new_root = sorted(set(after_root) - set(before_root))
        if new_root:
            self.violation(step, "outside", new_root[0] + ":1", "written outside the app, under /: " + ", ".join("new " + p for p in new_root[:8]), result, command)
        after = self.outside_listing()
        new = sorted(set(after) - set(before_temp))
        touched = sorted(p for p in set(after) & set(before_temp) if after[p] != before_temp[p] and not Path(self.temp / p).is_dir())
        if new or touched:
            self.violation(step, "outside", new[0] if new else touched[0], "outside the app: " + ", ".join((["new " + p for p in new] + ["changed " + p for p in touched])[:8]), result, command)

    def reference_count(self) -> tuple[int, int] | None:
        """(references outside tests, references outside composition roots, entry points and tests).

        The second is the count a migration never raises: roots and entry points are where `finish`
        puts the instance, and tests get their own. A binary whose scan does not give it
        (`referencesOutsideRootsAndTests`, with --census) is held to the first."""
        census = ["--census"] if self.ctx.scan_census else []
        scan = run([str(self.ctx.binary), "scan", "--format", "json", *census, "--singleton", self.entry["type"]], self.app, self.ctx.args.timeout, self.env)
        if scan.code not in (0, 1):
            return None
        try:
            document = json.loads(scan.stdout)
        except json.JSONDecodeError:
            return (0, 0) if scan.code == 1 else None
        raw = counted = 0
        for entry in document.get("singletons", []):
            if entry.get("type") == self.entry["type"] and entry.get("module") == self.entry.get("module"):
                # Tests hand the instance to what they create once consumers are injected: their
                # uses may grow (finish --include-tests gives each test its own instance).
                tests = sum(consumer.get("references", 0) for consumer in entry.get("consumers", []) if consumer.get("test"))
                raw += entry.get("references", 0) - tests
                counted += entry.get("referencesOutsideRootsAndTests", entry.get("references", 0) - tests)
        return raw, counted

    # -- steps ---------------------------------------------------------------------------------------------

    def shell_command(self, printed: str, subcommand: str) -> str:
        """A printed `desingleton ...` command, made to run this binary, with --no-verify when it has one."""
        text = printed.strip()
        rest = text[len("desingleton"):]
        extra = " --no-verify" if self.ctx.no_verify.get(subcommand) else ""
        return shlex.quote(str(self.ctx.binary)) + rest + extra

    def argv_command(self, argv: list[str]) -> list[str]:
        extra = ["--no-verify"] if self.ctx.no_verify.get(argv[0]) else []
        return [str(self.ctx.binary), *argv, *extra]

    def execute(self, command: list[str] | str) -> Run:
        if isinstance(command, str):
            return run(["/bin/sh", "-c", command], self.app, self.ctx.args.timeout, self.env)
        return run(command, self.app, self.ctx.args.timeout, self.env)

    def step(self, step: str, command: list[str] | str, must_change: bool = False, must_accept: bool = False) -> StepResult:
        shown = command if isinstance(command, str) else " ".join(shlex.quote(c) for c in command)
        shown = shown.replace(str(self.ctx.binary), "desingleton")
        outside_before = self.snapshot()
        result = self.execute(command)
        record = f"{step} {describe_exit(result)} {result.seconds:.1f}s"
        if result.code not in (0, 1):
            self.violation(step, "exit", "-", f"{describe_exit(result)} after {result.seconds:.0f} s", result, shown)
            self.reset()
            self.result.steps_violating += 1
            self.summary.append(record + " VIOLATION")
            return StepResult("violation", run=result)
        if result.code == 1:
            ok = self.check_refusal(step, shown, result)
            self.check_outside(step, shown, result, outside_before)
            first = next((l for l in result.stderr.splitlines() if "error:" in l), "")
            if must_change:
                self.violation(step, "suggested", "-", "a command finish suggested was refused: " + first[:200], result, shown)
                ok = False
            if must_accept:
                self.violation(step, "printed", "-", "scan's printed command was refused: " + first[:300], result, shown)
                ok = False
            if ok:
                self.result.steps_refused += 1
            else:
                self.result.steps_violating += 1
            self.summary.append(record + " refused: " + short(first))
            return StepResult("refused" if ok else "violation", run=result)
        count_before = len(self.result.violations)
        git(self.app, "add", "-A", "-f")
        staged = git(self.app, "diff", "--cached", "--quiet", "HEAD", check=False).code == 1
        if not staged:
            self.check_outside(step, shown, result, outside_before)
            if must_change:
                said = "it said nothing to change" if NOTHING.search(result.stderr + result.stdout) else "it changed no file"
                self.violation(step, "suggested", "-", f"a command finish suggested did nothing ({said})", result, shown)
            said = next((l for l in (result.stderr + result.stdout).splitlines() if l.strip()), "")
            self.summary.append(record + " (no change" + (f": {short(said, 100)}" if said else "") + ")")
            ok = len(self.result.violations) == count_before
            self.result.steps_ok += ok
            self.result.steps_violating += not ok
            return StepResult("ok" if ok else "violation", changed=False, run=result)
        self.check_change(step, shown, result, outside_before)
        git(self.app, "commit", "-q", "--no-verify", "-m", f"{step}: {shown}")
        # rerun
        again = self.execute(command)
        if again.code not in (0, 1):
            self.violation(step, "rerun", "-", f"the second run: {describe_exit(again)}", again, shown)
            self.reset()
        else:
            status = self.status()
            if status.strip():
                files = [line[3:] for line in status.splitlines()]
                self.violation(step, "rerun", f"{files[0]}:1", f"the second run changed {len(files)} file(s) again: {', '.join(files[:5])}", again, shown)
                self.reset()
        # references
        counts = self.reference_count()
        if counts is None:
            self.violation(step, "references", "-", "scan --format json --singleton failed after the step", None, shown)
        else:
            raw, count = counts
            if count > self.counted:
                self.violation(step, "references", "-", f"accessor references outside roots, entry points and tests grew from {self.counted} to {count}", result, shown)
            record += f" refs {self.references}->{raw} (outside roots {self.counted}->{count})"
            self.references, self.counted = raw, count
        ok = len(self.result.violations) == count_before
        self.result.steps_ok += ok
        self.result.steps_violating += not ok
        files = git(self.app, "show", "--name-only", "--format=", "HEAD").stdout.split()
        self.summary.append(record + f" changed {len(files)} file(s)" + ("" if ok else " VIOLATION"))
        return StepResult("ok" if ok else "violation", changed=True, run=result)

    def go(self, printed: str) -> None:
        t = self.entry["type"]
        # The count to compare with is the one the same command gives (the whole scan's can differ: an
        # implicit `.default` it cannot place counts there, not in a scan of one singleton).
        counts = self.reference_count()
        if counts is not None:
            start, self.counted = counts
            if start != self.references:
                self.summary.append(f"refs {self.references} (scan) / {start} (scan --singleton)")
            self.references = start
        first = self.step("extract", self.shell_command(printed, "extract-protocol"), must_accept=True)
        if first.run is None or first.run.code != 0 or not first.changed:
            return  # refused, crashed or did nothing: the later steps have nothing to work on
        self.step("inject", self.argv_command(["inject", "--all", "--singleton", t]))
        if self.ctx.finish_needs_root and not self.model.entry_points:
            self.summary.append("finish: not run (this binary needs --root, and the app has no @main type or app delegate)")
            finish = None
        elif self.ctx.finish_needs_root:
            # This binary's finish takes no run without --root: the app's entry points stand in.
            roots = [arg for root in self.model.entry_points for arg in ("--root", root)]
            finish = self.step("finish", self.argv_command(["finish", "--singleton", t, *roots]))
        else:
            finish = self.step("finish", self.argv_command(["finish", "--singleton", t]))
        last_finish = finish
        if finish is not None and finish.run is not None and finish.run.code in (0, 1):
            suggestions = suggested_commands(finish.run.stdout + "\n" + finish.run.stderr, t)
            for suggestion in suggestions[: self.ctx.args.max_suggestions]:
                subcommand = suggestion.split()[1] if len(suggestion.split()) > 1 else ""
                taken = self.step("suggested", self.shell_command(suggestion, subcommand), must_change=True)
                if subcommand == "finish":
                    last_finish = taken
            if len(suggestions) > self.ctx.args.max_suggestions:
                self.summary.append(f"suggested: {len(suggestions) - self.ctx.args.max_suggestions} more not run")
        if last_finish is not None and last_finish.run is not None:
            outcome, others = finish_outcome(last_finish.run)
            self.result.finishes.append((self.name, outcome, others))
        self.step("mocks", self.argv_command(["mocks", "--singleton", t]))


# What `finish` may still list once `inject --all` has run: uses no tool can move yet, each with its reason.
FINISH_LISTED = [
    ("skipped consumer", re.compile(r"is still used by a consumer not yet injected '[^']+'; 'inject --type [^']+' cannot take it yet: ")),
    ("static context", re.compile(r"is still used by (a static context|top-level code)")),
    # A required init a superclass, protocol or metatype creation needs as it is takes the instance as a
    # coder init does: what creates the type that way passes nothing.
    ("framework-created", re.compile(r"is still used by (a type the system creates|a required init\?\(coder:\)|a required init that must keep its parameters)")),
    ("test", re.compile(r"is (still )?used by a test")),
    ("Objective-C", re.compile(r"Objective-C code uses ")),
    # Another singleton's accessor (or a property set after creation) makes it: both go in one
    # `finish --singleton A --singleton B`, printed when that can be planned.
    ("made together", re.compile(r"a singleton made with it \(in its accessor, or a property set after creation\): they can only be finished together")),
]
CONSUMER_LINE = re.compile(r"is still used by a consumer not yet injected '([^']+)'")


def finish_outcome(result: Run) -> tuple[str, list[str]]:
    """`finished` (exit 0); `listed` (every error is a use finish may still list: a consumer inject skipped
    with its reason, a static context, a type the system creates, a test, Objective-C, another singleton
    made with it); `next step` (besides
    those, consumers `inject --all` left for the spread rule, each with the `inject --type` that takes it);
    else `other`, with the errors that are none of these."""
    if result.code == 0:
        return "finished", []
    errors = [line for line in result.stderr.splitlines() if re.search(r"(^|: )error: ", line)]

    def consumers(pattern: str) -> set[str]:
        return {m.group(1) for line in errors if re.search(pattern, line) for m in [CONSUMER_LINE.search(line)] if m}

    # A consumer's reason, or the command that takes it, is given on its first line only.
    explained = consumers(FINISH_LISTED[0][1].pattern)
    takeable = consumers(r"; run 'desingleton inject ")
    others, next_steps = [], False
    for line in errors:
        consumer = CONSUMER_LINE.search(line)
        if consumer and consumer.group(1) in explained:
            continue
        if consumer and consumer.group(1) in takeable:
            next_steps = True
            continue
        if not consumer and any(pattern.search(line) for _, pattern in FINISH_LISTED[1:]):
            continue
        others.append(re.sub(r"^.*?error: ", "", line))
    if not errors or others:
        return "other", others
    return ("next step" if next_steps else "listed"), []


def suggested_commands(text: str, singleton: str) -> list[str]:
    """The `desingleton ...` commands finish's output suggests, in order, once each; a bare `--root X` hint
    becomes `desingleton finish --singleton T --root X`."""
    found: list[str] = []
    for line in text.splitlines():
        quoted = QUOTED_COMMAND.findall(line)
        for command in quoted:
            found.append(command.strip())
        if not quoted:
            match = LINE_COMMAND.match(line)
            if match and not line.lstrip().lower().startswith("usage:"):
                found.append(match.group(1))
            else:
                for root in ROOT_HINT.findall(line):
                    found.append(f"desingleton finish --singleton {singleton} --root {root}")
    unique: list[str] = []
    for command in found:
        if command not in unique and re.match(r"desingleton (inject|finish|extract-protocol|mocks)\b", command):
            unique.append(command)
    return unique


def prefixes(folder: str) -> list[str]:
    parts = folder.split("/") if folder else []
    return [""] + ["/".join(parts[: i + 1]) for i in range(len(parts))]


def short_targets(targets: set[str]) -> set[str]:
    return {t.rsplit(":", 1)[-1] for t in targets}


def short(text: str, limit: int = 110) -> str:
    text = re.sub(r"^.*?error: ", "", text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


# ---------------------------------------------------------------------------------------------------------------
# Apps


@dataclass
class App:
    name: str
    commit: str


def read_apps(path: Path) -> list[App]:
    apps: list[App] = []
    for line in path.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.split()
        apps.append(App(parts[0], parts[1] if len(parts) > 1 else "HEAD"))
    return apps


def find_git_dir(mirror: Path, name: str) -> Path | None:
    folder = mirror / name.replace("/", "+")
    if not folder.is_dir():
        return None
    candidates = [folder / "repo", folder] + sorted(p for p in folder.rglob("*") if p.is_dir() and (p / "HEAD").is_file() and (p / "objects").is_dir())
    for candidate in candidates:
        if (candidate / "HEAD").is_file() and (candidate / "objects").is_dir():
            return candidate
    return None


def missing_blobs(git_dir: Path, commit: str) -> list[str]:
    """Paths at the commit whose blobs the (partial) snapshot does not hold."""
    listing = run(["git", "--git-dir", str(git_dir), "ls-tree", "-r", "-z", commit], REPO, 300).stdout
    entries = []
    for item in listing.split("\0"):
        meta, _, path = item.partition("\t")
        parts = meta.split()
        if len(parts) == 3 and parts[1] == "blob":
            entries.append((parts[2], path))
    if not entries:
        return []
    check = subprocess.run(
        ["git", "--git-dir", str(git_dir), "cat-file", "--batch-check"],
        input="\n".join(oid for oid, _ in entries) + "\n", capture_output=True, text=True,
    )
    lines = check.stdout.splitlines()
    return [path for (oid, path), line in zip(entries, lines) if line.endswith(" missing")]


def unpack(git_dir: Path, commit: str, into: Path) -> list[str]:
    """The commit's files into `into`, but those the snapshot lacks (its largest: images, archives),
    which are returned."""
    missing = missing_blobs(git_dir, commit)
    excludes = [f":(exclude,literal){path}" for path in missing]
    archive = subprocess.Popen(
        ["git", "--git-dir", str(git_dir), "archive", "--format=tar", commit, "--", ".", *excludes],
        stdout=subprocess.PIPE,
    )
    subprocess.run(["tar", "-x", "-C", str(into)], stdin=archive.stdout, check=True)
    if archive.wait() != 0:
        raise RuntimeError(f"git archive {commit} failed in {git_dir}")
    return missing


def swift_bytes(git_dir: Path | None, commit: str) -> int:
    if git_dir is None:
        return 0
    listing = run(["git", "--git-dir", str(git_dir), "ls-tree", "-r", "-l", commit], REPO, 120).stdout
    total = 0
    for line in listing.splitlines():
        meta, _, path = line.partition("\t")
        parts = meta.split()
        if path.endswith(".swift") and len(parts) == 4 and parts[3].isdigit():
            total += int(parts[3])
    return total


def printed_commands(text: str) -> dict[tuple[str, str | None], str]:
    """scan's printed extract-protocol commands, by (singleton, module)."""
    commands: dict[tuple[str, str | None], str] = {}
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped.startswith("desingleton extract-protocol "):
            continue
        singleton = re.search(r"--singleton (\S+)", stripped)
        module = re.search(r"--module (\S+)", stripped)
        if singleton:
            commands[(singleton.group(1), module.group(1) if module else None)] = stripped
    return commands


def check_app(ctx: Context, app: App, git_dir: Path) -> AppResult:
    args = ctx.args
    start = time.monotonic()
    result = AppResult(app.name, app.commit)
    commit = git(git_dir, "rev-parse", "--verify", "--quiet", f"{app.commit}^{{commit}}", check=False)
    if commit.code != 0:
        result.note = f"commit {app.commit} is not in {git_dir}; fetch again (the mirror may hold a newer snapshot)"
        return result
    result.commit = commit.stdout.strip()
    temp = Path(tempfile.mkdtemp(prefix="realapps-", dir=args.work_dir))
    try:
        app_dir = temp / "app"
        app_dir.mkdir()
        (temp / "home").mkdir()
        (temp / "tmp").mkdir()
        missing = unpack(git_dir, result.commit, app_dir)
        if missing:
            notes_missing = f"{len(missing)} file(s) absent from the snapshot, left out ({', '.join(missing[:2])}{', ...' if len(missing) > 2 else ''})"
        else:
            notes_missing = ""
        git(app_dir, "init", "-q")
        git(app_dir, "add", "-A", "-f")
        git(app_dir, "commit", "-q", "--no-verify", "-m", f"{app.name} {result.commit}")
        git(app_dir, "tag", "base")
        files = git(app_dir, "ls-files").stdout.splitlines()
        swift = [f for f in files if f.endswith(".swift")]
        result.swift_files = len(swift)
        result.swift_lines = sum((app_dir / f).read_bytes().count(b"\n") for f in swift if (app_dir / f).is_file())
        model = read_app(app_dir, files)
        env = dict(os.environ, HOME=str(temp / "home"), TMPDIR=str(temp / "tmp"))

        scan = run([str(ctx.binary), "scan", "--format", "json"], app_dir, args.scan_timeout, env)
        result.scan_seconds = scan.seconds
        placeholder = Journey(ctx, result, model, temp, app_dir, {"type": "(scan)", "references": 0}, env)
        if scan.code != 0:
            placeholder.violation("scan", "exit", "-", f"scan --format json: {describe_exit(scan)}", scan, "desingleton scan --format json")
            result.steps_violating += 1
            return result
        try:
            document = json.loads(scan.stdout)
        except json.JSONDecodeError as error:
            placeholder.violation("scan", "exit", "-", f"scan --format json printed no JSON: {error}", scan, "desingleton scan --format json")
            result.steps_violating += 1
            return result
        # The same code scanned again gives the same report, byte for byte (hash seeds, thread
        # timing and set orders differ from one process to the next).
        again = run([str(ctx.binary), "scan", "--format", "json"], app_dir, args.scan_timeout, env)
        if again.code == 0 and again.stdout != scan.stdout:
            placeholder.violation("scan", "deterministic", "-", "a second scan --format json printed another report", again, "desingleton scan --format json")
            result.steps_violating += 1
        text = run([str(ctx.binary), "scan"], app_dir, args.scan_timeout, env)
        commands = printed_commands(text.stdout)
        singletons = document.get("singletons", [])
        result.singletons = len(singletons)
        eligible = sorted(
            (s for s in singletons if s.get("references", 0) >= args.min_references),
            key=lambda s: (-s.get("references", 0), s["type"]),
        )
        result.eligible = len(eligible)
        for index, entry in enumerate(eligible):
            label = entry["type"] + (f" ({entry['module']})" if entry.get("module") else "")
            if args.max_singletons and len(result.tried) >= args.max_singletons:
                result.not_tried.append(f"{label}: over --max-singletons {args.max_singletons}")
                continue
            if args.app_budget and time.monotonic() - start > args.app_budget:
                result.not_tried.append(f"{label}: over --app-budget {args.app_budget:g} s")
                continue
            printed = commands.get((entry["type"], entry.get("module")))
            if printed is None:
                reason = entry.get("note") or "no suggested slice"
                result.not_tried.append(f"{label}: scan prints no extract-protocol command ({short(reason, 90)})")
                continue
            git(app_dir, "checkout", "-q", "-f", "-B", f"journey-{index}", "base")
            git(app_dir, "clean", "-fdxq")
            journey = Journey(ctx, result, model, temp, app_dir, entry, env)
            began = time.monotonic()
            journey.go(printed)
            result.tried.append(label)
            result.journeys.append(f"{label} [{entry.get('references', 0)} refs, {time.monotonic() - began:.0f} s]: " + "; ".join(journey.summary))
            print(f"  {result.journeys[-1]}", flush=True)
        result.note = "; ".join(model.notes + ([notes_missing] if notes_missing else []))
    finally:
        result.seconds = time.monotonic() - start
        if args.keep:
            print(f"  kept {temp}")
        else:
            shutil.rmtree(temp, ignore_errors=True)
    return result


# ---------------------------------------------------------------------------------------------------------------
# Report


def report(results: list[AppResult], missing: list[str], seconds: float, ctx: Context, tool_commit: str) -> str:
    out: list[str] = []
    out.append(f"binary: {ctx.binary} (tool commit {tool_commit}); --no-verify: "
               + (", ".join(sorted(k for k, v in ctx.no_verify.items() if v)) or "not offered by any command"))
    out.append(f"singletons with at least {ctx.args.min_references} references; timeout {ctx.args.timeout:g} s a command; total {seconds / 60:.1f} min")
    out.append("")
    out.append("| app | commit | Swift files / lines | singletons (≥{} refs) | tried | steps ok | refused | violations | scan | time |".format(ctx.args.min_references))
    out.append("|---|---|---|---|---|---|---|---|---|---|")
    for r in results:
        out.append(
            f"| {r.name} | {r.commit[:10]} | {r.swift_files} / {r.swift_lines} | {r.singletons} ({r.eligible}) | {len(r.tried)} | "
            f"{r.steps_ok} | {r.steps_refused} | {len(r.violations)} | {r.scan_seconds:.0f} s | {r.seconds / 60:.1f} min |"
        )
    total_violations = sum(len(r.violations) for r in results)
    out.append(
        f"| **total** | | {sum(r.swift_files for r in results)} / {sum(r.swift_lines for r in results)} | "
        f"{sum(r.singletons for r in results)} ({sum(r.eligible for r in results)}) | {sum(len(r.tried) for r in results)} | "
        f"{sum(r.steps_ok for r in results)} | {sum(r.steps_refused for r in results)} | {total_violations} | | {seconds / 60:.1f} min |"
    )
    for name in missing:
        out.append(f"\nnot fetched: run fetch github:{name}")
    notes = [r for r in results if r.note]
    if notes:
        out.append("\nNotes:")
        for r in notes:
            out.append(f"- {r.name}: {r.note}")
    out.append(f"\n## Violations ({total_violations})\n")
    if total_violations:
        out.append("| app | singleton | step | check | file:line | what |")
        out.append("|---|---|---|---|---|---|")
        for r in results:
            for v in r.violations:
                detail = v.detail.replace("|", "\\|").replace("\n", " ")
                out.append(f"| {v.app} | {v.singleton} | {v.step} | {v.check} | {v.location} | {detail[:400]} |")
    else:
        out.append("none")
    finishes = [(r.name, *f) for r in results for f in r.finishes]
    counts = {k: sum(1 for f in finishes if f[2] == k) for k in ("finished", "listed", "next step", "other")}
    out.append(f"\n## finish ({counts['finished']} finished, {counts['listed']} list only what they may, "
               f"{counts['next step']} name an inject --type that takes a consumer, {counts['other']} other)\n")
    out.append("The last `finish` of each journey: it either succeeds or lists only consumers `inject` skipped with their reason,")
    out.append("static contexts, types the system creates (and required inits that keep their parameters), tests, Objective-C uses")
    out.append("and other singletons made with it (finished together with it);")
    out.append("or, besides those, consumers `inject --all`")
    out.append("left because injecting them would spread the accessor, each with the `inject --type` command that takes it.")
    out.append("The others, with what else they said:\n")
    shown = [f for f in finishes if f[2] == "other"]
    for app, singleton, _, others in shown:
        said = "; ".join(sorted(set(short(o, 160) for o in others))[:3]) or "(no error line)"
        out.append(f"- {app} {singleton}: {said}".replace("|", "\\|"))
    if not shown:
        out.append("none")
    out.append("\n## Journeys\n")
    for r in results:
        if r.journeys or r.not_tried:
            out.append(f"**{r.name}**\n")
            for line in r.journeys:
                out.append(f"- {line}")
            for line in r.not_tried:
                out.append(f"- not tried: {line}")
            out.append("")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------------------------------
# Main


def write_results(path: Path, text: str, partial: bool) -> None:
    header = (
        "# make realapps: results\n\n"
        "Produced by `python3 Tests/RealApps/realapps.py` (see its docstring for the checks). "
        "Apps, commits and shapes: `Tests/RealApps/apps.txt`.\n\n"
    )
    if partial:
        header += "**Partial: the run is still going (or was stopped); the apps below are the ones finished.**\n\n"
    path.write_text(header + text)


def find_swiftc() -> str | None:
    for candidate in (os.environ.get("SWIFTC"), "/opt/swift/usr/bin/swiftc", shutil.which("swiftc")):
        if candidate and Path(candidate).is_file():
            return candidate
    return None


def parse_arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=os.environ.get("DESINGLETON_BIN"), help="the desingleton binary (default: $DESINGLETON_BIN or .build/release/desingleton)")
    parser.add_argument("--app", action="append", default=[], metavar="OWNER/NAME", help="only these apps (repeatable; a substring of OWNER/NAME)")
    parser.add_argument("--apps", default=str(HERE / "apps.txt"), help="the list of apps (default: Tests/RealApps/apps.txt)")
    parser.add_argument("--mirror", default=os.environ.get("DESINGLETON_MIRROR", "/work/.mirror"), help="where fetched apps are (default: $DESINGLETON_MIRROR or /work/.mirror)")
    parser.add_argument("--timeout", type=float, default=300, help="seconds one command may take (default 300)")
    parser.add_argument("--scan-timeout", type=float, default=900, help="seconds an app's first scan may take (default 900)")
    parser.add_argument("--min-references", type=int, default=10, help="journey for every singleton with at least this many references (default 10)")
    parser.add_argument("--max-singletons", type=int, default=0, help="at most this many journeys an app, most referenced first (default 0: all)")
    parser.add_argument("--app-budget", type=float, default=0, help="start no journey after this many seconds in an app (default 0: none)")
    parser.add_argument("--max-suggestions", type=int, default=20, help="commands finish suggests that are run, per journey (default 20)")
    parser.add_argument("--work-dir", default=None, help="where apps are unpacked (default: the system temp folder)")
    parser.add_argument("--keep", action="store_true", help="keep the unpacked apps (one git repository each, a branch per journey)")
    parser.add_argument("--results", metavar="FILE", help="also write the report as Markdown to FILE")
    parser.add_argument("--tool-commit", default=None, help="the tool commit the binary was built from, for the report (default: this checkout's HEAD)")
    return parser.parse_args(argv)


def offers_no_verify(binary: Path, subcommand: str) -> bool:
    result = run([str(binary), subcommand, "--help"], REPO, 60)
    return "--no-verify" in result.stdout + result.stderr


def main(argv: list[str]) -> int:
    args = parse_arguments(argv)
    start = time.monotonic()
    binary = Path(args.bin).resolve() if args.bin else REPO / ".build" / "release" / "desingleton"
    if not binary.is_file() or not os.access(binary, os.X_OK):
        print(f"realapps: no desingleton binary at {binary}; build it (make release) or pass --bin", file=sys.stderr)
        return 2
    mirror = Path(args.mirror)
    apps = read_apps(Path(args.apps))
    if args.app:
        apps = [a for a in apps if any(w.lower() in a.name.lower() for w in args.app)]
        if not apps:
            print(f"realapps: no app in {args.apps} matches {', '.join(args.app)}", file=sys.stderr)
            return 2
    if args.work_dir:
        Path(args.work_dir).mkdir(parents=True, exist_ok=True)
    logs = Path(tempfile.mkdtemp(prefix="realapps-logs-", dir=args.work_dir))
    no_verify = {c: offers_no_verify(binary, c) for c in ("extract-protocol", "inject", "finish", "mocks")}
    swiftc = find_swiftc()
    ctx = Context(args, binary, no_verify, swiftc, logs)
    usage = run([str(binary), "finish", "--help"], REPO, 60).stdout
    ctx.finish_needs_root = bool(re.search(r"USAGE:.*\s--root <[^>]+>", usage)) and "[--root" not in usage
    ctx.scan_census = "--census" in run([str(binary), "scan", "--help"], REPO, 60).stdout
    tool_commit = args.tool_commit or git(REPO, "rev-parse", "HEAD", check=False).stdout.strip()

    results: list[AppResult] = []
    missing: list[str] = []
    # Smallest first, so that a run cut short has still seen most apps.
    apps.sort(key=lambda a: swift_bytes(find_git_dir(mirror, a.name), a.commit))
    for number, app in enumerate(apps, 1):
        git_dir = find_git_dir(mirror, app.name)
        if git_dir is None:
            print(f"[{number}/{len(apps)}] {app.name}: not fetched: run fetch github:{app.name}", flush=True)
            missing.append(app.name)
            continue
        print(f"[{number}/{len(apps)}] {app.name} {app.commit[:10]} ...", flush=True)
        try:
            result = check_app(ctx, app, git_dir)
        except (RuntimeError, subprocess.CalledProcessError, OSError) as error:
            result = AppResult(app.name, app.commit, note=f"not checked: {error}")
        results.append(result)
        if args.results:  # after every app, so that a run cut short still leaves its table
            write_results(Path(args.results), report(results, missing, time.monotonic() - start, ctx, tool_commit), partial=number < len(apps))
        print(
            f"[{number}/{len(apps)}] {app.name}: {result.swift_files} Swift files, {result.singletons} singletons "
            f"({result.eligible} with ≥{args.min_references} refs), {len(result.tried)} tried, {result.steps_ok} ok, "
            f"{result.steps_refused} refused, {len(result.violations)} violations ({result.seconds / 60:.1f} min)"
            + (f" — {result.note}" if result.note else ""),
            flush=True,
        )
    if ctx.finish_needs_root and results:
        usage = run([str(binary), "finish", "--singleton", "Anything"], REPO, 60)
        results[0].violations.insert(0, Violation(
            "(every app)", "(every singleton)", "finish", "exit", "-",
            f"`finish` without --root: {describe_exit(usage)}, {short(usage.stderr.strip().splitlines()[0] if usage.stderr.strip() else '', 120)}; "
            "the journeys ran `finish --root` with the app's @main types instead",
        ))
    seconds = time.monotonic() - start
    text = report(results, missing, seconds, ctx, tool_commit)
    print()
    print(text, end="")
    if swiftc is None:
        print("note: no swiftc found (set SWIFTC): changed files were not re-parsed")
    if args.results:
        write_results(Path(args.results), text, partial=False)
    violations = sum(len(r.violations) for r in results)
    if violations:
        print(f"violation logs: {logs}")
    else:
        shutil.rmtree(logs, ignore_errors=True)
    return 1 if violations else 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:
        sys.exit(130)
