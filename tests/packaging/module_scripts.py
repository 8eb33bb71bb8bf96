#!/usr/bin/env python3
"""Runs every module's script: and stub: blocks with the built tools, as
Nextflow would run one task of each test in the module's tests/main.nf.test
(nf_process.py says what is and is not reproduced), and checks:
  - the command runs under `bash -C -e -u -o pipefail` (exit 0);
  - every declared output pattern captures a file: for the script, every
    output not marked optional; for the stub, every output; a .gz output is
    real gzip (nf-test reads them);
  - the versions topic's eval command prints one bare version (a digit
    first, no "v"), and for our own tools the project's (CMake's) version;
  - the module chooses the GPU from task.accelerator alone: the command
    rendered with an accelerator names cuda, the one without does not;
  - script and stub refuse a conda or mamba profile (no conda package exists).
Then it plants mistakes in a copy of the first module (an output pattern
that matches nothing, a command that fails) and demands that they fail.

Test values: the inputs, params and ext settings of the module's nf-test
file (its tests/nextflow.config), task.cpus = 2, no accelerator, profile
"test"; nf-test's moduleDir, moduleTestDir and projectDir (the repository).

Usage: module_scripts.py REPO_ROOT BUILD_DIR VERSION
"""
import gzip
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

import groovy_subset
import nf_process as nfp
from groovy_subset import Env, GroovyError, NfPath, ProcessError, StrictMap, Unsupported

CPUS = 2
BARE_VERSION = re.compile(r"[0-9][0-9A-Za-z.+_-]*")


def make_task(proc, ext, accelerator=None):
    return StrictMap("task", cpus=CPUS, ext=dict(ext), accelerator=accelerator, process=proc.name,
                     attempt=1, index=1)


def make_workflow(profile="test"):
    return StrictMap("workflow", profile=profile)


def file_function(path, checkIfExists=False):
    # A file that does not exist could not be staged: demand it whatever checkIfExists says.
    if not Path(path).exists():
        raise GroovyError(f"file('{path}') does not exist")
    return NfPath(path)


FUNCTIONS = {"file": file_function}


def check_outputs(proc, result, block, version):
    """Problems with one task's outputs."""
    problems, where = [], f"{proc.name} {block}"
    env = Env({}, {})
    for emit, (decl, got) in result.outputs.items():
        optional = bool(decl.option("optional", env))
        tool = None
        for kind, value, detail, named in got:
            if kind == "val":
                tool = value
            elif kind == "path":
                if not detail and (block == "stub" or not optional):
                    problems.append(f"{where}: output {emit}: '{value}' matches no file in {result.workdir}")
                for rel in detail:
                    if rel.endswith(".gz"):
                        try:
                            gzip.decompress((result.workdir / rel).read_bytes())
                        except (OSError, EOFError) as e:
                            problems.append(f"{where}: output {emit}: {rel} is not gzip ({e})")
            elif kind == "eval":
                out = detail.stdout.strip()
                if detail.returncode != 0:
                    problems.append(f"{where}: output {emit}: `{value}` exits {detail.returncode}: "
                                    f"{detail.stderr.strip()}")
                elif not BARE_VERSION.fullmatch(out):
                    problems.append(f"{where}: output {emit}: `{value}` prints {out!r}, not a bare version")
                elif (tool == "warpdp" or str(tool).startswith("gpu-")) and out != version:
                    problems.append(f"{where}: output {emit}: `{value}` prints {out}, the project is {version}")
    return problems


