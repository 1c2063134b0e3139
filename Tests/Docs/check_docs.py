#!/usr/bin/env python3
"""Checks that the manual (README.md and docs/*.md) tells the truth about the binary.

1. Examples. A fenced block whose info string is `console`, preceded by a line
   `<!-- sample: NAME -->`, is run: Samples/NAME is copied to a fresh temporary folder, and each
   `$ ` line of the block runs there with `bash -c`, in order, on the same copy (a line ending in
   a backslash continues on the next). `desingleton` is the binary under test (a folder holding it
   comes first on PATH). The lines after a command, up to the next `$ ` line, are its expected
   output: its standard output, then its standard error, then `[exit N]` when it exits with N other
   than 0. Before comparing, the temporary folder's path becomes `.`, trailing spaces are dropped
   from every line and trailing blank lines from the output. Every `console` block must name its
   sample; a block that is not to be run uses another info string (`sh`, `text`, `json`, ...).
2. Flags. Each page docs/COMMAND.md has a `## Flags` section whose bullets start with the flags in
   backticks; their `--names` must be exactly those `desingleton help COMMAND` lists (without
   `--help` and `--version`). Every `--name` of the page's synopsis (its first `text` block), and
   every `--name` given to `desingleton COMMAND` in a code block that is not run, must exist
   (`--[no-]name` stands for both names).
   Every command of `desingleton --help` must have its page.
3. Links. Every relative link in the manual must name a file or folder that exists and, after a
   `#`, a heading of that Markdown file (GitHub's anchors: lowercase, punctuation dropped, spaces
   become hyphens, a repeated heading gets `-1`, `-2`, ...).

Usage: check_docs.py --bin PATH [--repo DIR]
Exits 1 with a message per problem; prints one line when everything agrees.
"""

import argparse
import difflib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

GENERIC_FLAGS = {"--help", "--version"}
FLAG = re.compile(r"--[a-z0-9][a-z0-9-]*")
FENCE = re.compile(r"^(```+|~~~+)\s*([^\s`]*)")
SAMPLE = re.compile(r"^<!--\s*sample:\s*([A-Za-z0-9_.-]+)\s*-->\s*$")
TIMEOUT = 120


class Page:
    def __init__(self, repo, rel):
        self.rel = rel
        self.path = os.path.join(repo, rel)
        with open(self.path, encoding="utf-8") as handle:
            self.lines = handle.read().split("\n")
        self.blocks = []  # (info, first line number of the content, [lines], sample or None)
        self.prose = []  # (line number, text) outside fenced blocks
        self._split()

    def _split(self):
        i = 0
        while i < len(self.lines):
            match = FENCE.match(self.lines[i])
            if not match:
                self.prose.append((i + 1, self.lines[i]))
                i += 1
                continue
            fence, info = match.group(1), match.group(2)
            sample = None
            j = i - 1
            while j >= 0 and not self.lines[j].strip():
                j -= 1
            if j >= 0:
                found = SAMPLE.match(self.lines[j].strip())
                sample = found.group(1) if found else None
            body, k = [], i + 1
            while k < len(self.lines) and not self.lines[k].startswith(fence[:3]):
                body.append(self.lines[k])
                k += 1
            self.blocks.append((info, i + 2, body, sample))
            i = k + 1


def pages_of(repo):
    rels = ["README.md"]
    docs = os.path.join(repo, "docs")
    if os.path.isdir(docs):
        rels += sorted("docs/" + name for name in os.listdir(docs) if name.endswith(".md"))
    return [Page(repo, rel) for rel in rels]


# ---------------------------------------------------------------- help


def run_help(binary, args):
    result = subprocess.run([binary] + args, capture_output=True, encoding="utf-8", errors="replace", timeout=TIMEOUT)
    if result.returncode != 0:
        raise SystemExit("check-docs: '%s %s' failed:\n%s" % (binary, " ".join(args), result.stderr))
    return result.stdout


