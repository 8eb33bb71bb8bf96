#!/usr/bin/env python3
"""Parses every Nextflow file of the project with reftrace (a DSL2 parser, pinned
in scripts/check-requirements.txt) and checks what it reads against the
modules' conventions; then plants mistakes to show each check can fail.

reftrace's Python API returns a ParseError object instead of raising, and its
command line exits 0 on parse errors, so each result is checked here.

Parsed: modules/**/main.nf and tests/nextflow.config, examples/*.nf and
examples/*.config. Checked, for each module:
  - one process, named after its path below the organisation's folder
    (modules/warpdp/warpdp/msv -> WARPDP_MSV);
  - only the directives a module may set (tag, label, container: resources,
    the accelerator and container options belong to the pipeline, and no conda
    package exists);
  - tag "${meta.id}"; one process_* size label and process_gpu;
  - the container ternary: Singularity/Apptainer get
    https://github.com/warpdp/warpdp/releases/download/v<version>/warpdp-<version>.sif
    (a plain https:// download, as nf-core's lint asks), every other engine
    quay.io/warpdp/warpdp:<version>, <version> being the project's
    (CMake's) version;
and for each workflow: every include names a file that exists and a process
that file defines; a container it sets is one of the two images.

Usage: reftrace_check.py REPO_ROOT VERSION
"""
import re
import shutil
import sys
import tempfile
from pathlib import Path

import reftrace

SIZE_LABELS = {"process_single", "process_low", "process_medium", "process_high", "process_long",
               "process_high_memory", "process_low_memory"}
ALLOWED_DIRECTIVES = {"tag", "label", "container"}


def images(version):
    return (f"https://github.com/warpdp/warpdp/releases/download/v{version}/warpdp-{version}.sif",
            f"quay.io/warpdp/warpdp:{version}")


def parse(path):
    """(module, problems) for a .nf file; (None, problems) when it does not parse."""
    result = reftrace.Module.from_file(str(path))
    if isinstance(result, reftrace.ParseError):
        return None, [f"{path}: does not parse: {result.error}"]
    return result, []


def parse_config(path):
    result = reftrace.ConfigFile.from_file(str(path))
    if result.error is not None:
        return [f"{path}: does not parse: {result.error.error}"]
    return []


def check_container(path, proc, version):
    problems = []
    sif, docker = images(version)
    for c in proc.containers:
        if c.format != reftrace.directives.container.ContainerFormat.TERNARY:
            problems.append(f"{path}: {proc.name}: container is not the singularity-or-docker ternary")
            continue
        cond = c.condition
        for word in ("workflow.containerEngine", "singularity", "apptainer",
                     "task.ext.singularity_pull_docker_container"):
            if word not in cond:
                problems.append(f"{path}: {proc.name}: container condition lacks {word}: {cond}")
        if c.true_name != sif:
            problems.append(f"{path}: {proc.name}: Singularity image is {c.true_name}, expected {sif}")
        if c.false_name != docker:
            problems.append(f"{path}: {proc.name}: Docker image is {c.false_name}, expected {docker}")
    return problems


def check_module(path, root, version):
    """Problems of one modules/<org>/<tool>/<subtool>/main.nf."""
    module, problems = parse(path)
    if module is None:
        return problems
    rel = path.parent.relative_to(root / "modules")
    # nf-core names the process after tool/subtool; the org folder is not part of it
    expected = "_".join(rel.parts[1:]).upper()
    if [p.name for p in module.processes] != [expected]:
        return problems + [f"{path}: processes {[p.name for p in module.processes]}, expected [{expected}]"]
    proc = module.processes[0]
    present = {d for d in proc.DIRECTIVE_TYPES if getattr(proc, "first_" + d) is not None}
    if present - ALLOWED_DIRECTIVES:
        problems.append(f"{path}: {expected}: directives a module may not set: {sorted(present - ALLOWED_DIRECTIVES)}")
    if [t.tag for t in proc.tags] != ["${meta.id}"]:
        problems.append(f"{path}: {expected}: tag is {[t.tag for t in proc.tags]}, expected ${{meta.id}}")
    labels = [lab.value for lab in proc.labels]
    sizes = [lab for lab in labels if lab in SIZE_LABELS]
    if len(sizes) != 1:
        problems.append(f"{path}: {expected}: needs one process_* size label, has {sizes}")
    if "process_gpu" not in labels:
        problems.append(f"{path}: {expected}: label process_gpu missing (labels: {labels})")
    if len(proc.containers) != 1:
        problems.append(f"{path}: {expected}: {len(proc.containers)} container directives, expected 1")
    return problems + check_container(path, proc, version)


