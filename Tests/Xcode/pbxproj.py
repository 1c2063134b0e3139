#!/usr/bin/env python3
"""An independent reader of Xcode project files, used to check the tool's edits.

Written apart from the tool's own reader (Sources/DesingletonIndex/XcodeProject.swift) so that a
mistake in one is not repeated in the other. Prints JSON:

  {"targets": {NAME: {"files": [...], "folders": [{"path": P, "exceptions": [...]}], "test": bool}},
   "groups": {FILE PATH: GROUP PATH}, "duplicateIds": [...], "dangling": [...], "objects": N}

Paths are relative to the folder holding the .xcodeproj.

usage: pbxproj.py PATH/Name.xcodeproj/project.pbxproj
"""
import json
import posixpath
import re
import sys

ID = re.compile(r"^[0-9A-F]{24}$")
BARE = re.compile(r"[^\s{}();,=\"]+")


class Reader:
    def __init__(self, text):
        self.text = text
        self.i = 0
        self.duplicates = []

    def fail(self, what):
        line = self.text.count("\n", 0, self.i) + 1
        raise SystemExit(f"pbxproj.py: line {line}: {what}")

    def trivia(self):
        while True:
            while self.i < len(self.text) and self.text[self.i].isspace():
                self.i += 1
            if self.text.startswith("/*", self.i):
                end = self.text.find("*/", self.i + 2)
                if end < 0:
                    self.fail("unterminated comment")
                self.i = end + 2
            elif self.text.startswith("//", self.i):
                end = self.text.find("\n", self.i)
                self.i = len(self.text) if end < 0 else end
            else:
                return

    def take(self, char):
        self.trivia()
        if not self.text.startswith(char, self.i):
            self.fail(f"expected {char!r}")
        self.i += 1

    def peek(self):
        self.trivia()
        return self.text[self.i] if self.i < len(self.text) else ""

    def string(self):
        self.trivia()
        if self.peek() == '"':
            self.i += 1
            out = []
            while self.i < len(self.text) and self.text[self.i] != '"':
                c = self.text[self.i]
                if c == "\\":
                    self.i += 1
                    c = {"n": "\n", "t": "\t", "r": "\r"}.get(self.text[self.i], self.text[self.i])
                out.append(c)
                self.i += 1
            self.take('"')
            return "".join(out)
        match = BARE.match(self.text, self.i)
        if not match:
            self.fail("expected a string")
        token = match.group(0)
        # A comment can follow a bare word without a space.
        for mark in ("/*", "//"):
            cut = token.find(mark)
            if cut > 0:
                token = token[:cut]
        self.i += len(token)
        return token

    def value(self):
        char = self.peek()
        if char == "{":
            self.i += 1
            result = {}
            while self.peek() != "}":
                key = self.string()
                self.take("=")
                value = self.value()
                self.take(";")
                if key in result:
                    self.duplicates.append(key)
                result[key] = value
            self.i += 1
            return result
        if char == "(":
            self.i += 1
            result = []
            while self.peek() != ")":
                result.append(self.value())
                if self.peek() == ",":
                    self.i += 1
                elif self.peek() != ")":
                    self.fail("expected ',' or ')'")
            self.i += 1
            return result
        return self.string()


def read(path):
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    reader = Reader(text)
    root = reader.value()
    reader.trivia()
    if reader.i != len(text):
        reader.fail("text after the end")
    return root, reader.duplicates


def describe(path):
    root, duplicates = read(path)
    objects = root["objects"]
    parent = {}
    for oid, obj in objects.items():
        if obj.get("isa") in ("PBXGroup", "PBXVariantGroup", "XCVersionGroup"):
            for child in obj.get("children", []):
                parent.setdefault(child, oid)
    project = objects[root["rootObject"]]

    def location(oid):
        obj = objects[oid]
        tree = obj.get("sourceTree", "<group>")
        own = obj.get("path", "")
        if tree == "<group>":
            base = location(parent[oid]) if oid in parent else project.get("projectDirPath", "")
        elif tree in ("SOURCE_ROOT", "<absolute>"):
            base = ""
        else:
            return None
        if base is None:
            return None
        joined = own if (own.startswith("/") or not base) else (posixpath.join(base, own) if own else base)
        return posixpath.normpath(joined) if joined else ""

    targets = {}
    sync_groups = {oid: obj for oid, obj in objects.items() if obj.get("isa") == "PBXFileSystemSynchronizedRootGroup"}
    for tid in project.get("targets", []):
        target = objects[tid]
        if target.get("isa") != "PBXNativeTarget":
            continue
        files = []
        for phase_id in target.get("buildPhases", []):
            phase = objects[phase_id]
            if phase.get("isa") != "PBXSourcesBuildPhase":
                continue
            for build_id in phase.get("files", []):
                ref = objects[build_id].get("fileRef")
                if ref is not None and location(ref) is not None:
                    files.append(location(ref))
        folders = []
        for gid, group in sync_groups.items():
            exceptions = []
            for sid in group.get("exceptions", []):
                exception = objects[sid]
                if exception.get("isa") == "PBXFileSystemSynchronizedBuildFileExceptionSet" and exception.get("target") == tid:
                    exceptions += exception.get("membershipExceptions", [])
            folder = location(gid)
            if gid in target.get("fileSystemSynchronizedGroups", []):
                folders.append({"path": folder, "exceptions": sorted(exceptions)})
            else:
                files += [posixpath.join(folder, e) for e in exceptions]
        kind = target.get("productType", "")
        targets[target["name"]] = {
            "files": sorted(files),
            "folders": folders,
            "test": kind.endswith(".unit-test") or kind.endswith(".ui-testing"),
        }

    groups = {}
    for oid, obj in objects.items():
        if obj.get("isa") == "PBXFileReference" and oid in parent and location(oid) is not None:
            groups[location(oid)] = location(parent[oid])

    dangling = set()

    def walk(value):
        if isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, str) and ID.match(value) and value not in objects:
            dangling.add(value)

    for obj in objects.values():
        walk(obj)
    return {
        "targets": targets,
        "groups": groups,
        "duplicateIds": sorted(set(duplicates)),
        "dangling": sorted(dangling),
        "objects": len(objects),
    }


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    print(json.dumps(describe(sys.argv[1]), indent=1, sort_keys=True))
