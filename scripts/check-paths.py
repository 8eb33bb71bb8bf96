#!/usr/bin/env python3
"""Every repository path that the comments and the docs name exists.

A comment of a C++, CUDA, CMake, shell or Python source, and any line of
README.md or docs/*.md, may name a file of the repository: a word that
starts with one of its top-level folders (core/, kernels/, tools/, ...).
Each such path must exist as a file, a folder, or a file stem with any
extension (tools/common/device_choice for its .cpp and .hpp). A trailing
':' with a line number, an anchor or punctuation is not part of the path;
'*' is a wildcard, <name> a placeholder and {a,b} alternatives, each
needing at least one match (docs/benchmarks-history.md, a journal, keeps
the paths of its day). Prints every stale path with where it is named and
exits 1 if there is one.

    scripts/check-paths.py [SOURCE_DIR]   # default: this script's repository
"""
import glob
import os
import re
import sys
from pathlib import Path

TOP = ("core", "kernels", "tools", "tests", "bench", "docs", "scripts", "modules", "containers", "examples", ".ci")
# A path: a top-level folder, a slash, then path characters; not the tail of
# a longer path or a URL (no letter, '/', '.', '$' or '}' right before it).
PATH = re.compile(r"(?<![\w/.$}{-])(?:" + "|".join(re.escape(t) for t in TOP) + r")/[\w./*<>{},+-]*")
CXX = {".cpp", ".hpp", ".h", ".cu", ".cuh", ".in"}
HASH = {".sh", ".py", ".cmake"}
SKIP_DIRS = {".git", "__pycache__", "node_modules", ".nf-test", "work", "results"}
# Paths named that are not this repository's: the snapshot file nf-test
# writes in a module's folder (none is committed).
NOT_OURS = ("tests/main.nf.test.snap",)
# The journal of past runs keeps the paths of their day, as its top says.
JOURNALS = {Path("docs/benchmarks-history.md")}


def cxx_comments(text):
    """(line, text) of each // and /* */ comment; string literals skipped."""
    out, i, n, line = [], 0, len(text), 1
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
        elif c == '"' or c == "'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            line += text.count("\n", i, j)
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append((line, text[i:j]))
            i = j
            continue
        elif text.startswith("/*", i):
            j = text.find("*/", i)
            j = n if j < 0 else j
            for k, part in enumerate(text[i:j].split("\n")):
                out.append((line + k, part))
            line += text.count("\n", i, j)
            i = j
        i += 1
    return out


def hash_comments(text, python):
    """(line, text) of each # comment (and, in Python, of docstring lines)."""
    out, in_doc = [], None
    for number, raw in enumerate(text.split("\n"), 1):
        if python:
            stripped = raw.strip()
            if in_doc:
                out.append((number, raw))
                if in_doc in stripped:
                    in_doc = None
                continue
            for quote in ('"""', "'''"):
                if stripped.startswith(quote) or stripped.startswith("r" + quote):
                    out.append((number, raw))
                    if stripped.count(quote) == 1:
                        in_doc = quote
                    break
            if in_doc or stripped.startswith(('"""', "'''", 'r"""', "r'''")):
                continue
        m = re.search(r"(?:^|\s)#(?!!)", raw)
        if m:
            out.append((number, raw[m.end():]))
    return out


def sources(root):
    """Files to check, relative to root, with how to read their comments."""
    for name in ("README.md", "CMakeLists.txt", "Makefile"):
        if (root / name).is_file():
            yield Path(name)
    for top in TOP:
        for dirpath, dirnames, filenames in os.walk(root / top):
            dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS)
            for f in sorted(filenames):
                yield (Path(dirpath) / f).relative_to(root)


def kind(root, rel):
    if rel.suffix == ".md":
        return "md" if (rel.parent == Path("docs") and rel not in JOURNALS) or rel == Path("README.md") else None
    if rel.suffix in CXX:
        return "cxx"
    if rel.name in ("CMakeLists.txt", "Makefile") or rel.suffix in HASH:
        return "py" if rel.suffix == ".py" else "hash"
    if not rel.suffix:
        try:
            with open(root / rel, "rb") as f:
                first = f.readline(200)
        except OSError:
            return None
        if first.startswith(b"#!") and (b"python" in first or b"sh" in first):
            return "py" if b"python" in first else "hash"
    return None


def expand(path):
    """The glob patterns a named path stands for: {a,b} alternatives, <x> any name."""
    m = re.search(r"\{([^{}]*)\}", path)
    if m:
        return [p for alt in m.group(1).split(",") for p in expand(path[:m.start()] + alt + path[m.end():])]
    return [re.sub(r"<[^<>/]*>", "*", path)]


def clean(path):
    path = re.sub(r"#.*$", "", path)
    path = re.sub(r":\d+(?:-\d+)?$", "", path)
    return path.rstrip(".,;:)'`\"")


def exists(root, path):
    if path.startswith(NOT_OURS):
        return True
    for pattern in expand(path):
        pattern = pattern.rstrip("/")
        # A module's own files (tests/main.nf.test) are named from its folder.
        bases = [root] + ([root / "modules" / "*" / "*" / "*"] if pattern.startswith("tests/") else [])
        if not any(glob.glob(str(base / pattern) + suffix, recursive=True) for base in bases for suffix in ("", ".*")):
            return False
    return True


def main():
    root = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent).resolve()
    stale = 0
    for rel in sources(root):
        how = kind(root, rel)
        if how is None:
            continue
        try:
            text = (root / rel).read_text()
        except (OSError, UnicodeDecodeError):
            continue
        if how == "md":
            lines = list(enumerate(text.split("\n"), 1))
        elif how == "cxx":
            lines = cxx_comments(text)
        else:
            lines = hash_comments(text, how == "py")
        for number, line in lines:
            for m in PATH.finditer(line):
                path = clean(m.group(0))
                if "/" in path and not exists(root, path):
                    print(f"{rel}:{number}: no such path: {path}")
                    stale += 1
    if stale:
        print(f"check-paths: {stale} stale path(s)")
        return 1
    print("check-paths: every path named in comments and docs exists")
    return 0


if __name__ == "__main__":
    sys.exit(main())