def check_workflow(path, version):
    module, problems = parse(path)
    if module is None:
        return problems
    for inc in module.includes:
        if inc.from_module.startswith("plugin/"):
            continue
        target = (path.parent / inc.from_module)
        target = target if target.suffix == ".nf" else target.with_suffix(".nf")
        if not target.is_file():
            problems.append(f"{path}: include from '{inc.from_module}': {target} does not exist")
            continue
        included, p = parse(target)
        problems += p
        if included is not None:
            defined = {p.name for p in included.processes} | {w.name for w in included.workflows}
            for item in inc.items:
                if item.name not in defined:
                    problems.append(f"{path}: includes {item.name}, which {target} does not define")
    for proc in module.processes:
        problems += check_container(path, proc, version)
    return problems


def check_tree(root, version):
    """(problems, files parsed) for the whole project."""
    problems, n = [], 0
    modules = sorted(p for p in (root / "modules").rglob("main.nf") if "tests" not in p.parent.parts)
    if not modules:
        problems.append(f"no module (main.nf) under {root / 'modules'}")
    for path in modules:
        problems += check_module(path, root, version)
        n += 1
    for path in sorted((root / "modules").rglob("tests/*.config")) + sorted((root / "examples").glob("*.config")):
        problems += parse_config(path)
        n += 1
    for path in sorted((root / "examples").glob("*.nf")):
        problems += check_workflow(path, version)
        n += 1
    return problems, n


def plant(root, tmp, what, rel, old, new, version):
    """Copies the tree, replaces `old` by `new` once in `rel`, and demands a problem."""
    copy = tmp / "tree"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(root / "modules", copy / "modules")
    shutil.copytree(root / "examples", copy / "examples")
    f = copy / rel
    text = f.read_text()
    if not re.search(old, text):
        sys.exit(f"reftrace_check: plant '{what}': '{old}' not found in {rel}")
    f.write_text(re.sub(old, new, text, count=1))
    problems = check_module(f, copy, version) if rel.parts[0] == "modules" else check_workflow(f, version)
    if not problems:
        sys.exit(f"reftrace_check: planted {what} in {rel}, and nothing noticed it")
    print(f"planted {what}: {problems[0]}")


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: reftrace_check.py REPO_ROOT VERSION")
    root, version = Path(sys.argv[1]).resolve(), sys.argv[2]
    problems, n = check_tree(root, version)
    for p in problems:
        print(p)
    if problems:
        sys.exit(f"reftrace_check: {len(problems)} problems in {n} files")
    print(f"reftrace: {n} files parse; modules' names, directives, labels and images check out")

    first = sorted(p for p in (root / "modules").rglob("main.nf") if "tests" not in p.parent.parts)[0]
    rel = first.relative_to(root)
    tmp = Path(tempfile.mkdtemp(prefix="warpdp-reftrace."))
    try:
        plant(root, tmp, "a syntax error (an unclosed brace)", rel, r"input:", "input: {", version)
        plant(root, tmp, "another version in the Docker image", rel, r"quay\.io/warpdp/warpdp:", "quay.io/warpdp/warpdp:9", version)
        plant(root, tmp, "a module without label process_gpu", rel, r"label +'process_gpu'", "", version)
        plant(root, tmp, "a resource directive in a module", rel, r"label +'process_gpu'",
              "label 'process_gpu'\n    cpus 4", version)
        workflows = sorted((root / "examples").glob("*.nf"))
        if workflows:
            wrel = workflows[0].relative_to(root)
            plant(root, tmp, "an include of a file that does not exist", wrel, r"from +'\.\./modules/", "from '../modulez/", version)
        else:
            sys.exit("reftrace_check: no workflow (examples/*.nf) to plant an include error in")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
