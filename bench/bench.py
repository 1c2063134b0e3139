#!/usr/bin/env python3
"""desingleton benchmark (issue 7): run by `make bench` after a release build.

Measures, in one run and on the same files, each several times (median):
  * reading every file (a Python child process reading each file's bytes; its own timing of the
    read loop, so interpreter start-up is not counted);
  * `swiftc -frontend -parse -filelist F` (every body parsed), 1 process, and N processes over
    byte-balanced parts;
  * the bare swift-syntax parse of every file: `desingleton scan --parse-only --threads T`;
  * the whole scan: `desingleton scan --format json --threads T`, T = 1 and N;
  * a one-singleton command: `desingleton scan --singleton NAME` for a name in under 5% of files;
  * peak memory of each (ru_maxrss of the child, from wait4: what `/usr/bin/time -v` reports);
and time and memory at about 100k, 300k, 1M and 3M generated lines.

Corpora live in bench/corpus/ (gitignored) and are reused while their stamp matches:
  * mirror: `.swift` files of the offline package mirror (highest tag of each repository,
    unpacked with `git archive`), whole repositories in name order (skipping one that would
    overshoot by more than 5%) until about 1M lines; the same with swift-protobuf first (about
    1.25M lines);
  * mirror-ten: ten of the mirror's large packages whole (`TEN_PACKAGES`), about 1.26M lines;
  * gen-*: written by bench/generate.py.

Writes bench/results.md and prints it.
"""

import argparse
import datetime
import hashlib
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CORPUS = os.path.join(HERE, "corpus")
OUT = os.path.join(HERE, "out")
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # no __pycache__ in the repository
import generate  # noqa: E402

# Directories desingleton's FileLoader never enters; the corpora are pruned the same way so that
# every tool sees exactly the same files.
SKIPPED_DIRS = {".build", ".git", "Pods", "Carthage", "DerivedData", "node_modules"}

# Issue 7's reference figures (1.05M lines / 40 MB / 3,217 files, 2 cores).
REFERENCE = {
    "read": "0.065 s / 13 MB",
    "swiftc1": "1.78 s / 390 MB",
    "swiftcN": "0.90 s / 2 × 240 MB",
    "parse1": "2.37 s / 63 MB",
    "parseN": "1.27 s / 86 MB",
    "scan1": "—",
    "scanN": "≤ 1.3 × parse (≈ 1.65 s)",
    "one": "≤ 0.5 s",
}

READER = r"""
import sys, time
paths = open(sys.argv[1]).read().split("\n")
start = time.perf_counter()
total = 0
for p in paths:
    with open(p, "rb") as f:
        total += len(f.read())
print(time.perf_counter() - start, total)
"""


def log(msg):
    print(msg, file=sys.stderr, flush=True)


# ---------------------------------------------------------------- corpora

def prune_and_list(root):
    """Deletes what desingleton would not read (symlinks, hidden and build folders, non-UTF-8 and
    non-Swift files) and returns the sorted list of the `.swift` files left, as absolute paths."""
    files = []
    for dirpath, dirnames, filenames in os.walk(root):
        for d in list(dirnames):
            full = os.path.join(dirpath, d)
            if os.path.islink(full) or d.startswith(".") or d in SKIPPED_DIRS:
                dirnames.remove(d)
                if os.path.islink(full):
                    os.unlink(full)
                else:
                    shutil.rmtree(full)
        for name in filenames:
            full = os.path.join(dirpath, name)
            if name.startswith(".bench"):
                continue
            if os.path.islink(full) or not name.endswith(".swift"):
                os.unlink(full)
                continue
            try:
                with open(full, "rb") as f:
                    f.read().decode("utf-8")
            except UnicodeDecodeError:
                os.unlink(full)
                continue
            files.append(os.path.abspath(full))
    files.sort()
    return files


def count_lines(files):
    lines = size = 0
    for p in files:
        with open(p, "rb") as f:
            data = f.read()
        lines += data.count(b"\n")
        size += len(data)
    return lines, size


def mirror_root():
    """The offline mirror folder from `git config --get-regexp insteadof`, or None."""
    try:
        out = subprocess.run(["git", "config", "--get-regexp", "insteadof"], capture_output=True, text=True).stdout
    except OSError:
        return None
    for line in out.splitlines():
        key = line.split()[0]
        if key.startswith("url.") and key.endswith(".insteadof"):
            folder = key[len("url."):-len(".insteadof")].rstrip("/")
            if os.path.isdir(folder):
                return folder
    return None


# The packages of the "ten packages" corpus (each whole, at its highest tag).
TEN_PACKAGES = {
    "swiftlang/swift-syntax", "apple/swift-nio", "vapor/vapor", "apple/swift-protobuf", "grpc/grpc-swift-2",
    "hummingbird-project/hummingbird", "swift-server/async-http-client", "pointfreeco/swift-dependencies",
    "pointfreeco/swift-snapshot-testing", "pointfreeco/swift-parsing",
}


def mirror_repos(folder):
    repos = []
    for owner in sorted(os.listdir(folder)):
        od = os.path.join(folder, owner)
        if owner.startswith(".") or not os.path.isdir(od) or os.path.islink(od):
            continue
        for name in sorted(os.listdir(od)):
            rd = os.path.join(od, name)
            if name.endswith(".git") and os.path.isdir(rd) and not os.path.islink(rd):
                repos.append((f"{owner}/{name[:-4]}", rd))
    repos.sort(key=lambda r: r[0].lower())
    return repos


