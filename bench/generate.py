#!/usr/bin/env python3
"""Writes a synthetic iOS-style Swift app for benchmarking desingleton.

Deterministic for a given (--files, --lines, --seed): the same arguments always write the same bytes.

The app has:
  * singletons in the shapes real code bases use (`static let shared = X()`,
    `static let sharedController = X()`, `class func sharedInstance() -> X`,
    `static var shared: X { _shared }`), in App/Core/;
  * one *rare* singleton, `AuditTrailRecorder`, whose name appears in about 2% of the files, so that
    a one-singleton command has something realistic to look for;
  * consumers: UIViewController-like subclasses, services, structs, that read, write, call, alias
    and capture `X.shared.member` (also inside closures), and a few init call sites;
  * ordinary code (models, enums with switches, extensions, generics, protocols) so that the bytes
    look like an app rather than a list of singleton references.

The code is meant to parse cleanly (`swiftc -frontend -parse` reports nothing); it is not meant to
type-check.

Usage: generate.py --lines 1000000 --out DIR [--files N] [--seed S]
"""

import argparse
import os
import random
import shutil
import sys

RARE = "AuditTrailRecorder"

# name, accessor shape, share of consumer files that use it, members (properties, methods)
SINGLETONS = [
    ("SessionManager", "static let shared", 0.30,
     ["currentUser", "token", "isLoggedIn", "refreshCount"], ["refresh", "logout", "validate", "renewToken"]),
    ("APIClient", "static let shared", 0.28,
     ["baseURL", "timeout", "retryLimit", "defaultHeaders"], ["fetch", "post", "cancelAll", "resume"]),
    ("AnalyticsController", "static let sharedController", 0.18,
     ["sessionID", "isEnabled", "sampleRate"], ["track", "flush", "identify", "screen"]),
    ("LegacyImageCache", "class func sharedInstance", 0.12,
     ["capacity", "hitCount", "missCount"], ["image", "store", "purge", "prefetch"]),
    ("ThemeStore", "static var shared", 0.15,
     ["primaryColor", "accentColor", "fontScale", "isDarkMode"], ["apply", "reload", "reset"]),
    ("FeatureFlags", "static let shared", 0.10,
     ["rolloutPercent", "overrides", "lastSync"], ["isEnabled", "sync", "override"]),
    ("Persistence", "static let shared", 0.08,
     ["storeURL", "pendingWrites", "isMigrating"], ["save", "load", "migrate", "wipe"]),
    ("LocationTracker", "static let sharedController", 0.06,
     ["lastLocation", "accuracy", "isTracking"], ["start", "stop", "requestPermission"]),
    (RARE, "static let shared", 0.02,
     ["entryCount", "isVerbose", "retentionDays"], ["record", "export", "rotate"]),
]

DOMAIN = [
    "Order", "Cart", "Product", "Invoice", "Profile", "Message", "Thread", "Payment", "Review", "Coupon",
    "Address", "Shipment", "Wallet", "Reward", "Ticket", "Booking", "Playlist", "Episode", "Article",
    "Comment", "Friend", "Group", "Event", "Venue", "Recipe", "Workout", "Device", "Photo", "Album",
    "Report", "Survey", "Invite", "Badge", "Plan", "Subscription", "Receipt", "Store", "Category",
    "Filter", "Banner", "Story", "Channel", "Course", "Lesson", "Quiz", "Task", "Note", "Reminder",
]
FIELDS = [
    ("id", "Int", "0"), ("title", "String", '""'), ("subtitle", "String?", "nil"), ("price", "Double", "0"),
    ("quantity", "Int", "1"), ("createdAt", "Date", "Date()"), ("isArchived", "Bool", "false"),
    ("tags", "[String]", "[]"), ("rating", "Double", "0"), ("ownerID", "Int", "0"), ("url", "URL?", "nil"),
    ("notes", "String", '""'), ("count", "Int", "0"), ("score", "Double", "0"), ("isFavorite", "Bool", "false"),
]
CASES = ["idle", "loading", "loaded", "failed", "empty", "refreshing", "paging", "cancelled", "offline", "stale"]
VERBS = ["load", "reload", "configure", "update", "render", "bind", "prepare", "validate", "submit", "present",
         "dismiss", "refresh", "sync", "apply", "compute", "format", "parse", "merge", "sort", "filter"]
