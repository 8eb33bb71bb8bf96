#!/usr/bin/env python3
"""nf-core's own module linter (nf-core/tools, pinned in scripts/check-requirements.txt)
on the repository itself, where its modules sit, offline, then on planted
mistakes to show it can fail.

The repository is an nf-core modules repository: .nf-core.yml at its root
(repository_type: modules, org_path: warpdp) and every module at
modules/warpdp/<tool>/<subtool>, so modules/warpdp/warpdp/msv is module
warpdp/msv, process WARPDP_MSV, nf-test tags modules_warpdp, warpdp and
warpdp/msv. `nf-core modules lint` cannot run here as it stands: it clones
nf-core/modules for the meta.yml schema and starts Nextflow twice (`nextflow
config`, `nextflow -v`). Its Python API runs the same checks once
  - the two Nextflow calls are replaced by empty answers (no pipeline
    config, no Nextflow version): the module checks do not read the first,
    and without a version the linter skips `nextflow inspect`;
  - its "modules repository" cache (under XDG_CONFIG_HOME) is a local clone,
    origin a local bare repository, holding .nf-core.yml and our own
    modules/meta-schema.json, so nothing is fetched.
The checks that need Nextflow or nf-test cannot pass and are reported as not
run (NOT_RUN; modules/README.md lists them); every other failure fails, and
so does every warning that is not in ACCEPTED_WARNINGS, each with its reason.
The planted mistakes are linted in copies of the first module, in a
temporary repository of the same shape.

Usage: nfcore_lint.py REPO_ROOT (run with the checks' virtual environment's python)
"""
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ORG = "warpdp"

# Checks that need a program we cannot run here. oras_singularity_tag is
# decided on the container `nextflow inspect` resolves, so it is not run either
# (our Singularity image is an https:// download, which it accepts).
NOT_RUN = {
    "docker_tag": "needs `nextflow inspect`",
    "singularity_tag": "needs `nextflow inspect`",
    "oras_singularity_tag": "needs `nextflow inspect` (runs on the container it resolves)",
    "test_snapshot_exists": "needs nf-test, which writes tests/main.nf.test.snap",
}

# (check, message) pairs that are warnings by design, and why.
ACCEPTED_WARNINGS = {
    ("process_standard_label", "Non-standard labels found: `process_gpu`"):
        "process_gpu is nf-core's GPU label (the pipeline template maps it to the "
        "accelerator), but this linter's list of standard labels predates it",
}


def fail(msg):
    print(f"nfcore_lint: {msg}", file=sys.stderr)
    sys.exit(1)


