#!/usr/bin/env python3
"""Checks containers/warpdp.def and turns it into a Containerfile, for
test_containers.sh, since no Apptainer can be installed here.

  apptainer_def.py check DEF DOCKERFILE
      Parses DEF strictly (Apptainer's own rules: Bootstrap first in every
      stage, known header keys and sections, %arguments read per stage, every
      {{ VAR }} defined in its stage, %files from an earlier stage only) and
      with spython, which must see the same stages, %post lines and
      %files; then holds DEF to DOCKERFILE: the same argument defaults, the
      same build packages, the same CMake options, the same runtime packages.
  apptainer_def.py containerfile DEF CONTEXT [NAME=VALUE ...]
      Writes CONTEXT/Containerfile, which does what `apptainer build` would
      do with DEF and those build arguments: each stage FROM its image, %files
      copied (from the current directory or the named stage), %post run by
      `/bin/sh -ex` at / as Apptainer runs it, %environment written where
      Apptainer keeps it, %labels as labels, and %test run last. The host
      files that %files names are copied into CONTEXT.

spython is lenient (a misspelled section or a missing Bootstrap passes), so
it is a second opinion here, not the parser the checks rest on.
"""
import re
import shlex
import shutil
import sys
from pathlib import Path

SECTIONS = {"arguments", "files", "post", "test", "environment", "labels", "help", "runscript",
            "setup", "startscript"}
HEADERS = {"bootstrap", "from", "stage", "fingerprints"}
VAR = re.compile(r"{{\s*(\w+)\s*}}")


def fail(msg):
    sys.exit(f"apptainer_def: {msg}")


def parse(path):
    """The stages of a definition file: [{'header': {...}, 'sections': [(name, arg, [lines])]}]."""
    stages, section = [], None
    for no, raw in enumerate(Path(path).read_text().splitlines(), 1):
        line = raw.strip()
        if section is None and (not line or line.startswith("#")):
            continue
        key = line.split(":", 1)[0].strip().lower() if ":" in line and not raw[:1].isspace() else None
        if key == "bootstrap":
            stages.append({"header": {}, "sections": [], "line": no})
            section = None
        if line.startswith("%"):
            if not stages:
                fail(f"{path}:{no}: a section before the first Bootstrap: line")
            words = line[1:].split("#", 1)[0].split()
            if not words or words[0] not in SECTIONS:
                fail(f"{path}:{no}: unknown section '{line}'")
            section = (words[0], " ".join(words[1:]), [])
            stages[-1]["sections"].append(section)
        elif section is not None:
            section[2].append(raw)
        elif key in HEADERS:
            if not stages:
                fail(f"{path}:{no}: the first header line must be Bootstrap:")
            stages[-1]["header"][key] = line.split(":", 1)[1].strip()
        else:
            fail(f"{path}:{no}: '{line}' is neither a header line nor in a section")
    if not stages:
        fail(f"{path}: no Bootstrap: line")
    return stages


def body(stage, name, arg=None):
    """The lines of a stage's sections of that name (and argument), joined."""
    out = [l for n, a, ls in stage["sections"] if n == name and (arg is None or a == arg) for l in ls]
    return [l.strip() for l in out if l.strip() and not l.strip().startswith("#")]


def arguments(stage):
    args = {}
    for line in body(stage, "arguments"):
        if "=" not in line:
            fail(f"'{line}' in %arguments is not NAME=VALUE")
        k, v = line.split("=", 1)
        args[k.strip()] = v.strip()
    return args


def substitute(text, values, where):
    def value(m):
        if m.group(1) not in values:
            fail(f"{where}: {{{{ {m.group(1)} }}}} is not in the stage's %arguments")
        return values[m.group(1)]
    return VAR.sub(value, text)


def joined(lines):
    """Shell lines with their backslash continuations joined."""
    out, cur = [], ""
    for l in lines:
        cur += l.rstrip("\\").strip() + " " if l.endswith("\\") else l.strip()
        if not l.endswith("\\"):
            out.append(cur)
            cur = ""
    return out


def commands(texts):
    """Shell commands as word lists (split at &&, ;, | and the like), ${X}
    and {{ X }} both as @X@."""
    cmds = []
    for t in texts:
        lex = shlex.shlex(normalise(t), posix=True, punctuation_chars=True)
        lex.whitespace_split = True
        cmds.append([])
        for w in lex:
            if set(w) <= set("&|;()<>"):
                cmds.append([])
            else:
                cmds[-1].append(w)
    return [c for c in cmds if c]


def installs(cmds):
    """The packages of the apt-get installs among the commands (the build stage
    has two: Debian's packages, then NVIDIA's CUDA compiler)."""
    found = [c[c.index("--no-install-recommends") + 1:] for c in cmds if "--no-install-recommends" in c]
    if not found:
        fail("no apt-get install --no-install-recommends in a stage")
    return {p for f in found for p in f}