def subcommands(binary):
    text = run_help(binary, ["--help"])
    names, inside = [], False
    for line in text.split("\n"):
        if line.startswith("SUBCOMMANDS:"):
            inside = True
        elif inside and re.match(r"^  [a-z]", line):
            names.append(line.split()[0])
        elif inside and line and not line.startswith(" "):
            inside = False
    return [name for name in names if name != "help"]


def help_flags(binary, command):
    """The --names in the OPTIONS section's left column of `desingleton help COMMAND`."""
    flags, inside = set(), False
    for line in run_help(binary, ["help", command]).split("\n"):
        if line.startswith("OPTIONS:"):
            inside = True
            continue
        if inside and line and not line.startswith(" "):
            inside = False
        match = re.match(r"^  (-\S.*?)(?:\s{2,}|$)", line) if inside else None
        if match:
            flags.update(FLAG.findall(match.group(1)))
    return flags - GENERIC_FLAGS


# ---------------------------------------------------------------- flags


def flags_section(page):
    """{flag: line} from the bullets of the page's `## Flags` section, and duplicate problems."""
    found, problems, inside = {}, [], False
    for number, line in page.prose:
        if re.match(r"^#{1,2} ", line):
            inside = line.strip() == "## Flags"
            continue
        if not inside or not line.startswith("- "):
            continue
        lead = re.match(r"^- ((?:`[^`]+`(?:,\s*|\s+and\s+|\s+or\s+|\s*/\s*)?)+)", line)
        if not lead:
            problems.append("%s:%d: a Flags bullet must start with the flag in backticks" % (page.rel, number))
            continue
        for flag in FLAG.findall(lead.group(1)):
            if flag in found:
                problems.append("%s:%d: '%s' is listed twice (also line %d)" % (page.rel, number, flag, found[flag]))
            found[flag] = number
    return found, problems


def flags_in(text):
    """The --names in a command line or synopsis; `--[no-]name` is `--name` and `--no-name`."""
    text = re.sub(r"--\[no-\]([a-z0-9-]+)", r"--\1 --no-\1", text)
    return FLAG.findall(text)


def commands_in_code(page, known):
    """(line, command, flags) for each `desingleton COMMAND ...` in a code block that is not run."""
    runs = []
    for info, start, body, _ in page.blocks:
        if info == "console":
            continue
        previous = ""
        for offset, raw in enumerate(body):
            line = previous + raw
            previous = line[:-1] + " " if line.endswith("\\") else ""
            if previous:
                continue
            line = re.sub(r"^\s*\$\s+", "", line)
            line = re.sub(r"\s#\s.*$", "", line)
            for piece in re.split(r"&&|\|\||;|\|", line):
                words = piece.split()
                if len(words) >= 2 and words[0] == "desingleton" and words[1] in known:
                    runs.append((start + offset, words[1], flags_in(" ".join(w for w in words[2:] if w.startswith("--")))))
    return runs


def check_flags(repo, binary, pages, problems):
    known = subcommands(binary)
    by_rel = {page.rel: page for page in pages}
    helps = {command: help_flags(binary, command) for command in known}
    for command in known:
        rel = "docs/%s.md" % command
        page = by_rel.get(rel)
        if page is None:
            problems.append("%s: missing: 'desingleton %s' has no page" % (rel, command))
            continue
        listed, duplicates = flags_section(page)
        problems.extend(duplicates)
        if not listed:
            problems.append("%s: no '## Flags' section with bullets" % rel)
            continue
        missing = sorted(helps[command] - set(listed))
        extra = sorted(set(listed) - helps[command])
        if missing:
            problems.append("%s: Flags lacks what 'desingleton help %s' lists: %s" % (rel, command, ", ".join(missing)))
        for flag in extra:
            problems.append("%s:%d: Flags lists '%s', which 'desingleton help %s' does not" % (rel, listed[flag], flag, command))
        synopsis = [block for block in page.blocks if block[0] == "text"]
        if not synopsis:
            problems.append("%s: no synopsis (a ```text block)" % rel)
        else:
            _, start, body, _ = synopsis[0]
            for flag in sorted(set(flags_in(" ".join(body))) - helps[command]):
                problems.append("%s:%d: the synopsis names '%s', which 'desingleton help %s' does not" % (rel, start, flag, command))
    for page in pages:
        for number, command, flags in commands_in_code(page, known):
            for flag in flags:
                if flag not in helps[command] and flag not in GENERIC_FLAGS:
                    problems.append("%s:%d: 'desingleton %s' has no option '%s'" % (page.rel, number, command, flag))
    return len(known)