def check_module(root, mdir, build, version, tmp, verbose=True):
    """Problems of one module directory (modules/<tool>/<subtool>)."""
    main = mdir / "main.nf"
    procs = nfp.processes(main)
    if len(procs) != 1:
        return [f"{main}: {len(procs)} processes, expected 1"]
    proc = next(iter(procs.values()))
    test_file = mdir / "tests" / "main.nf.test"
    if not test_file.is_file():
        return [f"{test_file} is missing"]
    nft_names = {"moduleDir": str(mdir), "moduleTestDir": str(mdir / "tests"), "projectDir": str(root),
                 "baseDir": str(root)}
    tests, config = nfp.nf_tests(test_file, nft_names)
    if not any(not t.stub for t in tests):
        return [f"{test_file}: no test runs the script (only stubs)"]
    problems = []
    path_env = f"{build}:{os.environ.get('PATH', '')}"
    first = None
    config_path = test_file.parent / config if config else None
    for n, test in enumerate(tests):
        params = dict(test.params)
        block = "stub" if test.stub else "script"
        try:
            # processes a test's setup { run(...) } starts first: their outputs are its inputs
            upstream = {}
            for k, (name, script, code) in enumerate(test.setups):
                sproc = nfp.processes(test_file.parent / script)[name]
                svalues = nfp.test_inputs(code, dict(nft_names, params=params, **upstream), FUNCTIONS)
                sext = nfp.config_ext(config_path, params, name)
                sresult = nfp.run_task(sproc, block, svalues, make_task(sproc, sext), make_workflow(),
                                       tmp / f"{proc.name}.{n}.setup{k}", path_env)
                upstream[name] = {"out": sresult.channels}
            ext = nfp.config_ext(config_path, params, proc.name)
            values = nfp.test_inputs(test.input_code, dict(nft_names, params=params, **upstream), FUNCTIONS)
            if first is None and not test.stub and not test.setups:
                first = (values, ext)
            result = nfp.run_task(proc, block, values, make_task(proc, ext), make_workflow(),
                                  tmp / f"{proc.name}.{n}.{block}", path_env)
        except (GroovyError, Unsupported) as e:
            problems.append(f"{proc.name}: test '{test.name}': {e}")
            continue
        p = check_outputs(proc, result, block, version)
        problems += p
        if verbose and not p:
            caught = ", ".join(f"{emit}: {' '.join(g[2]) if g[0] == 'path' else g[2].stdout.strip()}"
                               for emit, (_, got) in result.outputs.items() for g in got if g[0] in ("path", "eval"))
            print(f"{proc.name} {block} ('{test.name}'): {caught}")
    if first is None:
        return problems + [f"{test_file}: no test runs the script on its own inputs (without setup)"]
    values, ext = first
    if not any(t.stub for t in tests):
        try:
            result = nfp.run_task(proc, "stub", values, make_task(proc, ext), make_workflow(),
                                  tmp / f"{proc.name}.stub", path_env)
            problems += check_outputs(proc, result, "stub", version)
        except (GroovyError, Unsupported) as e:
            problems.append(f"{proc.name}: stub: {e}")

    # The device comes from task.accelerator only.
    names, _ = nfp.bind_inputs(proc, values)
    try:
        cpu, _ = nfp.render(proc, "script", dict(names, task=make_task(proc, ext), workflow=make_workflow()))
        gpu, _ = nfp.render(proc, "script", dict(names, task=make_task(proc, ext, {"request": 1}),
                                                 workflow=make_workflow()))
        if "cuda" not in gpu:
            problems.append(f"{proc.name}: with task.accelerator set, the command does not ask for cuda")
        if "cuda" in cpu:
            problems.append(f"{proc.name}: without task.accelerator, the command still names cuda")
    except (GroovyError, Unsupported) as e:
        problems.append(f"{proc.name}: rendering with an accelerator: {e}")
    for block in ("script", "stub"):
        try:
            nfp.render(proc, block, dict(names, task=make_task(proc, ext), workflow=make_workflow("test,conda")))
            problems.append(f"{proc.name}: the {block} block runs under a conda profile (no conda package exists)")
        except ProcessError:
            pass
        except (GroovyError, Unsupported) as e:
            problems.append(f"{proc.name}: rendering the {block} block with a conda profile: {e}")
    return problems


def plant(root, mdir, build, version, tmp, what, old, new, expected, section="output"):
    """Changes a copy of module `mdir` (beside links to the repository's other
    folders, which its tests read) and demands a problem that says `expected`."""
    proot = tmp / f"plant-{len(list(tmp.glob('plant-*')))}"
    proot.mkdir()
    for entry in root.iterdir():
        if entry.name not in ("modules", ".git"):
            os.symlink(entry, proot / entry.name)
    copy = proot / mdir.relative_to(root)
    shutil.copytree(mdir, copy)
    main = copy / "main.nf"
    text = main.read_text()
    start = text.index(f"{section}:")
    m = re.compile(old).search(text, start)
    if not m:
        sys.exit(f"module_scripts: plant '{what}': {old!r} not found in the {section}: section of {main}")
    main.write_text(text[:m.start()] + m.expand(new) + text[m.end():])
    problems = check_module(proot, copy, build, version, proot / "work", verbose=False)
    caught = [p for p in problems if expected in p]
    if not caught:
        sys.exit(f"module_scripts: planted {what} in {main}, and no problem says '{expected}': {problems}")
    print(f"planted {what}: {caught[0].splitlines()[0]}")


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: module_scripts.py REPO_ROOT BUILD_DIR VERSION")
    root, build, version = Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve(), sys.argv[3]
    groovy_subset.self_check()
    mdirs = sorted(p.parent for p in (root / "modules").rglob("main.nf") if "tests" not in p.parent.parts)
    if not mdirs:
        sys.exit(f"module_scripts: no module (main.nf) under {root / 'modules'}")
    tmp = Path(tempfile.mkdtemp(prefix="warpdp-module-scripts."))
    try:
        problems = []
        for mdir in mdirs:
            problems += check_module(root, mdir, build, version, tmp)
        for p in problems:
            print(p)
        if problems:
            sys.exit(f"module_scripts: {len(problems)} problems in {len(mdirs)} modules")
        print(f"module scripts: {len(mdirs)} modules' script and stub blocks run; every output is there")
        plant(root, mdirs[0], build, version, tmp, "an output pattern that matches nothing",
              r'path\("', r'path("nothing-', "matches no file")
        plant(root, mdirs[0], build, version, tmp, "a command that fails",
              r'"""\n', '"""\n    false\n', "exit 1", section="script")
        plant(root, mdirs[0], build, version, tmp, "a version command that prints more than the version",
              r"eval\(\"([^\"]*)\"\)", r'eval("\1; echo x")', "not a bare version")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