def normalise(text):
    """${X} and {{ X }} both as @X@."""
    return re.sub(r"\$\{(\w+)\}|{{\s*(\w+)\s*}}", lambda m: f"@{m.group(1) or m.group(2)}@", text)


def dockerfile_facts(path):
    """ARG defaults, and per stage the joined RUN commands, of a Dockerfile."""
    text = re.sub(r"\\\n", " ", Path(path).read_text())
    args, stages = {}, []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("ARG ") and "=" in line:
            k, v = line[4:].split("=", 1)
            args[k.strip()] = v.strip()
        elif line.startswith("FROM "):
            stages.append([])
        elif line.startswith("RUN ") and stages:
            stages[-1].append(line[4:])
    return args, stages


def check(def_path, dockerfile):
    stages = parse(def_path)
    names = []
    for s in stages:
        h = s["header"]
        for key in ("bootstrap", "from", "stage"):
            if key not in h:
                fail(f"{def_path}:{s['line']}: the stage has no {key.capitalize()}: line")
        names.append(h["stage"])
        s["args"] = arguments(s)
        raw = "\n".join([h["from"]] + [l for _, _, ls in s["sections"] for l in ls if not l.strip().startswith("#")])
        substitute(raw, s["args"], f"stage {h['stage']}")
        for n, a, _ in s["sections"]:
            if n == "files" and a:
                src = a.split()
                if src[0] != "from" or len(src) != 2 or src[1] not in names[:-1]:
                    fail(f"stage {h['stage']}: '%files {a}' must name an earlier stage")
    if len(set(names)) != len(names):
        fail(f"stage names repeat: {names}")
    build, final = stages[0], stages[-1]
    if len(stages) != 2:
        fail(f"expected two stages (build, final), found {names}")
    for s, needed in ((build, ("arguments", "files", "post")), (final, ("arguments", "files", "post", "test"))):
        present = {n for n, _, _ in s["sections"]}
        if not set(needed) <= present:
            fail(f"stage {s['header']['stage']} lacks %{', %'.join(sorted(set(needed) - present))}")
    if not body(final, "files", f"from {build['header']['stage']}"):
        fail("the final stage copies nothing from the build stage")

    # spython's reading must agree with ours.
    from spython.main.parse.parsers import SingularityParser
    recipe = SingularityParser(def_path).recipe
    if list(recipe) != names:
        fail(f"spython sees stages {list(recipe)}, this parser {names}")
    for s in stages:
        layer = recipe[s["header"]["stage"]]
        post = [l.strip() for n, _, ls in s["sections"] if n == "post" for l in ls if l.strip()]
        if layer.install[:len(post)] != post:
            fail(f"spython reads stage {s['header']['stage']}'s %post differently")
        if sorted(layer.files) != sorted(body(s, "files", "")):
            fail(f"spython reads stage {s['header']['stage']}'s %files differently")
    if recipe[names[-1]].test is None or names[0] not in recipe[names[-1]].layer_files:
        fail("spython finds no %test or no %files from the build stage in the final stage")

    # The two recipes must not drift apart.
    dargs, dstages = dockerfile_facts(dockerfile)
    defaults = {**build["args"], **final["args"]}
    for k, v in defaults.items():
        if dargs.get(k) != v:
            fail(f"default of {k}: {v} in {def_path}, {dargs.get(k)} in {dockerfile}")
    if len(dstages) != 2:
        fail(f"{dockerfile}: expected two stages")
    for which, druns, s in (("build", dstages[0], build), ("final", dstages[1], final)):
        dcmds, scmds = commands(druns), commands(joined(body(s, "post")))
        dpk, spk = installs(dcmds), installs(scmds)
        if dpk != spk:
            fail(f"the {which} stage installs {sorted(spk)} in {def_path}, {sorted(dpk)} in {dockerfile}")
        dflags = {w for c in dcmds for w in c if w.startswith("-D")}
        sflags = {w for c in scmds for w in c if w.startswith("-D")}
        if dflags != sflags:
            fail(f"the {which} stage's CMake options differ: {sorted(sflags ^ dflags)}")
    image_facts(dargs, dockerfile, body(final, "labels"))
    print(f"{def_path}: stages {', '.join(names)}; sections, arguments and spython's reading agree; "
          f"defaults, packages, CMake options and labels equal {dockerfile}'s")


PINNED_BASE = re.compile(r"debian:bookworm-[0-9]{8}-slim|debian:[\w.-]*bookworm[\w.-]*@sha256:[0-9a-f]{64}")
LABELS_NEEDED = {"title", "description", "version", "revision", "source", "licenses"}