def git(cwd, *args):
    env = dict(os.environ, GIT_AUTHOR_NAME="warpdp checks", GIT_AUTHOR_EMAIL="checks@warpdp.invalid",
               GIT_COMMITTER_NAME="warpdp checks", GIT_COMMITTER_EMAIL="checks@warpdp.invalid")
    subprocess.run(["git", "-c", "init.defaultBranch=master", *args], cwd=cwd, env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def nf_core_yml(directory):
    Path(directory, ".nf-core.yml").write_text(f"repository_type: modules\norg_path: {ORG}\n")


def check_licences(root, names):
    """warpdp's own tool entry in every meta.yml names the project's licence, MIT."""
    import yaml
    for name in names:
        meta = yaml.safe_load((root / "modules" / ORG / name / "meta.yml").read_text())
        ours = [e for tool in meta["tools"] for k, e in tool.items() if k == ORG]
        if not ours or any(e.get("licence") != ["MIT"] for e in ours):
            fail(f"{name}/meta.yml: tool {ORG}'s licence is {[e.get('licence') for e in ours]}, expected ['MIT']")


def make_schema_cache(tmp, schema):
    """The clone nf-core reads its schema from: $XDG_CONFIG_HOME/nfcore/nf-core/modules,
    the place of its default remote, with origin a local bare repository."""
    src = tmp / "schema-src"
    (src / "modules").mkdir(parents=True)
    nf_core_yml(src)
    shutil.copy(schema, src / "modules" / "meta-schema.json")
    git(src, "init", "-q")
    git(src, "add", "-A")
    git(src, "commit", "-q", "-m", "schema")
    git(tmp, "clone", "-q", "--bare", str(src), str(tmp / "origin.git"))
    cache = tmp / "config" / "nfcore" / "nf-core" / "modules"
    cache.parent.mkdir(parents=True)
    git(tmp, "clone", "-q", str(tmp / "origin.git"), str(cache))


def find_modules(root):
    """Module names (tool/subtool) under REPO/modules/ORG: every directory with a main.nf."""
    base = root / "modules" / ORG
    return sorted(str(p.parent.relative_to(base)) for p in base.rglob("main.nf")
                  if "tests" not in p.relative_to(base).parts)


def check_nf_core_yml(root):
    """The repository's .nf-core.yml must say what the linter and `nf-core modules install` need."""
    import yaml
    path = root / ".nf-core.yml"
    if not path.is_file():
        fail(f"{path} is missing: nf-core tools need it to treat the repository as a modules repository")
    conf = yaml.safe_load(path.read_text()) or {}
    want = {"repository_type": "modules", "org_path": ORG}
    got = {k: conf.get(k) for k in want}
    if got != want:
        fail(f"{path} says {got}, expected {want}")
    stray = sorted(str(p.parent.relative_to(root)) for p in (root / "modules").rglob("main.nf")
                   if "tests" not in p.parts and p.parent.relative_to(root / "modules").parts[0] != ORG)
    if stray:
        fail(f"modules outside modules/{ORG}/ (nf-core tools would not see them): {stray}")


def make_lint_dir(path, modules):
    """A modules repository in nf-core's shape holding `modules` {name: source dir}."""
    path.mkdir()
    nf_core_yml(path)
    for name, src in modules.items():
        shutil.copytree(src, path / "modules" / ORG / name)
    git(path, "init", "-q")
    git(path, "add", "-A")
    git(path, "commit", "-q", "-m", "modules")


def run_lint(path):
    import nf_core.modules.lint
    try:
        lint = nf_core.modules.lint.ModuleLint(directory=str(path), no_pull=True, registry=("quay.io",),
                                               hide_progress=True)
        lint.lint(all_modules=True, print_results=False)
    except Exception as e:  # the linter's own errors (e.g. an environment.yml: no schema is given for it)
        fail(f"the linter stopped on {path}: {type(e).__name__}: {e}")
    return lint


def verdict(lint):
    """(failures, not_run, accepted, warnings_that_fail) as (module, check, message) lists."""
    failures, not_run, accepted, bad_warnings = [], [], [], []
    for r in lint.failed:
        (not_run if r.lint_test in NOT_RUN else failures).append((r.component_name, r.lint_test, r.message))
    for r in lint.warned:
        key = (r.lint_test, r.message)
        (accepted if key in ACCEPTED_WARNINGS else bad_warnings).append((r.component_name, r.lint_test, r.message))
    return failures, not_run, accepted, bad_warnings


# ---- planted mistakes: each must be caught by the named check -----------------------

def plant_missing_emit(d):
    main = d / "main.nf"
    lines = main.read_text().splitlines(keepends=True)
    in_output = False
    for i, line in enumerate(lines):
        s = line.strip()
        if s == "output:":
            in_output = True
        elif in_output and "emit:" in line and "topic:" not in line:
            lines[i] = line[:line.index(", emit:")] + "\n"
            main.write_text("".join(lines))
            return
    fail("plant: no output line with an emit to remove")


def plant_input_missing_from_meta(d):
    import yaml
    meta = yaml.safe_load((d / "meta.yml").read_text())
    first = meta["input"][0]
    if isinstance(first, list) and len(first) > 1:
        first.pop()
    else:
        meta["input"].pop()
    (d / "meta.yml").write_text(yaml.safe_dump(meta, sort_keys=False))


def plant_todo(d):
    with open(d / "main.nf", "a") as fh:
        fh.write("// TODO nf-core: a template line left behind\n")


def plant_two_keywords(d):
    import yaml
    meta = yaml.safe_load((d / "meta.yml").read_text())
    meta["keywords"] = meta["keywords"][:2]
    (d / "meta.yml").write_text(yaml.safe_dump(meta, sort_keys=False))


def plant_tool_without_url(d):
    import yaml
    meta = yaml.safe_load((d / "meta.yml").read_text())
    for tool in meta["tools"]:
        for entry in tool.values():
            for key in ("homepage", "documentation", "tool_dev_url", "doi"):
                entry.pop(key, None)
    (d / "meta.yml").write_text(yaml.safe_dump(meta, sort_keys=False))


def plant_empty_doi(d):
    import yaml
    meta = yaml.safe_load((d / "meta.yml").read_text())
    next(iter(meta["tools"][0].values()))["doi"] = ""
    (d / "meta.yml").write_text(yaml.safe_dump(meta, sort_keys=False))


def plant_process_name(d):
    main = d / "main.nf"
    text = main.read_text()
    main.write_text(text.replace("process WARPDP_", "process WARPDP_X", 1))


# (what, mutate the module copy, the module's name in the copy, the check that must catch it)
PLANTS = [
    ("an output without its emit", plant_missing_emit, None, "missing_emit"),
    ("an input missing from meta.yml", plant_input_missing_from_meta, None, "correct_meta_inputs"),
    ("a hyphen in the module name", None, "-hyphen", "main_nf_module_no_punctuation"),
    ("a TODO left from nf-core's template", plant_todo, None, "module_todo"),
    ("meta.yml with two keywords (our schema wants three)", plant_two_keywords, None, "meta_yml_valid"),
    ("a tool with no homepage, documentation, repository or DOI", plant_tool_without_url, None,
     "meta_yml_valid"),
    ("an empty DOI", plant_empty_doi, None, "meta_yml_valid"),
    ("a process name not derived from the module name", plant_process_name, None, "module_process_name"),
]


def main():
    if len(sys.argv) != 2:
        fail("usage: nfcore_lint.py REPO_ROOT")
    root = Path(sys.argv[1]).resolve()
    schema = root / "modules" / "meta-schema.json"
    if not schema.is_file():
        fail(f"{schema} is missing")
    names = find_modules(root)
    if not names:
        fail(f"no module (main.nf) under {root / 'modules'}")

    tmp = Path(tempfile.mkdtemp(prefix="warpdp-nfcore-lint."))
    try:
        # nf-core reads these when imported; git may only use local files, and
        # anything that tries the network fails at once instead of waiting.
        os.environ.update(XDG_CONFIG_HOME=str(tmp / "config"), XDG_CACHE_HOME=str(tmp / "cache"),
                          GIT_ALLOW_PROTOCOL="file", HIDE_PROGRESS="1", NO_COLOR="1",
                          HTTP_PROXY="http://127.0.0.1:9", HTTPS_PROXY="http://127.0.0.1:9",
                          http_proxy="http://127.0.0.1:9", https_proxy="http://127.0.0.1:9")
        check_nf_core_yml(root)
        check_licences(root, names)
        make_schema_cache(tmp, schema)
        import logging
        logging.basicConfig(level=logging.ERROR)
        import nf_core.utils
        nf_core.utils.fetch_wf_config = lambda *args, **kwargs: {}
        nf_core.utils.get_nf_version = lambda: None

        lint = run_lint(root)
        linted = sorted({r.component_name for r in lint.passed + lint.warned + lint.failed})
        if linted != names:
            fail(f"the linter saw modules {linted}, expected {names}")
        failures, not_run, accepted, bad_warnings = verdict(lint)
        for name in names:
            passed = sorted({r.lint_test for r in lint.passed if r.component_name == name})
            print(f"{name}: {len(passed)} checks passed: {' '.join(passed)}")
            for _, check, _msg in sorted({x for x in not_run if x[0] == name}):
                print(f"{name}: not run: {check} ({NOT_RUN[check]})")
            for _, check, msg in (x for x in accepted if x[0] == name):
                print(f"{name}: warning (accepted: {ACCEPTED_WARNINGS[(check, msg)]}): {check}: {msg}")
            for _, check, msg in (x for x in bad_warnings if x[0] == name):
                print(f"{name}: WARNING: {check}: {msg}")
            for _, check, msg in (x for x in failures if x[0] == name):
                print(f"{name}: FAILED: {check}: {msg}")
        if failures or bad_warnings:
            fail(f"{len(failures)} failed checks and {len(bad_warnings)} warnings (listed above)")

        # The planted mistakes, in copies of the first module.
        first = names[0]
        for i, (what, mutate, rename, expected) in enumerate(PLANTS):
            d = tmp / f"plant{i}-src"
            shutil.copytree(root / "modules" / ORG / first, d)
            if mutate:
                mutate(d)
            name = first + (rename or "")
            pdir = tmp / f"plant{i}"
            make_lint_dir(pdir, {name: d})
            failures, _, _, bad_warnings = verdict(run_lint(pdir))
            caught = [c for c in failures + bad_warnings if c[1] == expected]
            if not caught:
                fail(f"planted {what} in {name}: check {expected} did not catch it "
                     f"(failures: {[c[1] for c in failures]}, warnings: {[c[1] for c in bad_warnings]})")
            print(f"planted {what}: caught by {expected}: {caught[0][2].splitlines()[0]}")
        print(f"nf-core module lint on {root}: {len(names)} modules pass; {len(PLANTS)} planted mistakes caught")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