def prepare_mirror(target_lines, tag, first=(), only=None):
    """`first` (owner/name) are unpacked before the others, whatever their size; `only`: just these."""
    folder = mirror_root()
    if folder is None:
        log("mirror: no offline package mirror (git config --get-regexp insteadof shows none); skipped")
        return None
    out = os.path.join(CORPUS, f"mirror-{tag}")
    stamp = os.path.join(out, ".bench-stamp")
    want = f"mirror {folder} {target_lines}" + (" first=" + ",".join(first) if first else "") \
        + (" only=" + ",".join(sorted(only)) if only else "")
    if os.path.exists(stamp) and open(stamp).read().splitlines()[0] == want:
        files = prune_and_list(out)
        return corpus_info("mirror", out, files, open(stamp).read().splitlines()[1:])
    log(f"mirror: unpacking the .swift files of {folder} until {target_lines:,} lines into {out}")
    if os.path.exists(out):
        shutil.rmtree(out)
    os.makedirs(out)
    total = 0
    used = []
    repos = mirror_repos(folder)
    repos = [r for r in repos if r[0] in first] + [r for r in repos if r[0] not in first]
    if only:
        repos = [r for r in repos if r[0] in only]
    for name, repo in repos:
        tags = subprocess.run(["git", "-C", repo, "tag", "--sort=-v:refname"], capture_output=True, text=True).stdout.split()
        ref = tags[0] if tags else "HEAD"
        dest = os.path.join(out, name.replace("/", "__"))
        os.makedirs(dest)
        archive = subprocess.Popen(["git", "-C", repo, "archive", ref], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        subprocess.run(["tar", "-x", "-C", dest, "--wildcards", "*.swift"], stdin=archive.stdout,
                       stderr=subprocess.DEVNULL)
        archive.stdout.close()
        archive.wait()
        files = prune_and_list(dest)
        if not files:
            shutil.rmtree(dest)
            continue
        lines, _ = count_lines(files)
        if total + lines > target_lines * 1.05 and name not in first:
            shutil.rmtree(dest)  # would overshoot: try the smaller ones after it
            continue
        total += lines
        used.append(f"{name}@{ref}")
        if total >= target_lines * 0.95:
            break
    with open(stamp, "w") as f:
        f.write(want + "\n" + "\n".join(used) + "\n")
    return corpus_info("mirror", out, prune_and_list(out), used)


# The practice app the write commands are measured on, as `make realapps` pins it: an app of about
# 200k lines (UIKit and SwiftUI, several targets, widgets and extensions).
APP = "home-assistant/iOS"


def prepare_app(name=APP):
    """The Swift files of a practice app fetched into the mirror (`$DESINGLETON_MIRROR`, else
    /work/.mirror, as `make realapps` finds it) at the commit Tests/RealApps/apps.txt pins, or None
    when the machine has no snapshot of it."""
    mirror = os.environ.get("DESINGLETON_MIRROR", "/work/.mirror")
    folder = os.path.join(mirror, name.replace("/", "+"))
    candidates = [os.path.join(folder, "repo"), folder]
    if os.path.isdir(folder):
        candidates += sorted(os.path.join(d, x) for d, xs, _ in os.walk(folder) for x in xs)
    git_dir = next((c for c in candidates
                    if os.path.isfile(os.path.join(c, "HEAD")) and os.path.isdir(os.path.join(c, "objects"))), None)
    if git_dir is None:
        log(f"app: no snapshot of {name} under {mirror}; its rows are left out")
        return None
    commit = "HEAD"
    apps = os.path.join(ROOT, "Tests", "RealApps", "apps.txt")
    for line in open(apps) if os.path.exists(apps) else []:
        parts = line.split()
        if len(parts) >= 2 and parts[0] == name:
            commit = parts[1]
    out = os.path.join(CORPUS, "app-" + name.split("/")[0])
    stamp = os.path.join(out, ".bench-stamp")
    want = f"{name} {commit}"
    if not (os.path.exists(stamp) and open(stamp).read().strip() == want):
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(out)
        log(f"app: unpacking the Swift files of {name} at {commit[:10]} into {out}")
        archive = subprocess.Popen(["git", "--git-dir", git_dir, "archive", "--format=tar", commit, "--", "*.swift"],
                                   stdout=subprocess.PIPE)
        untar = subprocess.run(["tar", "-x", "-C", out], stdin=archive.stdout)
        if archive.wait() != 0 or untar.returncode != 0:
            log(f"app: git archive of {name} at {commit} failed; its rows are left out")
            shutil.rmtree(out, ignore_errors=True)
            return None
        with open(stamp, "w") as f:
            f.write(want + "\n")
    return corpus_info(f"app ({name})", out, prune_and_list(out), [])


def prepare_generated(lines, tag):
    out = os.path.join(CORPUS, f"gen-{tag}")
    stamp = os.path.join(out, ".bench-stamp")
    digest = hashlib.sha256(open(os.path.join(HERE, "generate.py"), "rb").read()).hexdigest()[:16]
    want = f"generate.py {digest} lines={lines} seed=1"
    if not (os.path.exists(stamp) and open(stamp).read().strip() == want):
        log(f"generated: writing {lines:,} lines into {out}")
        generate.generate(out, lines, None, 1)
        with open(stamp, "w") as f:
            f.write(want + "\n")
    return corpus_info(f"generated {tag}", out, prune_and_list(out), [])


def corpus_info(label, root, files, packages):
    lines, size = count_lines(files)
    return {"label": label, "root": root, "files": files, "lines": lines, "bytes": size, "packages": packages}


# ---------------------------------------------------------------- measuring

def run_procs(cmds, stdouts=None):
    """Starts every command at once and waits for all; returns (wall seconds, [peak RSS bytes], [exit codes],
    CPU seconds summed over the processes)."""
    stdouts = stdouts or [None] * len(cmds)
    handles = []
    start = time.perf_counter()
    for cmd, out in zip(cmds, stdouts):
        so = open(out, "wb") if out else subprocess.DEVNULL
        se = open(out + ".err", "wb") if out else subprocess.DEVNULL
        handles.append((subprocess.Popen(cmd, stdout=so, stderr=se), (so, se)))
    peaks, codes, cpu = [], [], 0.0
    for p, streams in handles:
        _, status, usage = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        peaks.append(usage.ru_maxrss * 1024)  # Linux reports KiB
        codes.append(p.returncode)
        cpu += usage.ru_utime + usage.ru_stime
        for s in streams:
            if s is not subprocess.DEVNULL:
                s.close()
    return time.perf_counter() - start, peaks, codes, cpu


class Row:
    def __init__(self, key, what):
        self.key, self.what = key, what
        self.walls, self.peaks, self.cpus, self.note, self.codes = [], [], [], "", set()
        self.pending = False

    @property
    def wall(self):
        return statistics.median(self.walls) if self.walls else None

    @property
    def cpu(self):
        return statistics.median(self.cpus) if self.cpus else None

    @property
    def peak(self):
        """Median over runs of the largest process's peak (and the list of per-process peaks)."""
        return statistics.median(max(p) for p in self.peaks) if self.peaks else None

    @property
    def nproc(self):
        return len(self.peaks[0]) if self.peaks else 1


def measure(row, cmds, runs, stdout=None, reader=False):
    for _ in range(runs):
        outs = [stdout] * len(cmds) if stdout else None
        if reader:
            outs = [os.path.join(OUT, "reader.out")]
        wall, peaks, codes, cpu = run_procs(cmds, outs)
        if reader:
            wall = float(open(outs[0]).read().split()[0])
        row.walls.append(wall)
        row.cpus.append(cpu)
        row.peaks.append(peaks)
        row.codes.update(codes)
    return row


def split_by_bytes(files, parts):
    sized = sorted(((os.path.getsize(p), p) for p in files), reverse=True)
    buckets = [[0, []] for _ in range(parts)]
    for size, p in sized:
        b = min(buckets, key=lambda b: b[0])
        b[0] += size
        b[1].append(p)
    return [sorted(b[1]) for b in buckets]


def has_parse_only(binary):
    with tempfile.TemporaryDirectory() as d:
        open(os.path.join(d, "a.swift"), "w").write("let a = 1\n")
        r = subprocess.run([binary, "scan", "--parse-only", "--threads", "1", d], capture_output=True, text=True)
        return r.returncode == 0


def singletons_of(json_path):
    try:
        data = json.load(open(json_path))
    except (OSError, ValueError):
        return []
    found = data.get("singletons", []) if isinstance(data, dict) else []
    names = []
    for s in found:
        if isinstance(s, dict):
            name = s.get("typeName") or s.get("type") or s.get("name")
            if name:
                names.append(name)
    return names


def files_mentioning(files, name):
    needle = name.split(".")[-1].encode()
    n = 0
    for p in files:
        with open(p, "rb") as f:
            if needle in f.read():
                n += 1
    return n


class Job:
    """One row's command, run once per round."""

    def __init__(self, row, cmds, stdout=None, reader=False, runs=None, group=None):
        self.row, self.cmds, self.stdout, self.reader, self.runs = row, cmds, stdout, reader, runs
        self.group = group


def run_interleaved(jobs, runs, label):
    """Round-robin: run i of every row before run i+1 of any (rotating the order), so that load from
    other processes on a shared machine spreads over all rows instead of skewing one. Jobs of one
    group (the parse and scan rows whose ratios are targets) run back to back, in an order reversed
    every other round, so that each round gives ratios measured under the same conditions."""
    jobs = [j for j in jobs if not j.row.pending]
    units = []
    for job in jobs:
        if job.group is not None and units and units[-1][0].group == job.group:
            units[-1].append(job)
        else:
            units.append([job])
    for i in range(runs):
        log(f"  [{label}] round {i + 1}/{runs}")
        k = i % max(1, len(units))
        for unit in units[k:] + units[:k]:
            for job in (unit if i % 2 == 0 else list(reversed(unit))):
                if job.runs is not None and len(job.row.walls) >= job.runs:
                    continue
                measure(job.row, job.cmds, 1, stdout=job.stdout, reader=job.reader)


def scan_stats(err_path):
    """The `scan --stats` lines: share parsed and the phases, and the serial parts' share."""
    stats = {}
    try:
        text = open(err_path).read()
    except OSError:
        return stats
    for line in text.splitlines():
        m = re.match(r"scan: parsed (\d+) of (\d+) files \((\d+)%\), (\d+) of (\d+) lines \((\d+)%\); by phase: (.*)", line)
        if m:
            stats.update(files=int(m[1]), all_files=int(m[2]), file_share=int(m[3]), lines=int(m[4]),
                         all_lines=int(m[5]), line_share=int(m[6]),
                         phases=[(int(f), int(l), t) for f, l, t in
                                 re.findall(r"(\d+) files, (\d+) lines(?:, ([\d.]+) s)?", m[7])])
        m = re.match(r"scan: serial: (.*); whole command .*", line)
        if m:
            stats["serial"] = m[1]
        m = re.match(r"scan: analysing the singletons for the report \(in parallel, each run\) (.*)", line)
        if m:
            stats["analysis"] = m[1]
    return stats


def same_report(phased_path, full_path):
    """Whether two `scan --format json` reports are the same bytes; else what differs."""
    try:
        phased, full = open(phased_path, "rb").read(), open(full_path, "rb").read()
    except OSError:
        return "—"
    if phased == full:
        return "yes, byte for byte"
    try:
        a, b = json.loads(phased), json.loads(full)
    except ValueError:
        return "no"
    missing = [w for w in b.get("warnings", []) if w not in a.get("warnings", [])]
    a["warnings"], b["warnings"] = [], []
    if a == b and all("syntax errors" in w for w in missing):
        return f"yes, but for {len(missing)} syntax-error warning(s) of files it did not parse"
    return "no"


def phases_text(stats):
    if not stats.get("phases"):
        return "—"
    return " / ".join(f"{f:,} files, {l:,} lines" + (f" ({t} s)" if t else "") for f, l, t in stats["phases"] if f)


def bench_corpus(c, binary, runs, threads, swiftc, parse_only, rare=None, only=None, sliced=False):
    """All rows for one corpus (`only`: just these rows; `sliced`: and the write commands on its most
    referenced singleton, sliced in a copy)."""
    root, files = c["root"], c["files"]
    tag = os.path.basename(root)
    lists = os.path.join(OUT, tag)
    os.makedirs(lists, exist_ok=True)
    filelist = os.path.join(lists, "files.txt")
    open(filelist, "w").write("\n".join(files))
    rows, jobs = {}, []
    plural = lambda t: "s" if t > 1 else ""  # noqa: E731
    log(f"[{c['label']}] {len(files):,} files, {c['lines']:,} lines, {c['bytes'] / 1e6:.1f} MB")

    # Warm the page cache, and find the singletons (one uncounted scan).
    run_procs([[sys.executable, "-c", READER, filelist]])
    json_out = os.path.join(lists, "scan.json")
    parsed_list = os.path.join(lists, "parsed.txt")
    run_procs([[binary, "scan", "--format", "json", "--threads", str(threads), "--stats", "--list-parsed", parsed_list,
                root]], [json_out])
    c["stats"] = scan_stats(json_out + ".err")
    # The phased scan's report against a parse of every file's (the warnings of files it did not
    # parse aside, which it cannot know).
    full_out = os.path.join(lists, "scan-full.json")
    run_procs([[binary, "scan", "--full", "--format", "json", "--threads", str(threads), root]], [full_out])
    c["same_as_full"] = same_report(json_out, full_out)
    parsed_files = [p for p in open(parsed_list).read().split("\n") if p] if os.path.exists(parsed_list) else []

    rows["read"] = Row("read", "read every file (Python child reading bytes; read loop only)")
    jobs.append(Job(rows["read"], [[sys.executable, "-c", READER, filelist]], reader=True))
    if swiftc:
        rows["swiftc1"] = Row("swiftc1", "`swiftc -frontend -parse -filelist`, 1 process")
        jobs.append(Job(rows["swiftc1"], [[swiftc, "-frontend", "-parse", "-filelist", filelist]]))
        if threads > 1:
            cmds = []
            for i, part in enumerate(split_by_bytes(files, threads)):
                pl = os.path.join(lists, f"part{i}.txt")
                open(pl, "w").write("\n".join(part))
                cmds.append([swiftc, "-frontend", "-parse", "-filelist", pl])
            rows["swiftcN"] = Row("swiftcN", f"`swiftc -frontend -parse`, {threads} processes over byte-balanced parts")
            jobs.append(Job(rows["swiftcN"], cmds, group="ratios"))
    # Back to back in each round: parse N, scan N, scan 1, parse 1 (reversed every other round), so
    # that the ratios the targets use come from runs next to each other.
    def parse_job(t):
        key = "parse1" if t == 1 else "parseN"
        rows[key] = Row(key, f"swift-syntax parse only (`scan --parse-only`), {t} thread{plural(t)}")
        rows[key].pending = not parse_only
        return Job(rows[key], [[binary, "scan", "--parse-only", "--threads", str(t), root]], group="ratios")

    def scan_job(t):
        key = "scan1" if t == 1 else "scanN"
        rows[key] = Row(key, f"`scan --format json`, {t} thread{plural(t)} (whole index + report)")
        return Job(rows[key], [[binary, "scan", "--format", "json", "--threads", str(t), root]],
                   stdout=os.path.join(lists, f"scan{t}.json"), group="ratios")

    def full_job(t):
        rows["fullN"] = Row("fullN", f"`scan --full --format json`, {t} thread{plural(t)} (every file parsed)")
        return Job(rows["fullN"], [[binary, "scan", "--full", "--format", "json", "--threads", str(t), root]],
                   stdout=os.path.join(lists, "full.json"), group="ratios")

    def parsed_job(t):
        rows["parseP"] = Row("parseP", f"swift-syntax parse only of the files scan parsed, {t} thread{plural(t)}")
        rows["parseP"].pending = not parse_only or not parsed_files
        return Job(rows["parseP"], [[binary, "scan", "--parse-only", "--threads", str(t)] + (parsed_files or [root])],
                   group="ratios")

    if threads > 1:
        jobs += [parse_job(threads), scan_job(threads), full_job(threads), parsed_job(threads), scan_job(1), parse_job(1)]
    else:
        jobs += [parse_job(1), scan_job(1), full_job(1), parsed_job(1)]
    if only is not None:
        keep = {k for k in rows if k in only}
        jobs = [j for j in jobs if j.row.key in keep]
        for k in list(rows):
            if k not in keep:
                del rows[k]
        if sliced:
            jobs += sliced_jobs(c, binary, threads, json_out, rows)
        run_interleaved(jobs, runs, c["label"])
        return rows

    # The one-singleton command: a singleton whose name is in under 5% of the files.
    found = singletons_of(json_out)
    choice = None
    if rare and rare in found:
        choice = (rare, files_mentioning(files, rare))
    elif found:
        counts = sorted(((files_mentioning(files, n), n) for n in set(found)), reverse=True)
        under = [(k, n) for k, n in counts if 0 < k < 0.05 * len(files)]
        if under:
            choice = (under[0][1], under[0][0])  # the most-mentioned of the rare ones: the harder case
    c["singletons"] = len(set(found))
    if choice:
        name, k = choice
        rows["one"] = Row("one", f"`scan --singleton {name}`, {threads} thread{plural(threads)} "
                                 f"(name in {k:,} files = {100 * k / len(files):.1f}%)")
        jobs.append(Job(rows["one"], [[binary, "scan", "--singleton", name, "--format", "json", "--threads",
                                       str(threads), root]], stdout=os.path.join(lists, "one.json")))
        # The other commands about one singleton, as dry runs (finish and inject may refuse: exit 1).
        for key, command in (("one-extract", ["extract-protocol"]), ("one-inject", ["inject", "--all"]),
                             ("one-finish", ["finish"])):
            rows[key] = Row(key, f"`{' '.join(command)} --singleton {name} --dry-run`, {threads} thread{plural(threads)}")
            jobs.append(Job(rows[key], [[binary, *command, "--singleton", name, "--dry-run", "--threads", str(threads),
                                         root]], stdout=os.path.join(lists, f"{key}.diff")))
    else:
        rows["one"] = Row("one", "`scan --singleton NAME`: n/a (no singleton found in under 5% of the files)")
        rows["one"].pending = True
    if rare:
        jobs += sliced_jobs(c, binary, threads, json_out, rows)
    run_interleaved(jobs, runs, c["label"])
    return rows


def sliced_jobs(c, binary, threads, json_out, rows):
    """The write commands where they have work: the corpus's most referenced singleton, sliced as
    `extract-protocol` suggests in a copy (bench/corpus/<tag>-sliced), then `inject --all` and
    `finish` on the copy, as dry runs."""
    try:
        found = json.load(open(json_out)).get("singletons", [])
    except (OSError, ValueError):
        return []
    if not found:
        return []
    largest = max(found, key=lambda s: (s.get("references", 0), s.get("type", "")))
    name = largest["type"]
    copy = c["root"].rstrip("/") + "-sliced"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(c["root"], copy)
    extract = subprocess.run([binary, "extract-protocol", "--singleton", name, "--threads", str(threads), copy],
                             capture_output=True, text=True)
    if extract.returncode != 0:
        log(f"[{c['label']}] extract-protocol --singleton {name} failed: {extract.stderr.strip()[:200]}")
        return []
    refs = largest.get("references", 0)
    jobs = []
    for key, command in (("sliced-inject", ["inject", "--all"]), ("sliced-finish", ["finish"])):
        rows[key] = Row(key, f"`{' '.join(command)} --singleton {name} --dry-run` after its `extract-protocol` "
                             f"({refs:,} references), {threads} threads")
        # Three runs: each takes many times a scan.
        jobs.append(Job(rows[key], [[binary, *command, "--singleton", name, "--dry-run", "--threads", str(threads), copy]],
                        stdout=os.path.join(OUT, os.path.basename(c["root"]), f"{key}.diff"), runs=3))
    return jobs


def bench_growth(corpora, binary, runs, threads, parse_only, big_runs):
    """Whole scan and bare parse at each size, interleaved (at most 3 runs: the trend matters here)."""
    jobs, result = [], []
    for c in corpora:
        cap = big_runs if c["lines"] > 2_000_000 else None
        out = os.path.join(OUT, "growth-" + os.path.basename(c["root"]) + ".json")
        scan = Row("scanN", "")
        parse = Row("parseN", "")
        parse.pending = not parse_only
        jobs.append(Job(scan, [[binary, "scan", "--format", "json", "--threads", str(threads), c["root"]]],
                        stdout=out, runs=cap))
        jobs.append(Job(parse, [[binary, "scan", "--parse-only", "--threads", str(threads), c["root"]]], runs=cap))
        result.append((c, {"scanN": scan, "parseN": parse}))
    run_interleaved(jobs, runs, "growth")
    return result


# ---------------------------------------------------------------- reporting

def fmt_s(v):
    return "—" if v is None else (f"{v:.3f} s" if v < 10 else f"{v:.2f} s")


def fmt_mb(v):
    return "—" if v is None else f"{v / 1e6:.0f} MB"


def fmt_peak(row):
    if not row.peaks:
        return "—"
    if row.nproc > 1:
        return f"{row.nproc} × {fmt_mb(row.peak)}"
    return fmt_mb(row.peak)


def ratio(a, b):
    return None if a is None or b is None or b == 0 else a / b


def paired(rows, a, b, attr="walls"):
    """Median over rounds of row a's time / row b's time in the same round (the two ran back to
    back): steadier on a shared machine than the ratio of medians."""
    if a not in rows or b not in rows or rows[a].pending or rows[b].pending:
        return None
    xs, ys = getattr(rows[a], attr), getattr(rows[b], attr)
    values = [x / y for x, y in zip(xs, ys) if y]
    return statistics.median(values) if values else None


def fmt_x(v):
    return "—" if v is None else f"{v:.2f}×"


def corpus_table(c, rows, threads, reference):
    out = []
    mb = c["bytes"] / 1e6
    out.append(f"### {c['label']}: {len(c['files']):,} files, {c['lines']:,} lines, {mb:.1f} MB"
               + (f", {len(c['packages'])} packages" if c["packages"] else ""))
    out.append("")
    head = "| what | wall (median) | CPU user+sys | peak memory |" + (" reference (1.05M lines) |" if reference else "")
    out.append(head)
    out.append("|---|---:|---:|---:|" + ("---|" if reference else ""))
    for key in ["read", "swiftc1", "swiftcN", "parse1", "parseN", "parseP", "scan1", "scanN", "fullN", "one",
                "one-extract", "one-inject", "one-finish", "sliced-inject", "sliced-finish"]:
        r = rows.get(key)
        if r is None:
            continue
        note = ""
        if r.codes - {0}:
            note = f" (exit {sorted(r.codes - {0})}{'¹' if key.startswith('swiftc') else ''})"
        if r.pending:
            line = f"| {r.what} | pending | pending | pending |"
        else:
            cpu = fmt_s(r.cpu)
            line = f"| {r.what}{note} | {fmt_s(r.wall)} | {cpu} | {fmt_peak(r)} |"
        if reference:
            line += f" {REFERENCE.get(key, '')} |"
        out.append(line)
    if any(rows[k].codes - {0} for k in ("swiftc1", "swiftcN") if k in rows):
        out.append("")
        out.append("¹ the frontend reports top-level code in files other than one `main.swift` (package manifests, "
                   "test `main.swift`/`LinuxMain.swift`); those are diagnostics, every file is parsed in full.")
    out.append("")
    g = lambda k: rows[k].wall if k in rows and not rows[k].pending else None  # noqa: E731
    c_ = lambda k: rows[k].cpu if k in rows and not rows[k].pending else None  # noqa: E731
    stats = c.get("stats", {})
    share = (f"{stats['file_share']}% of the files, {stats['line_share']}% of the lines" if "line_share" in stats else "—")
    lines = [
        ("scan / `swiftc -frontend -parse`, %d processes (paired runs)" % threads, fmt_x(paired(rows, "scanN", "swiftcN")), "≤ 0.60×"),
        ("report the same as `scan --full`'s", c.get("same_as_full", "—"), "byte for byte"),
        ("what scan parsed", share, "—"),
        ("what each phase parsed (files re-parsed to keep members count again)", phases_text(stats), "—"),
        ("scan / bare parse of the files it parsed, %d threads (paired runs)" % threads, fmt_x(paired(rows, "scanN", "parseP")), "≤ 1.10× (generated)"),
        ("scan / `scan --full`, %d threads (paired runs)" % threads, fmt_x(paired(rows, "scanN", "fullN")), "≤ 1.00×"),
        ("serial parts of the scan (from `--stats`, last warm-up run)", stats.get("serial", "—"), "—"),
        ("the report's analysis of the singletons, in parallel (from `--stats`)", stats.get("analysis", "—"), "—"),
        ("scan / bare parse of every file, %d threads (paired runs)" % threads, fmt_x(paired(rows, "scanN", "parseN")), "—"),
        ("scan / bare parse, %d threads (ratio of medians)" % threads, fmt_x(ratio(g("scanN"), g("parseN"))), "—"),
        ("scan / bare parse, 1 thread (paired runs)", fmt_x(paired(rows, "scan1", "parse1")), "—"),
        ("scan / bare parse, CPU time, %d threads (paired runs)" % threads, fmt_x(paired(rows, "scanN", "parseN", "cpus")), "(less sensitive to load)"),
        ("scan / swiftc parse, %d processes (ratio of medians)" % threads, fmt_x(ratio(g("scanN"), g("swiftcN"))), "—"),
        ("scan speed-up, %d threads vs 1 (paired runs)" % threads, fmt_x(paired(rows, "scan1", "scanN")), "—"),
        ("bare parse speed-up, %d threads vs 1 (paired runs)" % threads, fmt_x(paired(rows, "parse1", "parseN")), "1.9× (reference)"),
        ("one-singleton time", fmt_s(g("one")), "≤ 0.5 s"),
        ("one-singleton / read-all-files floor", fmt_x(ratio(g("one"), g("read"))), "reference: 0.064 s / 0.065 s"),
        ("scan peak memory, %d threads" % threads, fmt_mb(rows["scanN"].peak), "< 150 MB"),
        ("scan time per line, %d threads" % threads, per_line(g("scanN"), c["lines"]), "—"),
    ]
    if "sliced-inject" in rows:
        lines += [
            ("`inject --all` on the sliced singleton / whole scan, %d threads (ratio of medians)" % threads,
             fmt_x(ratio(g("sliced-inject"), g("scanN"))), "≤ 2×"),
            ("`inject --all` on the sliced singleton, peak memory", fmt_mb(rows["sliced-inject"].peak), "< 200 MB"),
            ("`finish` on the sliced singleton / whole scan, %d threads (ratio of medians)" % threads,
             fmt_x(ratio(g("sliced-finish"), g("scanN"))), "≤ 1×"),
        ]
    out.append("| ratio | value | target |")
    out.append("|---|---:|---|")
    for a, b, t in lines:
        out.append(f"| {a} | {b} | {t} |")
    out.append("")
    return out


def per_line(wall, lines):
    return "—" if wall is None or not lines else f"{wall / lines * 1e6:.2f} µs"


def targets(results, growth, threads, busy):
    out = []

    def verdict(ok):
        return "—" if ok is None else ("PASS" if ok else "FAIL")

    for c, rows in results:
        g = lambda k: rows[k].wall if k in rows and not rows[k].pending else None  # noqa: E731
        label = c["label"]
        stats = c.get("stats", {})
        parsed = f"; scan parsed {stats['line_share']}% of the lines" if "line_share" in stats else ""
        if "swiftcN" in rows:
            r = paired(rows, "scanN", "swiftcN")
            out.append(f"- {label}: scan ≤ 0.6 × `swiftc -frontend -parse` ({threads} processes over byte-balanced parts): "
                       f"{verdict(None if r is None else r <= 0.6)} ({fmt_x(r)}{parsed})")
        if label.startswith("generated"):
            r = paired(rows, "scanN", "parseP")
            out.append(f"- {label}: scan ≤ 1.1 × the bare parse of the files it parsed: "
                       f"{verdict(None if r is None else r <= 1.1)} ({fmt_x(r)}{parsed})")
        if "fullN" in rows:
            r = paired(rows, "scanN", "fullN")
            out.append(f"- {label}: scan no slower than `scan --full` (every file parsed): "
                       f"{verdict(None if r is None else r <= 1.0)} ({fmt_x(r)})")
        peak = rows["scanN"].peak if "scanN" in rows else None
        out.append(f"- {label}: scan peak memory < 150 MB: {verdict(None if peak is None else peak < 150e6)} ({fmt_mb(peak)})")
        if "sliced-inject" in rows:
            inject, finish, scan = g("sliced-inject"), g("sliced-finish"), g("scanN")
            r = ratio(inject, scan)
            peak = rows["sliced-inject"].peak
            out.append(f"- {label}: `inject --all` on the sliced singleton ≤ 2 × the scan: "
                       f"{verdict(None if r is None else r <= 2)} ({fmt_x(r)}); peak < 200 MB: "
                       f"{verdict(None if peak is None else peak < 200e6)} ({fmt_mb(peak)})")
            r = ratio(finish, scan)
            out.append(f"- {label}: `finish` on the sliced singleton ≤ 1 × the scan: "
                       f"{verdict(None if r is None else r <= 1)} ({fmt_x(r)})")
        one = g("one")
        if "one" in rows:
            out.append(f"- {label}: one-singleton ≤ 0.5 s: {verdict(None if one is None else one <= 0.5)} "
                       f"({fmt_s(one)}, {fmt_x(ratio(one, g('read')))} the read floor)")
    if len(growth) >= 2:
        def steps(attr):
            per = [(c["lines"], getattr(rows["scanN"], attr) / c["lines"]) for c, rows in growth]
            worst = max(b / a for (_, a), (_, b) in zip(per, per[1:]))
            return worst, ", ".join(f"{n / 1e3:,.0f}k: {t * 1e6:.2f} µs" for n, t in per)

        wall_worst, wall_text = steps("wall")
        cpu_worst, cpu_text = steps("cpu")
        if wall_worst <= 1.2:
            v = "PASS"
        elif cpu_worst <= 1.2 and busy:
            v = "PASS by CPU time (wall time is noisy: the machine was busy)"
        else:
            v = "FAIL"
        out.append(f"- linear growth: scan time per line grows ≤ 1.2× from one size to the next: {v} "
                   f"(largest step: wall {wall_worst:.2f}×, CPU {cpu_worst:.2f}×; wall per line {wall_text}; "
                   f"CPU per line {cpu_text})")
        peaks = [(c["lines"], rows["scanN"].peak) for c, rows in growth]
        sub = all(p2 / p1 <= n2 / n1 for (n1, p1), (n2, p2) in zip(peaks, peaks[1:]))
        mem = ", ".join(f"{n / 1e3:,.0f}k: {fmt_mb(p)}" for n, p in peaks)
        out.append(f"- peak memory flat or sublinear (grows less than the lines from one size to the next): "
                   f"{verdict(sub)} ({mem})")
    return out


def growth_table(growth):
    out = ["| lines | files | MB | runs | scan wall | scan CPU | scan peak | scan µs/line | scan CPU µs/line | parse-only wall | parse-only peak | parse µs/line | scan / parse |",
           "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for c, rows in growth:
        s, p = rows["scanN"], rows.get("parseN")
        pw = p.wall if p and not p.pending else None
        out.append(f"| {c['lines']:,} | {len(c['files']):,} | {c['bytes'] / 1e6:.1f} | {len(s.walls)} | {fmt_s(s.wall)} | "
                   f"{fmt_s(s.cpu)} | {fmt_mb(s.peak)} | {per_line(s.wall, c['lines'])} | {per_line(s.cpu, c['lines'])} | "
                   f"{fmt_s(pw)} | {fmt_mb(p.peak) if pw else '—'} | {per_line(pw, c['lines'])} | {fmt_x(ratio(s.wall, pw))} |")
    return out


def cpu_busy_fraction(seconds=2.0):
    """Share of all cores' time spent not idle over `seconds`, from /proc/stat; None elsewhere."""
    def sample():
        with open("/proc/stat") as f:
            values = [int(v) for v in f.readline().split()[1:]]
        return sum(values), values[3] + (values[4] if len(values) > 4 else 0)
    try:
        total0, idle0 = sample()
        time.sleep(seconds)
        total1, idle1 = sample()
    except (OSError, ValueError, IndexError):
        return None
    total = total1 - total0
    return None if total <= 0 else 1 - (idle1 - idle0) / total


def cpu_model():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def mem_total():
    try:
        for line in open("/proc/meminfo"):
            if line.startswith("MemTotal"):
                return f"{int(line.split()[1]) / 1024 / 1024:.0f} GB"
    except OSError:
        pass
    return "?"


# ---------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default=os.path.join(ROOT, ".build/release/desingleton"), help="desingleton binary")
    ap.add_argument("--runs", type=int, default=None, help="runs per row, median reported (default 7; --quick: 1)")
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1,
                    help="threads / processes for the parallel rows (default: all cores)")
    ap.add_argument("--quick", action="store_true", help="smoke run: small corpora, 1 run")
    ap.add_argument("--no-mirror", action="store_true", help="skip the mirror corpus")
    ap.add_argument("--no-growth", action="store_true", help="skip the 100k/300k/3M sizes")
    ap.add_argument("--no-protobuf", action="store_true", help="skip the mirror corpus with swift-protobuf")
    ap.add_argument("--no-ten", action="store_true", help="skip the corpus of ten large packages of the mirror")
    ap.add_argument("--no-app", action="store_true", help="skip the practice app (the write commands on a real app)")
    ap.add_argument("--output", default=os.path.join(HERE, "results.md"), help="where to write the Markdown")
    args = ap.parse_args()
    runs = args.runs or (1 if args.quick else 7)
    threads = max(1, args.threads)
    binary = os.path.abspath(args.bin)
    if not os.access(binary, os.X_OK):
        sys.exit(f"bench: no desingleton binary at {binary}; run `swift build -c release --product desingleton` or pass --bin")
    swiftc = shutil.which("swiftc")
    parse_only = has_parse_only(binary)
    if not parse_only:
        log("bench: this binary has no `scan --parse-only`; those rows are marked pending")
    os.makedirs(OUT, exist_ok=True)
    busy_at_start = cpu_busy_fraction()
    started = time.perf_counter()
    load = os.getloadavg()[0]

    if args.quick:
        mirror_lines, main_size, growth_sizes = 100_000, ("100k", 100_000), [("30k", 30_000), ("100k", 100_000)]
    else:
        mirror_lines, main_size, growth_sizes = 1_000_000, ("1m", 1_000_000), \
            [("100k", 100_000), ("300k", 300_000), ("1m", 1_000_000), ("3m", 3_000_000)]

    results = []
    mirror = None if args.no_mirror else prepare_mirror(mirror_lines, "quick" if args.quick else "1m")
    if mirror:
        results.append((mirror, bench_corpus(mirror, binary, runs, threads, swiftc, parse_only)))
    gen_main = prepare_generated(main_size[1], main_size[0])
    gen_rows = bench_corpus(gen_main, binary, runs, threads, swiftc, parse_only, rare=generate.RARE)
    results.append((gen_main, gen_rows))
    if mirror and not args.no_protobuf:
        # The mirror's sources with swift-protobuf first: its generated `.pb.swift` files are nothing
        # but members, tens of thousands of lines each.
        proto = prepare_mirror(int(mirror_lines * 1.25), "protobuf" if not args.quick else "protobuf-quick",
                               first=("apple/swift-protobuf",))
        proto["label"] = "mirror with swift-protobuf"
        results.append((proto, bench_corpus(proto, binary, runs, threads, swiftc, parse_only,
                                            only={"read", "swiftcN", "parseN", "scanN", "fullN"})))
    if mirror and not args.no_ten and not args.quick:
        # Ten of the mirror's largest packages whole, at their highest tags: generated code
        # (swift-syntax's nodes, swift-protobuf's messages) that names accessors of types that are
        # never singletons, beside servers and libraries.
        ten = prepare_mirror(10_000_000, "ten", only=TEN_PACKAGES)
        if ten:
            ten["label"] = "ten packages"
            results.append((ten, bench_corpus(ten, binary, runs, threads, swiftc, parse_only,
                                              only={"read", "swiftcN", "parseN", "scanN", "fullN"})))

    if not args.no_app and not args.quick:
        # The write commands on a real app's most referenced singleton, against its whole scan.
        app = prepare_app()
        if app:
            results.append((app, bench_corpus(app, binary, runs, threads, swiftc, parse_only,
                                              only={"read", "swiftcN", "scanN", "fullN"}, sliced=True)))

    growth = []
    if not args.no_growth:
        others = []
        for tag, lines in growth_sizes:
            if tag != main_size[0]:
                c = prepare_generated(lines, tag)
                others.append(c)
        growth = bench_growth(others, binary, min(runs, 3), threads, parse_only, big_runs=min(runs, 3))
        if any(tag == main_size[0] for tag, _ in growth_sizes):
            growth.append((gen_main, gen_rows))
        growth.sort(key=lambda cr: cr[0]["lines"])

    elapsed = time.perf_counter() - started
    md = ["# desingleton benchmark", ""]
    md.append(f"- date: {datetime.datetime.now().strftime('%Y-%m-%d %H:%M')}")
    md.append(f"- machine: {os.cpu_count()} cores (nproc), {cpu_model()}, {mem_total()} RAM, {platform.system()} "
              f"{platform.release()}; load average (1 min) at start {load:.2f}, at end {os.getloadavg()[0]:.2f}")
    # The load average of this kind of VM stays near 1 even when its cores are idle; what the cores
    # did in the two seconds before the bench started says whether something else was using them.
    if busy_at_start is not None:
        md.append(f"- cores busy in the 2 s before the run: {100 * busy_at_start:.0f}% (from /proc/stat)")
        busy = busy_at_start > 0.25
    else:
        busy = load > 0.5 * (os.cpu_count() or 1)
    if busy:
        md.append("- **the machine was busy when this run started** (other processes on the cores): wall times and "
                  "thread speed-ups are pessimistic; the callgrind profile (bench/PROFILE.md) is steadier")
    swift_version = subprocess.run([swiftc or "swiftc", "--version"], capture_output=True, text=True).stdout.splitlines()
    md.append(f"- toolchain: {swift_version[0] if swift_version else 'swiftc not found'}")
    md.append(f"- binary: `{os.path.relpath(binary, ROOT)}`; {runs} run{'s' if runs > 1 else ''} per row, median; "
              f"the ratios marked \"paired runs\" are medians of per-round ratios between rows run back to back; "
              f"parallel rows use {threads} threads/processes; peak memory = ru_maxrss of each child (wait4), "
              f"as `/usr/bin/time -v` reports it; warm page cache")
    md.append(f"- the read floor is a Python child process reading every file's bytes; its own timing of the read loop (interpreter start-up excluded)")
    md.append(f"- bench wall time: {elapsed:.0f} s{' (--quick)' if args.quick else ''}")
    md.append("")
    md.append("## Same files, every row")
    md.append("")
    if not mirror and not args.no_mirror:
        md.append("_mirror corpus: no offline package mirror on this machine; skipped._")
        md.append("")
    for c, rows in results:
        md.extend(corpus_table(c, rows, threads, reference=c["label"] == "mirror"))
    if mirror:
        md.append("<details><summary>mirror packages</summary>")
        md.append("")
        md.append(", ".join(mirror["packages"]))
        md.append("")
        md.append("</details>")
        md.append("")
    if growth:
        md.append(f"## Linear growth (generated corpus, {threads} threads)")
        md.append("")
        md.extend(growth_table(growth))
        md.append("")
    md.append("## Targets (issue 16)")
    md.append("")
    md.extend(targets(results, growth, threads, busy))
    md.append("")
    text = "\n".join(md)
    with open(args.output, "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