NOUNS = ["Items", "Header", "Footer", "Layout", "Cells", "Summary", "Details", "Actions", "State", "Badges",
         "Totals", "Sections", "Toolbar", "EmptyView", "Errors", "Selection", "Progress", "Labels"]


class Writer:
    """Accumulates lines for one file."""

    __slots__ = ("lines",)

    def __init__(self):
        self.lines = []

    def add(self, *lines):
        self.lines.extend(lines)

    def __len__(self):
        return len(self.lines)


def singleton_access(s):
    name, shape = s[0], s[1]
    if shape == "static let sharedController":
        return f"{name}.sharedController"
    if shape == "class func sharedInstance":
        return f"{name}.sharedInstance()"
    return f"{name}.shared"


def singleton_file(s):
    name, shape, _, props, methods = s
    w = Writer()
    w.add("import Foundation", "")
    w.add(f"/// The app-wide {name}.")
    if shape == "class func sharedInstance":
        w.add(f"public class {name}: NSObject {{")
        w.add(f"  private static let instance = {name}()", "")
        w.add(f"  @objc public class func sharedInstance() -> {name} {{", "    return instance", "  }", "")
    elif shape == "static var shared":
        w.add(f"public final class {name} {{")
        w.add(f"  private static let _shared = {name}()", f"  public static var shared: {name} {{ _shared }}", "")
    else:
        acc = shape.split()[-1]
        w.add(f"public final class {name} {{", f"  {shape.replace('static let ' + acc, 'public static let ' + acc)} = {name}()", "")
    types = ["String?", "String", "Bool", "Double", "Int", "[String: String]", "Date?"]
    defaults = {"String?": "nil", "String": '""', "Bool": "false", "Double": "0", "Int": "0",
                "[String: String]": "[:]", "Date?": "nil"}
    for i, p in enumerate(props):
        t = types[i % len(types)]
        w.add(f"  public var {p}: {t} = {defaults[t]}")
    w.add("  private let queue = DispatchQueue(label: \"" + name.lower() + "\")", "")
    w.add("  init() {}", "")
    for i, m in enumerate(methods):
        if i % 3 == 0:
            w.add(f"  public func {m}() {{", f"    queue.sync {{ {props[0]} = {defaults[types[0]]} }}", "  }", "")
        elif i % 3 == 1:
            w.add(f"  public func {m}(_ key: String, completion: @escaping (Result<Int, Error>) -> Void) {{",
                  "    queue.async {", "      completion(.success(key.count))", "    }", "  }", "")
        else:
            w.add(f"  @discardableResult", f"  public func {m}(_ value: Int = 0) -> Bool {{",
                  f"    guard value >= 0 else {{ return false }}", f"    return value % 2 == 0", "  }", "")
    w.add("}", "")
    return w.lines