# ---------------------------------------------------------------- links


def slug(heading):
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = re.sub(r"<[^>]+>", "", text)
    text = text.replace("`", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(page):
    seen, result = {}, set()
    for _, line in page.prose:
        match = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not match:
            continue
        base = slug(match.group(1))
        count = seen.get(base, 0)
        seen[base] = count + 1
        result.add(base if count == 0 else "%s-%d" % (base, count))
    return result


def check_links(repo, pages, problems):
    by_path = {os.path.normpath(page.path): page for page in pages}
    count = 0
    for page in pages:
        for number, line in page.prose:
            text = re.sub(r"`[^`]*`", "", line)
            for target in re.findall(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)", text):
                if re.match(r"^[a-z][a-z0-9+.-]*:", target):
                    continue
                count += 1
                path, _, anchor = target.partition("#")
                full = os.path.normpath(os.path.join(os.path.dirname(page.path), path)) if path else os.path.normpath(page.path)
                where = "%s:%d" % (page.rel, number)
                if not os.path.exists(full):
                    problems.append("%s: link '%s': no such file" % (where, target))
                    continue
                if not os.path.realpath(full).startswith(os.path.realpath(repo) + os.sep) and os.path.realpath(full) != os.path.realpath(repo):
                    problems.append("%s: link '%s' leaves the repository" % (where, target))
                    continue
                if anchor:
                    if not full.endswith(".md") or os.path.isdir(full):
                        problems.append("%s: link '%s': an anchor in a file that is not Markdown" % (where, target))
                        continue
                    target_page = by_path.get(full) or Page(repo, os.path.relpath(full, repo))
                    if anchor not in anchors(target_page):
                        problems.append("%s: link '%s': '%s' has no heading with the anchor '#%s'" % (where, target, os.path.relpath(full, repo), anchor))
    return count


# ---------------------------------------------------------------- examples


def parse_example(body, start):
    """[(line number, command, [expected lines])] of a console block."""
    steps, i = [], 0
    while i < len(body):
        line = body[i]
        if not line.startswith("$ "):
            if line.strip():
                raise ValueError("line %d: output before the first '$ ' command" % (start + i))
            i += 1
            continue
        number, command = start + i, line[2:]
        while command.endswith("\\") and i + 1 < len(body):
            i += 1
            command = command + "\n" + body[i]
        i += 1
        expected = []
        while i < len(body) and not body[i].startswith("$ "):
            expected.append(body[i])
            i += 1
        steps.append((number, command, expected))
    return steps


def normalise(lines, folder):
    text = "\n".join(lines)
    for path in {folder, os.path.realpath(folder)}:
        text = text.replace(path + "/", "./").replace(path, ".")
    result = [line.rstrip() for line in text.split("\n")]
    while result and not result[-1]:
        result.pop()
    return result


def run_example(repo, shim, page, info, problems):
    _, start, body, sample = info
    source = os.path.join(repo, "Samples", sample)
    if not os.path.isdir(source):
        problems.append("%s:%d: no sample 'Samples/%s'" % (page.rel, start - 1, sample))
        return 0
    try:
        steps = parse_example(body, start)
    except ValueError as error:
        problems.append("%s: %s" % (page.rel, error))
        return 0
    if not steps:
        problems.append("%s:%d: a console block with no '$ ' command" % (page.rel, start))
        return 0
    work = tempfile.mkdtemp(prefix="desingleton-docs.")
    try:
        folder = os.path.join(work, sample)
        shutil.copytree(source, folder, symlinks=True, ignore=shutil.ignore_patterns(".build*", ".swiftpm"))
        env = dict(os.environ)
        # No git repository above the copy is seen, by git or by the tool; `ls` sorts bytewise.
        env.update({"PATH": shim + os.pathsep + env.get("PATH", ""), "NO_COLOR": "1", "TERM": "dumb", "LC_ALL": "C",
                    "GIT_CEILING_DIRECTORIES": work,
                    "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "docs", "GIT_AUTHOR_EMAIL": "docs@example.com",
                    "GIT_COMMITTER_NAME": "docs", "GIT_COMMITTER_EMAIL": "docs@example.com"})
        for number, command, expected in steps:
            try:
                result = subprocess.run(["bash", "-c", command], cwd=folder, env=env, capture_output=True,
                                        encoding="utf-8", errors="replace", timeout=TIMEOUT, stdin=subprocess.DEVNULL)
                out, err, status = result.stdout, result.stderr, result.returncode
            except subprocess.TimeoutExpired:
                out, err, status = "", "(timed out after %d s)\n" % TIMEOUT, -1
            actual = (out if not out or out.endswith("\n") else out + "\n") + err
            got = normalise(actual.split("\n"), folder) + (["[exit %d]" % status] if status != 0 else [])
            want = normalise(expected, folder)
            if want != got:
                diff = difflib.unified_diff(want, got, "expected (%s:%d)" % (page.rel, number), "actual", lineterm="")
                problems.append("%s:%d: the output of '$ %s' differs:\n%s" % (page.rel, number, re.sub(r"\\\n\s*", "", command),
                                                                                "\n".join("    " + line for line in diff)))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return len(steps)


def check_examples(repo, binary, pages, problems):
    shim = tempfile.mkdtemp(prefix="desingleton-docs-bin.")
    os.symlink(binary, os.path.join(shim, "desingleton"))
    blocks = commands = 0
    try:
        for page in pages:
            for info in page.blocks:
                kind, start, _, sample = info
                if kind != "console":
                    if sample:
                        problems.append("%s:%d: '<!-- sample: %s -->' before a block that is not 'console'" % (page.rel, start - 2, sample))
                    continue
                if not sample:
                    problems.append("%s:%d: a console block without '<!-- sample: NAME -->' before it" % (page.rel, start - 1))
                    continue
                blocks += 1
                commands += run_example(repo, shim, page, info, problems)
    finally:
        shutil.rmtree(shim, ignore_errors=True)
    return blocks, commands


def main():
    parser = argparse.ArgumentParser(description="Check the manual's examples, flags and links against the binary.")
    parser.add_argument("--bin", required=True, help="the desingleton binary")
    parser.add_argument("--repo", default=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    args = parser.parse_args()
    binary = os.path.abspath(args.bin)
    if not os.access(binary, os.X_OK):
        print("check-docs: no binary at '%s' (build it, or pass BIN=...)" % args.bin, file=sys.stderr)
        return 2
    started = time.time()
    repo = os.path.abspath(args.repo)
    pages = pages_of(repo)
    problems = []
    blocks, commands = check_examples(repo, binary, pages, problems)
    command_pages = check_flags(repo, binary, pages, problems)
    links = check_links(repo, pages, problems)
    for problem in problems:
        print("error: " + problem, file=sys.stderr)
    if problems:
        print("check-docs: %d problem%s in %d pages" % (len(problems), "" if len(problems) == 1 else "s", len(pages)), file=sys.stderr)
        return 1
    print("check-docs: %d pages agree with '%s': %d examples (%d commands) run, flags of %d commands, %d links (%.1f s)"
          % (len(pages), os.path.relpath(binary, repo) if binary.startswith(repo + os.sep) else binary, blocks, commands,
             command_pages, links, time.time() - started))
    return 0


if __name__ == "__main__":
    sys.exit(main())
