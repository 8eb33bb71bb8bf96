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
  - every assertion of the test's then { assertAll(...) } holds on those
    outputs (nf-test's path(f).json, .linesGzip and the like read the real
    files; a key an assertion reads must exist), but snapshots, which need
    nf-test's stored .snap files;
  - the module chooses the GPUs from task.accelerator alone: with request N
    the command names cuda:0,..,N-1, without an accelerator no cuda;
  - a GPU test file, tests/main.gpu.nf.test, tagged "gpu", whose config
    gives its tasks an accelerator: its commands ask for those GPUs; it is
    run (and its assertions checked) only where the build has CUDA and sees
    a GPU;
  - script and stub refuse a conda or mamba profile (no conda package exists).
Then it plants mistakes in a copy of the first module (an output pattern
that matches nothing, a command that fails) and demands that they fail.

Test values: the inputs, params and ext settings of the module's nf-test
file (its tests/nextflow.config), task.cpus = 2, no accelerator, profile
"test"; nf-test's moduleDir, moduleTestDir and projectDir (the repository).

Usage: module_scripts.py REPO_ROOT BUILD_DIR VERSION
"""
import gzip
import json
import os
import subprocess
import re
import shutil
import sys
import tempfile
from pathlib import Path

import groovy_subset
import nf_process as nfp
from groovy_subset import Env, GroovyError, NfPath, ProcessError, StrictMap, Unsupported, truth

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


class JsonMap(dict):
    """A JSON object an assertion reads: a key it names must be there (Groovy
    would give null, and the message would not say why)."""

    def prop(self, name):
        if name not in self:
            raise GroovyError(f"the JSON object has no key '{name}' (its keys: {', '.join(self)})")
        return self[name]


class OutputView:
    """nf-test's path(f) on a task's output file: the properties its assertions read."""

    def __init__(self, f):
        if not isinstance(f, NfPath):
            raise GroovyError(f"path() of {f!r}, not an output file")
        self.file = Path(f.path)

    def prop(self, name):
        if name == "json":
            return json.loads(self.file.read_text(), object_hook=JsonMap)
        if name in ("linesGzip", "textGzip"):
            text = gzip.decompress(self.file.read_bytes()).decode()
            return text.splitlines() if name == "linesGzip" else text
        if name == "text":
            return self.file.read_text()
        raise Unsupported(f"path(...).{name}")

    def method(self, name, args):
        if name == "readLines" and not args:
            return self.file.read_text().splitlines()
        raise Unsupported(f"path(...).{name}()")


THEN_FUNCTIONS = {"path": OutputView, "file": lambda f: f if isinstance(f, NfPath) else file_function(f)}


def check_assertions(proc, test, result):
    """(problems, assertions that held, snapshots left to nf-test) of one test's then { } block."""
    try:
        defs, exprs = nfp.assertions(test.then_src)
        out = StrictMap("process.out", {emit: [value] for emit, value in result.channels.items()})
        names = {"process": StrictMap("process", success=True, out=out)}
        _, names = groovy_subset.run_block(defs, names, THEN_FUNCTIONS)
    except (GroovyError, Unsupported) as e:
        return [f"{proc.name}: test '{test.name}': its then {{ }} block: {e}"], 0, 0
    problems, held, snapshots = [], 0, 0
    for expr in exprs:
        if "snapshot(" in expr:
            snapshots += 1
            continue
        try:
            ok = truth(groovy_subset.evaluate(expr, names, THEN_FUNCTIONS))
        except (GroovyError, Unsupported) as e:
            problems.append(f"{proc.name}: test '{test.name}': assert {expr}: {e}")
            continue
        if ok:
            held += 1
        else:
            problems.append(f"{proc.name}: test '{test.name}': assert {expr}: false on the tool's output")
    return problems, held, snapshots


def gpus_here(build):
    """GPUs the build's tools can use: 0 without CUDA engines or a visible GPU."""
    r = subprocess.run([str(Path(build) / "gpu-msv"), "--version"], capture_output=True, text=True)
    if r.returncode != 0 or not re.search(r"^build: .*CUDA on", r.stdout, re.MULTILINE):
        return 0
    m = re.search(r"^visible GPUs: ([0-9]+)", r.stdout, re.MULTILINE)
    return int(m.group(1)) if m else 0


def device_of(proc, values, ext, accelerator):
    """The --device (or WARPDP_DEVICE) the module's command asks for."""
    names, _ = nfp.bind_inputs(proc, values)
    cmd, _ = nfp.render(proc, "script", dict(names, task=make_task(proc, ext, accelerator), workflow=make_workflow()))
    m = re.search(r"(?:--device[ =]|WARPDP_DEVICE=)(\S+)", cmd)
    return m.group(1) if m else None


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