class AppGenerator:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.serial = 0

    def uid(self):
        self.serial += 1
        return self.serial

    # ---------- ordinary code ----------

    def model(self, w, base):
        r = self.rng
        fields = r.sample(FIELDS, r.randint(3, 7))
        w.add(f"/// A {base.rstrip('0123456789').lower()} as the server sends it; equal when every field is equal.")
        w.add(f"public struct {base}: Codable, Equatable, Hashable {{")
        for f, t, _ in fields:
            w.add(f"  public var {f}: {t}")
        w.add("", "  public init(" + ", ".join(f"{f}: {t} = {d}" for f, t, d in fields) + ") {")
        for f, _, _ in fields:
            w.add(f"    self.{f} = {f}")
        w.add("  }", "")
        num = [f for f, t, _ in fields if t in ("Int", "Double")]
        if num:
            f = num[0]
            w.add("  public var isValid: Bool {", f"    {f} >= 0", "  }", "")
        w.add(f"  public static func sample(_ index: Int) -> {base} {{", f"    var value = {base}()")
        for f, t, _ in fields[:2]:
            if t == "Int":
                w.add(f"    value.{f} = index * {r.randint(2, 9)}")
            elif t == "String":
                w.add(f'    value.{f} = "{f.capitalize()} \\(index)"')
        w.add("    return value", "  }", "}", "")

    def enum(self, w, base):
        r = self.rng
        cases = r.sample(CASES, r.randint(3, 7))
        w.add(f"public enum {base}State: Equatable {{")
        for i, c in enumerate(cases):
            w.add(f"  case {c}" + ("(message: String)" if c == "failed" else "(count: Int)" if c == "loaded" else ""))
        w.add("", "  public var title: String {", "    switch self {")
        for c in cases:
            if c == "failed":
                w.add("    case .failed(let message):", "      return \"Failed: \\(message)\"")
            elif c == "loaded":
                w.add("    case .loaded(let count) where count == 0:", "      return \"Nothing here\"",
                      "    case .loaded(let count):", "      return \"\\(count) items\"")
            else:
                w.add(f"    case .{c}:", f'      return "{c.capitalize()}"')
        w.add("    }", "  }", "")
        w.add("  public var isTerminal: Bool {", "    switch self {")
        term = [c for c in cases if c in ("failed", "loaded", "empty", "cancelled")]
        if term:
            w.add("    case " + ", ".join(f".{c}" for c in term) + ":", "      return true")
        w.add("    default:", "      return false", "    }", "  }", "}", "")

    def extension(self, w, base):
        r = self.rng
        w.add(f"extension Array where Element == {base} {{")
        w.add(f"  func grouped{self.uid()}<Key: Hashable>(by key: (Element) -> Key) -> [Key: [Element]] {{",
              "    var result: [Key: [Element]] = [:]", "    for element in self {",
              "      result[key(element), default: []].append(element)", "    }", "    return result", "  }", "")
        w.add("  var nonEmpty: Self? {", "    isEmpty ? nil : self", "  }", "}", "")
        w.add(f"extension {base}: CustomStringConvertible {{", "  public var description: String {")
        w.add(f'    "{base}(" + String(describing: self.hashValue) + ")"', "  }", "}", "")
        if r.random() < 0.5:
            w.add(f"private extension {base} {{", "  func clamped(_ value: Int, to range: ClosedRange<Int>) -> Int {",
                  "    min(max(value, range.lowerBound), range.upperBound)", "  }", "}", "")

    def generic(self, w, base):
        n = self.uid()
        w.add(f"final class {base}Cache{n}<Key: Hashable, Value> {{",
              "  private var storage: [Key: Value] = [:]", "  private var order: [Key] = []",
              "  private let limit: Int", "", "  init(limit: Int = 64) {", "    self.limit = limit", "  }", "",
              "  subscript(key: Key) -> Value? {", "    get { storage[key] }", "    set {",
              "      if let newValue {", "        if storage.updateValue(newValue, forKey: key) == nil { order.append(key) }",
              "        if order.count > limit { storage[order.removeFirst()] = nil }",
              "      } else {", "        storage[key] = nil", "        order.removeAll { $0 == key }", "      }",
              "    }", "  }", "",
              "  func values<T>(mapped transform: (Value) throws -> T) rethrows -> [T] {",
              "    try order.compactMap { storage[$0] }.map(transform)", "  }", "}", "")

    def protocol(self, w, base):
        n = self.uid()
        w.add(f"protocol {base}Providing{n}: AnyObject {{",
              f"  func provide{base}(at index: Int) -> {base}?",
              f"  var {base[0].lower() + base[1:]}Count: Int {{ get }}", "}", "")
        w.add(f"extension {base}Providing{n} {{",
              f"  var isEmpty: Bool {{ {base[0].lower() + base[1:]}Count == 0 }}", "}", "")

    def helper_func(self, w, indent="  "):
        r = self.rng
        verb, noun = r.choice(VERBS), r.choice(NOUNS)
        if r.random() < 0.5:
            w.add(f"{indent}/// {verb.capitalize()}s the {noun.lower()} from the given values and returns the running total.",
                  f"{indent}/// - Parameter values: the raw values, in display order.")
        w.add(f"{indent}private func {verb}{noun}{self.uid()}(_ values: [Int]) -> Int {{",
              f"{indent}  var total = 0",
              f"{indent}  for (offset, value) in values.enumerated() where value > {r.randint(0, 9)} {{",
              f"{indent}    if offset.isMultiple(of: {r.randint(2, 5)}) {{",
              f"{indent}      total += value * {r.randint(2, 9)}",
              f"{indent}    }} else {{", f"{indent}      total -= value", f"{indent}    }}", f"{indent}  }}",
              f"{indent}  let label = total > 100 ? \"large\" : \"small\"",
              f"{indent}  print(\"{noun}: \\(label) \\(total)\")",
              f"{indent}  return total", f"{indent}}}", "")

    # ---------- singleton uses ----------

    def use_singleton(self, w, s, indent):
        """One use of singleton `s` in a function body: a read, write, call, alias or capture."""
        r = self.rng
        name, shape, _, props, methods = s
        acc = singleton_access(s)
        p, m = r.choice(props), r.choice(methods)
        kind = r.randrange(8)
        if kind == 0:
            w.add(f"{indent}let value{self.uid()} = {acc}.{p}")
        elif kind == 1:
            w.add(f"{indent}{acc}.{p} = {acc}.{p}")
        elif kind == 2:
            w.add(f"{indent}{acc}.{m}()")
        elif kind == 3:
            alias = f"{name[0].lower()}{name[1:]}{self.uid()}"
            w.add(f"{indent}let {alias} = {acc}", f"{indent}{alias}.{m}()",
                  f"{indent}if {alias}.{p} != nil {{", f"{indent}  print({alias}.{r.choice(props)})", f"{indent}}}")
        elif kind == 4:
            w.add(f"{indent}DispatchQueue.main.async {{ [weak self] in", f"{indent}  guard let self else {{ return }}",
                  f"{indent}  {acc}.{m}()", f"{indent}  self.didUpdate()", f"{indent}}}")
        elif kind == 5:
            w.add(f"{indent}items.forEach {{ item in", f"{indent}  _ = {acc}.{p}", f"{indent}  print(item)", f"{indent}}}")
        elif kind == 6:
            w.add(f"{indent}if {acc}.{p} == nil {{", f"{indent}  {acc}.{m}()", f"{indent}}}")
        else:
            n = self.uid()
            w.add(f"{indent}guard let current{n} = {acc}.{p} else {{ return }}", f"{indent}print(current{n})")

    def view_controller(self, w, base, uses):
        r = self.rng
        n = self.uid()
        w.add(f"/// Shows the {base.rstrip('0123456789').lower()} list and keeps it in sync with the shared stores.")
        w.add(f"final class {base}ViewController{n}: UIViewController {{",
              f"  private var items: [{base}] = []", f"  private var state: {base}State = .idle",
              "  private let tableView = UITableView()", "")
        w.add("  override func viewDidLoad() {", "    super.viewDidLoad()", "    view.addSubview(tableView)")
        for s in uses[:2]:
            self.use_singleton(w, s, "    ")
        w.add("  }", "")
        w.add("  override func viewWillAppear(_ animated: Bool) {", "    super.viewWillAppear(animated)")
        for s in uses[2:]:
            self.use_singleton(w, s, "    ")
        w.add(f"    state = items.isEmpty ? .empty : .loaded(count: items.count)", "  }", "")
        w.add("  private func didUpdate() {", "    switch state {", "    case .loading:",
              "      tableView.isHidden = true", "    default:", "      tableView.reloadData()", "    }", "  }", "")
        for _ in range(r.randint(1, 3)):
            self.helper_func(w)
        w.add("}", "")

    def service(self, w, base, uses):
        r = self.rng
        n = self.uid()
        kw = r.choice(["final class", "struct"])
        w.add(f"{kw} {base}Service{n} {{", f"  var items: [{base}] = []", "")
        mut = "mutating " if kw == "struct" else ""
        w.add(f"  {mut}func load(page: Int, completion: @escaping ([{base}]) -> Void) {{")
        for s in uses:
            self.use_singleton(w, s, "    ")
        w.add(f"    let result = (0..<page).map {{ {base}.sample($0) }}", "    items = result",
              "    completion(result)", "  }", "")
        w.add("  func didUpdate() {}", "")
        if r.random() < 0.5:
            self.helper_func(w)
        w.add("}", "")

    def init_site(self, w, s):
        name = s[0]
        n = self.uid()
        w.add(f"func make{name}ForPreview{n}() -> {name} {{", f"  let instance = {name}()", "  return instance", "}", "")

    # ---------- files ----------

    def app_file(self, target_lines, uses, number):
        r = self.rng
        base = f"{r.choice(DOMAIN)}{number}"
        w = Writer()
        w.add("//", f"//  {base}Feature.swift", "//  Generated by bench/generate.py", "//", "", "import Foundation",
              "import UIKit", "")
        pending = list(uses)
        # Singleton uses go into consumers first; ordinary code fills the file to its size.
        while len(w) < target_lines or pending:
            if pending:
                take = r.randint(1, min(3, len(pending)))
                chunk, pending = pending[:take], pending[take:]
                if r.random() < 0.6:
                    self.view_controller(w, base, chunk)
                else:
                    self.service(w, base, chunk)
                if r.random() < 0.05:
                    self.init_site(w, chunk[0])
                continue
            k = r.randrange(10)
            if k < 3:
                self.model(w, base)
            elif k < 5:
                self.enum(w, base)
            elif k < 6:
                self.extension(w, base)
            elif k < 7:
                self.generic(w, base)
            elif k < 8:
                self.protocol(w, base)
            else:
                self.view_controller(w, base, []) if k == 8 else self.service(w, base, [])
        return w.lines