def image_facts(dargs, dockerfile, def_labels):
    """What both recipes must say about the image: one pinned Debian 12 base
    for both stages (HMMER 3.3.2), the project's version, OCI labels with the
    MIT licence, the version and the revision from build arguments."""
    if dargs.get("BUILD_IMAGE") != dargs.get("RUNTIME_IMAGE"):
        fail(f"{dockerfile}: the stages' default bases differ: {dargs.get('BUILD_IMAGE')}, {dargs.get('RUNTIME_IMAGE')}")
    if not PINNED_BASE.fullmatch(dargs.get("BUILD_IMAGE", "")):
        fail(f"{dockerfile}: base {dargs.get('BUILD_IMAGE')} is not Debian 12 pinned by a dated tag or a digest")
    if dargs.get("HMMER_VERSION") != "3.3.2":
        fail(f"{dockerfile}: HMMER_VERSION is {dargs.get('HMMER_VERSION')}, the tools' oracle is 3.3.2")
    m = re.search(r"^project\(warpdp VERSION ([0-9.]+)", Path("CMakeLists.txt").read_text(), re.MULTILINE)
    if not m or dargs.get("WARPDP_VERSION") != m.group(1):
        fail(f"{dockerfile}: WARPDP_VERSION {dargs.get('WARPDP_VERSION')}, CMakeLists.txt says {m and m.group(1)}")
    text = re.sub(r"\\\n", " ", Path(dockerfile).read_text())
    dlabels = {k: normalise(v) for k, v in re.findall(r'org\.opencontainers\.image\.(\w+)="([^"]*)"', text)}
    slabels = {}
    for line in def_labels:
        k, _, v = line.partition(" ")
        if k.startswith("org.opencontainers.image."):
            slabels[k[len("org.opencontainers.image."):]] = normalise(v.strip())
    if not LABELS_NEEDED <= set(dlabels):
        fail(f"{dockerfile}: OCI labels {sorted(LABELS_NEEDED - set(dlabels))} missing")
    want = {"licenses": "MIT", "version": "@WARPDP_VERSION@", "revision": "@WARPDP_REVISION@"}
    for k, v in want.items():
        if dlabels[k] != v:
            fail(f"{dockerfile}: label org.opencontainers.image.{k} is {dlabels[k]}, expected {v}")
    if dlabels != slabels:
        fail(f"the OCI labels differ: Dockerfile {dlabels}, definition {slabels}")


def containerfile(def_path, context, overrides):
    stages = parse(def_path)
    context = Path(context)
    context.mkdir(parents=True, exist_ok=True)
    out = []
    for i, s in enumerate(stages):
        h = s["header"]
        if h["bootstrap"] != "docker":
            fail(f"stage {h['stage']}: only Bootstrap: docker is converted")
        values = {**arguments(s), **overrides}
        sub = lambda text: substitute(text, values, f"stage {h['stage']}")  # noqa: E731
        out.append(f"FROM {sub(h['from'])} AS {h['stage']}")
        for n, a, lines in s["sections"]:
            if n == "files":
                for line in body(s, "files", a):
                    src, dst = (sub(line).split() + [None])[:2]
                    dst = dst or src
                    if a:
                        out.append(f"COPY --from={a.split()[1]} {src} {dst}")
                    else:
                        local = f"host-{i}/{src.lstrip('/')}"
                        (context / local).parent.mkdir(parents=True, exist_ok=True)
                        copy = shutil.copytree if Path(src).is_dir() else shutil.copy
                        copy(src, context / local)
                        out.append(f"COPY {local} {dst}")
        post = [sub(l) for n, _, ls in s["sections"] if n == "post" for l in ls]
        if post:
            (context / f"post-{i}.sh").write_text("\n".join(post) + "\n")
            out += [f"COPY post-{i}.sh /.post.script",
                    "RUN cd / && /bin/sh -ex /.post.script && rm /.post.script"]
        env = [sub(l) for n, _, ls in s["sections"] if n == "environment" for l in ls]
        (context / f"env-{i}.sh").write_text("\n".join(env) + "\n")
        out.append(f"COPY env-{i}.sh /.singularity.d/env/90-environment.sh")
        for line in body(s, "labels"):
            k, _, v = sub(line).partition(" ")
            out.append(f"LABEL {k}={shlex.quote(v.strip())}")
        test = [sub(l) for n, _, ls in s["sections"] if n == "test" for l in ls]
        if test:
            (context / f"test-{i}.sh").write_text("\n".join(test) + "\n")
            out += [f"COPY test-{i}.sh /.singularity.d/test",
                    "RUN cd / && . /.singularity.d/env/90-environment.sh && /bin/sh -e /.singularity.d/test"]
    (context / "Containerfile").write_text("\n".join(out) + "\n")


def main(argv):
    if len(argv) == 4 and argv[1] == "check":
        check(argv[2], argv[3])
    elif len(argv) >= 4 and argv[1] == "containerfile":
        overrides = dict(a.split("=", 1) for a in argv[4:])
        containerfile(argv[2], argv[3], overrides)
    else:
        fail("usage: apptainer_def.py check DEF DOCKERFILE | containerfile DEF CONTEXT [NAME=VALUE ...]")


if __name__ == "__main__":
    main(sys.argv)