def check_module(root, mdir, build, version, tmp, verbose=True, gpus=0):
    """Problems of one module directory (modules/<org>/<tool>/<subtool>)."""
    main = mdir / "main.nf"
    procs = nfp.processes(main)
    if len(procs) != 1:
        return [f"{main}: {len(procs)} processes, expected 1"]
    proc = next(iter(procs.values()))
    test_file = mdir / "tests" / "main.nf.test"
    gpu_file = mdir / "tests" / "main.gpu.nf.test"
    if not test_file.is_file():
        return [f"{test_file} is missing"]
    if not gpu_file.is_file():
        return [f"{gpu_file} is missing: no test runs the module on a GPU"]
    if "gpu" in nfp.file_tags(test_file):
        return [f"{test_file}: tagged gpu, but its tests ask for no GPU (main.gpu.nf.test does)"]
    if "gpu" not in nfp.file_tags(gpu_file):
        return [f"{gpu_file}: not tagged gpu (nf-core runs tests tagged gpu on its GPU runners)"]
    nft_names = {"moduleDir": str(mdir), "moduleTestDir": str(mdir / "tests"), "projectDir": str(root),
                 "baseDir": str(root)}
    problems = []
    path_env = f"{build}:{os.environ.get('PATH', '')}"
    first = None
    for tfile in (test_file, gpu_file):
        on_gpu = tfile == gpu_file
        tests, config = nfp.nf_tests(tfile, nft_names)
        if not any(not t.stub for t in tests):
            problems.append(f"{tfile}: no test runs the script (only stubs)")
        config_path = tfile.parent / config if config else None
        for n, test in enumerate(tests):
            params = dict(test.params)
            block = "stub" if test.stub else "script"
            where = f"{proc.name} {block} ('{test.name}'{', GPU' if on_gpu else ''})"
            try:
                ext = nfp.config_ext(config_path, params, proc.name)
                accel = nfp.config_accelerator(config_path, params, proc.name, nfp.labels_of(proc))
                if on_gpu and not (accel and accel.get("request")):
                    problems.append(f"{where}: {tfile.name}'s config gives the task no accelerator")
                    continue
                if not on_gpu and accel:
                    problems.append(f"{where}: {tfile.name}'s config gives the task an accelerator")
                    continue
                values = nfp.test_inputs(test.input_code, dict(nft_names, params=params), FUNCTIONS) \
                    if not test.setups else None
                if on_gpu and not test.stub and values is not None:
                    want = "cuda:" + ",".join(str(i) for i in range(accel["request"]))
                    got = device_of(proc, values, ext, accel)
                    if got != want:
                        problems.append(f"{where}: asks for device {got}, expected {want}")
                if on_gpu and not test.stub and gpus < accel["request"]:
                    if verbose:
                        print(f"{where}: device {want} rendered; not run: "
                              f"{'no CUDA build or GPU' if not gpus else f'{gpus} GPUs'} here")
                    continue
                # processes a test's setup { run(...) } starts first: their outputs are its inputs
                upstream = {}
                for k, (name, script, code) in enumerate(test.setups):
                    sproc = nfp.processes(tfile.parent / script)[name]
                    svalues = nfp.test_inputs(code, dict(nft_names, params=params, **upstream), FUNCTIONS)
                    sext = nfp.config_ext(config_path, params, name)
                    saccel = nfp.config_accelerator(config_path, params, name, nfp.labels_of(sproc))
                    sresult = nfp.run_task(sproc, block, svalues, make_task(sproc, sext, saccel), make_workflow(),
                                           tmp / f"{proc.name}.{tfile.name}.{n}.setup{k}", path_env)
                    upstream[name] = {"out": sresult.channels}
                if values is None:
                    values = nfp.test_inputs(test.input_code, dict(nft_names, params=params, **upstream), FUNCTIONS)
                if first is None and not test.stub and not test.setups and not on_gpu:
                    first = (values, ext)
                result = nfp.run_task(proc, block, values, make_task(proc, ext, accel), make_workflow(),
                                      tmp / f"{proc.name}.{tfile.name}.{n}.{block}", path_env)
            except (GroovyError, Unsupported) as e:
                problems.append(f"{proc.name}: test '{test.name}': {e}")
                continue
            p = check_outputs(proc, result, block, version)
            ap, held, snapshots = check_assertions(proc, test, result)
            problems += p + ap
            if verbose and not p:
                caught = ", ".join(f"{emit}: {' '.join(g[2]) if g[0] == 'path' else g[2].stdout.strip()}"
                                   for emit, (_, got) in result.outputs.items() for g in got
                                   if g[0] in ("path", "eval"))
                print(f"{where}: {caught}")
            if verbose and not ap:
                print(f"{where}: {held} assertions hold on the outputs"
                      + (f" ({snapshots} snapshot{'s' if snapshots != 1 else ''} left to nf-test)" if snapshots else ""))
    if first is None:
        return problems + [f"{test_file}: no test runs the script on its own inputs (without setup)"]
    values, ext = first
    tests, _ = nfp.nf_tests(test_file, nft_names)
    if not any(t.stub for t in tests):
        try:
            result = nfp.run_task(proc, "stub", values, make_task(proc, ext), make_workflow(),
                                  tmp / f"{proc.name}.stub", path_env)
            problems += check_outputs(proc, result, "stub", version)
        except (GroovyError, Unsupported) as e:
            problems.append(f"{proc.name}: stub: {e}")

    # The devices come from task.accelerator only: none, the CPU; N GPUs, cuda:0,..,N-1.
    try:
        for accel, want in ((None, None), ({"request": 1}, "cuda:0"), ({"request": 3}, "cuda:0,1,2")):
            got = device_of(proc, values, ext, accel)
            if want is None and (got is None or "cuda" in got):
                problems.append(f"{proc.name}: without task.accelerator, the command asks for device {got}")
            elif want is not None and got != want:
                problems.append(f"{proc.name}: with task.accelerator {accel}, the command asks for device {got}, "
                                f"expected {want}")
    except (GroovyError, Unsupported) as e:
        problems.append(f"{proc.name}: rendering with an accelerator: {e}")
    names, _ = nfp.bind_inputs(proc, values)
    for block in ("script", "stub"):
        try:
            nfp.render(proc, block, dict(names, task=make_task(proc, ext), workflow=make_workflow("test,conda")))
            problems.append(f"{proc.name}: the {block} block runs under a conda profile (no conda package exists)")
        except ProcessError:
            pass
        except (GroovyError, Unsupported) as e:
            problems.append(f"{proc.name}: rendering the {block} block with a conda profile: {e}")
    return problems