def stub_file():
    return ["import Foundation", "", "// Stand-ins for UIKit so the app is self-contained on Linux.",
            "open class UIView {", "  public init() {}", "  open var isHidden = false",
            "  open func addSubview(_ view: UIView) {}", "}", "",
            "open class UITableView: UIView {", "  open func reloadData() {}", "}", "",
            "open class UIViewController {", "  public init() {}", "  public let view = UIView()",
            "  open func viewDidLoad() {}", "  open func viewWillAppear(_ animated: Bool) {}", "}", ""]


def generate(out, lines, files=None, seed=1):
    """Writes the app under `out` (replacing it); returns (files, lines) written."""
    if files is None:
        files = max(12, lines // 310)
    if os.path.exists(out):
        shutil.rmtree(out)
    gen = AppGenerator(seed)
    r = gen.rng
    total_files = total_lines = 0

    def write(rel, content):
        nonlocal total_files, total_lines
        path = os.path.join(out, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write("\n".join(content))
            f.write("\n")
        total_files += 1
        total_lines += len(content)

    for s in SINGLETONS:
        write(f"App/Core/{s[0]}.swift", singleton_file(s))
    write("App/Core/UIKitStubs.swift", stub_file())
    remaining_files = max(1, files - total_files)
    remaining_lines = max(remaining_files * 20, lines - total_lines)
    # File sizes: a skewed spread (many small files, a few large ones), rescaled to hit the line target.
    weights = [r.lognormvariate(0, 0.7) for _ in range(remaining_files)]
    scale = remaining_lines / sum(weights)
    for i, wgt in enumerate(weights):
        target = max(15, int(wgt * scale * 0.97))
        uses = [s for s in SINGLETONS if r.random() < s[2]]
        if SINGLETONS[-1] in uses:
            uses.remove(SINGLETONS[-1])
            uses.append(SINGLETONS[-1])  # keep rare uses in a consumer, not an init site only
        r.shuffle(uses)
        content = gen.app_file(target, uses, i)
        feature = i // 40
        write(f"App/Features/Feature{feature:03d}/{DOMAIN[i % len(DOMAIN)]}{i:05d}.swift", content)
    return total_files, total_lines


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lines", type=int, default=100_000, help="target total lines (default 100000)")
    ap.add_argument("--files", type=int, default=None, help="number of files (default: lines / 310)")
    ap.add_argument("--out", required=True, help="output directory (replaced)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    files, lines = generate(args.out, args.lines, args.files, args.seed)
    print(f"wrote {files} files, {lines} lines to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