def plant(root, mdir, build, version, tmp, what, old, new, expected, section="output:", target="main.nf"):
    """Changes a copy of module `mdir` (beside links to the repository's other
    folders) and demands a problem that says `expected`: `old` (a regular
    expression) becomes `new` at its first match after the text `section` in the
    module's file `target`."""
    proot = tmp / f"plant-{len(list(tmp.glob('plant-*')))}"
    proot.mkdir()
    for entry in root.iterdir():
        if entry.name not in ("modules", ".git"):
            os.symlink(entry, proot / entry.name)
    copy = proot / mdir.relative_to(root)
    shutil.copytree(mdir, copy)
    main = copy / target
    text = main.read_text()
    start = text.index(section)
    m = re.compile(old).search(text, start)
    if not m:
        sys.exit(f"module_scripts: plant '{what}': {old!r} not found after '{section}' in {main}")
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
        gpus = gpus_here(build)
        print(f"GPUs the build's tools can use here: {gpus}")
        problems = []
        for mdir in mdirs:
            problems += check_module(root, mdir, build, version, tmp, gpus=gpus)
        for p in problems:
            print(p)
        if problems:
            sys.exit(f"module_scripts: {len(problems)} problems in {len(mdirs)} modules")
        print(f"module scripts: {len(mdirs)} modules' script and stub blocks run; every output is there "
              "and every assertion of their tests holds")
        by_name = {m.name: m for m in mdirs}
        plant(root, mdirs[0], build, version, tmp, "an output pattern that matches nothing",
              r'path\("', r'path("nothing-', "matches no file")
        plant(root, mdirs[0], build, version, tmp, "a command that fails",
              r'"""\n', '"""\n    false\n', "exit 1", section="script:")
        plant(root, mdirs[0], build, version, tmp, "a version command that prints more than the version",
              r"eval\(\"([^\"]*)\"\)", r'eval("\1; echo x")', "not a bare version")
        plant(root, mdirs[0], build, version, tmp, "a module that uses every GPU it sees",
              r"'cuda:' \+ \(0\.\.<gpus\)\.join\(','\)", "'cuda'", "expected cuda:0,1,2", section="script:")
        plant(root, mdirs[0], build, version, tmp, "a GPU test without the gpu tag",
              r'\n *tag "gpu"', "", "not tagged gpu", section="nextflow_process {", target="tests/main.gpu.nf.test")
        plant(root, by_name["msv"], build, version, tmp, "an assertion on a JSON key the tool does not write",
              r"\{ assert process\.success \},", r"\g<0>\n{ assert path(process.out.stats[0][1]).json.Z == 830 },",
              "has no key 'Z'", section="then {", target="tests/main.nf.test")
        plant(root, by_name["nussinov"], build, version, tmp, "an assertion on a row count the tool does not write",
              r"\.size\(\) == ([0-9]+)", r".size() == \1 + 1", "false on the tool's output", section="then {",
              target="tests/main.nf.test")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
