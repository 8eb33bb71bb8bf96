#!/usr/bin/env python3
"""Runs the example workflows' processes (examples/*.nf: the modules they
include and their own) with the built tools, chained by hand as each
workflow block chains them, on the bundled data and the `test` profile of
examples/nextflow.config; then compares the results with one run of the tool
on the whole input:
  - hmmsearch.nf: the database cut into chunks, WARPDP_VITERBI per chunk,
    HMMSEARCH_Z on the survivors with the summed Z: its hit tables equal
    plain hmmsearch's on the whole database, and its main output too but for
    the lines HMMER itself varies (the header, the pipeline statistics);
  - amplicon-dist.nf: WARPDP_NWDIST per tile, CONCAT_TILES: byte-identical
    to one gpu-nw-dist run;
  - fold.nf: WARPDP_NUSSINOV per batch, CONCAT_BATCHES: identical to one
    gpu-nussinov run.
Each workflow's own processes also run their stub: every output must be
there. The channel plumbing (splitFasta, toSortedList, map) is this file's
Python, written after the workflow blocks: Nextflow itself does not run.
A chain in the wrong order, or missing a task, must fail the comparison:
each workflow is run once more that way and the difference demanded.

Usage: example_workflows.py REPO_ROOT BUILD_DIR VERSION
"""
import gzip
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import nf_process as nfp
from module_scripts import check_outputs
from groovy_subset import GroovyError, NfPath, NfPathList, StrictMap, Unsupported

PROFILES = ("test",)


class Workflow:
    """One examples/*.nf: its processes (own and included) and its settings."""

    def __init__(self, root, build, version, tmp, name):
        self.root, self.tmp, self.version = root, tmp, version
        self.path = root / "examples" / name
        self.own = nfp.processes(self.path)
        self.procs = dict(self.own)
        for proc_name, source in re.findall(r"include\s*\{\s*(\w+)\s*\}\s*from\s*'([^']+)'", self.path.read_text()):
            target = (self.path.parent / source).with_suffix(".nf")
            self.procs[proc_name] = nfp.processes(target)[proc_name]
        self.config = nfp.NfConfig(root / "examples" / "nextflow.config")
        self.names = {"projectDir": str(root / "examples"), "launchDir": str(tmp)}
        self.params = self.config.params(PROFILES, self.names)
        self.path_env = f"{build}:{os.environ.get('PATH', '')}"
        self.runs = 0

    def task(self, proc):
        labels = nfp.labels_of(proc)
        settings = self.config.process(proc.name, labels, PROFILES, self.names)
        cpus = int(settings.get("cpus", "1"))
        limit = re.search(r"cpus\s*:\s*(\d+)", settings.get("resourceLimits", ""))
        if limit:
            cpus = min(cpus, int(limit.group(1)))
        ext = self.config.ext(proc.name, labels, PROFILES, dict(self.names, params=self.params))
        return StrictMap("task", cpus=cpus, ext=ext, accelerator=None, process=proc.name, attempt=1, index=1)

    def run(self, name, values, block="script"):
        proc = self.procs[name]
        self.runs += 1
        result = nfp.run_task(proc, block, values, self.task(proc), StrictMap("workflow", profile=",".join(PROFILES)),
                              self.tmp / f"{self.runs:03d}.{name}.{block}", self.path_env)
        problems = check_outputs(proc, result, block, self.version)
        if problems:
            raise GroovyError("; ".join(problems))
        return result


def simple_name(path):
    return Path(path).name.split(".")[0]


def read_fasta(path):
    opener = gzip.open if open(path, "rb").read(2) == b"\x1f\x8b" else open
    records, cur = [], None
    with opener(path, "rt") as fh:
        for line in fh:
            if line.startswith(">"):
                cur = [line]
                records.append(cur)
            elif cur is not None:
                cur.append(line)
    return ["".join(r) for r in records]


def split_fasta(path, by, prefix, outdir):
    """splitFasta(by: by, file: '<prefix>.fa', compress: true): <prefix>.<n>.fa.gz, n from 1."""
    records = read_fasta(path)
    outdir.mkdir(parents=True, exist_ok=True)
    files = []
    for n, start in enumerate(range(0, len(records), by), 1):
        f = outdir / f"{prefix}.{n}.fa.gz"
        with gzip.open(f, "wt") as fh:
            fh.write("".join(records[start:start + by]))
        files.append((n, f))
    return files


def gunzip(nfpath):
    return gzip.decompress(Path(nfpath.path).read_bytes())


def tool(build, args, cwd):
    r = subprocess.run(args, cwd=cwd, capture_output=True, env=dict(os.environ, PATH=f"{build}:{os.environ['PATH']}"))
    if r.returncode != 0:
        raise GroovyError(f"{' '.join(map(str, args))}: exit {r.returncode}: {r.stderr.decode()[-500:]}")
    return r.stdout


# ---- hmmsearch.nf ----------------------------------------------------------------

def hmmer_lines(text, drop_stats):
    """The lines of an hmmsearch output that do not depend on how it was run:
    no # lines (header, options, paths), and without the pipeline statistics
    (counts of targets read and passing each filter, times) when drop_stats."""
    out, skipping = [], False
    for line in text.decode().splitlines():
        if line.startswith("#"):
            continue
        if drop_stats and line.startswith("Internal pipeline statistics summary:"):
            skipping = True
        if skipping and line.startswith("//"):
            skipping = False
        if not skipping:
            out.append(line)
    return out


def chain_hmmsearch(wf, order=lambda xs: xs):
    p = wf.params
    name = simple_name(p["targets"])
    hmm = [{"id": simple_name(p["hmm"])}, NfPath(p["hmm"])]
    chunks = split_fasta(p["targets"], p["chunk_size"], "chunk", wf.tmp / f"split{wf.runs}")
    results = []
    for n, f in chunks:
        r = wf.run("WARPDP_VITERBI", [[{"id": f"{name}.chunk{n}", "chunk": n}, NfPath(f)], hmm, [{}, []]])
        results.append((n, r))
    results = order(sorted(results, key=lambda x: x[0]))
    survivors = NfPathList(r.channels["survivors"][1] for _, r in results)
    stats = NfPathList(r.channels["stats"][1] for _, r in results)
    values = [[{"id": name}, hmm[1]], survivors, stats]
    final = wf.run("HMMSEARCH_Z", values)
    wf.run("HMMSEARCH_Z", values, "stub")
    return len(chunks), final


def compare_hmmsearch(wf, build, final):
    p = wf.params
    work = wf.tmp / "plain-hmmsearch"
    work.mkdir(exist_ok=True)
    (work / "targets.fa").write_bytes(gzip.decompress(Path(p["targets"]).read_bytes()))
    args = wf.task(wf.procs["HMMSEARCH_Z"])["ext"].get("args", "") or ""
    tool(build, ["hmmsearch", *args.split(), "--cpu", "2", "-o", "plain.txt", "--tblout", "plain.tbl",
                 "--domtblout", "plain.domtbl", p["hmm"], "targets.fa"], work)
    diffs = []
    for emit, plain, drop in (("target_summary", "plain.tbl", False), ("domain_summary", "plain.domtbl", False),
                              ("output", "plain.txt", True)):
        got = hmmer_lines(gunzip(final.channels[emit][1]), drop)
        want = hmmer_lines((work / plain).read_bytes(), drop)
        if got != want:
            first = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
            diffs.append(f"hmmsearch.nf: {emit} differs from plain hmmsearch's {plain} at line {first + 1} "
                         f"({len(got)} vs {len(want)} lines)")
    hits = sum(1 for line in hmmer_lines((work / "plain.tbl").read_bytes(), False))
    return diffs, f"{hits} hits"


# ---- amplicon-dist.nf ------------------------------------------------------------

def chain_amplicon(wf, order=lambda xs: xs):
    p = wf.params
    reads, n = NfPath(p["reads"]), p["tiles"]
    name = simple_name(p["reads"])
    tiles = []
    for k in range(1, n + 1):
        r = wf.run("WARPDP_NWDIST", [[{"id": name, "tile": k}, reads, f"{k}/{n}"]])
        tiles.append((k, r))
    tiles = order(sorted(tiles, key=lambda x: x[0]))
    files = [r.channels["distances"][1] for _, r in tiles]
    values = [[{"id": name}, NfPathList(files), files[0].name.split(".")[-2]]]
    final = wf.run("CONCAT_TILES", values)
    wf.run("CONCAT_TILES", values, "stub")
    return n, final


def compare_amplicon(wf, build, final):
    ext = wf.task(wf.procs["WARPDP_NWDIST"])["ext"].get("args", "") or ""
    whole = tool(build, ["gpu-nw-dist", *ext.split(), "--device", "cpu", "--in", wf.params["reads"]], wf.tmp)
    got = gunzip(final.channels["distances"][1])
    if got != whole:
        return [f"amplicon-dist.nf: the concatenated tiles ({len(got)} bytes) differ from one gpu-nw-dist run "
                f"({len(whole)} bytes)"], ""
    return [], f"{len(whole)} bytes"


# ---- fold.nf --------------------------------------------------------------------

def chain_fold(wf, order=lambda xs: xs):
    p = wf.params
    name = simple_name(p["rnas"])
    batches = split_fasta(p["rnas"], p["batch_size"], "batch", wf.tmp / f"split{wf.runs}")
    results = []
    for n, f in batches:
        r = wf.run("WARPDP_NUSSINOV", [[{"id": f"{name}.batch{n}", "batch": n}, NfPath(f)]])
        results.append((n, r))
    results = order(sorted(results, key=lambda x: x[0]))
    files = [r.channels["structures"][1] for _, r in results]
    values = [[{"id": name}, NfPathList(files), files[0].name.split(".")[-2]]]
    final = wf.run("CONCAT_BATCHES", values)
    wf.run("CONCAT_BATCHES", values, "stub")
    return len(batches), final


def compare_fold(wf, build, final):
    ext = wf.task(wf.procs["WARPDP_NUSSINOV"])["ext"].get("args", "") or ""
    whole = tool(build, ["gpu-nussinov", *ext.split(), "--device", "cpu", "--in", wf.params["rnas"]], wf.tmp)
    got = gunzip(final.channels["structures"][1])
    if got != whole:
        return [f"fold.nf: the concatenated batches ({len(got)} bytes) differ from one gpu-nussinov run "
                f"({len(whole)} bytes)"], ""
    return [], f"{len(whole.splitlines())} lines"


def swap_last_two(xs):
    return xs[:-2] + [xs[-1], xs[-2]]


def drop_last(xs):
    return xs[:-1]


# (file, chain, compare, what a task handles, a broken chain the comparison must catch).
# hmmsearch sorts its hits, so chunks in another order give the same tables:
# its chain is broken by losing a chunk instead.
WORKFLOWS = [
    ("hmmsearch.nf", chain_hmmsearch, compare_hmmsearch, "chunks", ("the last chunk lost", drop_last)),
    ("amplicon-dist.nf", chain_amplicon, compare_amplicon, "tiles", ("the last two tiles swapped", swap_last_two)),
    ("fold.nf", chain_fold, compare_fold, "batches", ("the last two batches swapped", swap_last_two)),
]


def config_problems(root):
    """The settings of examples/nextflow.config the modules and their error messages rely on."""
    conf = nfp.NfConfig(root / "examples" / "nextflow.config")
    settings = {(scopes, key): src.strip() for scopes, key, src in conf.entries}
    problems = []
    # topic channels (the versions outputs) left preview in Nextflow 25.04.0
    if settings.get((("manifest",), "nextflowVersion")) != "'>=25.04.0'":
        problems.append("examples/nextflow.config: manifest.nextflowVersion is not '>=25.04.0'")
    # the modules' conda refusal names podman beside docker, singularity and apptainer
    for engine in ("docker", "singularity", "apptainer", "podman"):
        if settings.get((("profiles", engine), f"{engine}.enabled")) != "true":
            problems.append(f"examples/nextflow.config: no {engine} profile enabling {engine}")
    return problems


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: example_workflows.py REPO_ROOT BUILD_DIR VERSION")
    root, build, version = Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve(), sys.argv[3]
    present = sorted(p.name for p in (root / "examples").glob("*.nf"))
    known = [w[0] for w in WORKFLOWS]
    if present != sorted(known):
        sys.exit(f"example_workflows: examples/ holds {present}; this test chains {known}: teach it the new one")
    tmp = Path(tempfile.mkdtemp(prefix="warpdp-example-workflows."))
    problems = config_problems(root)
    if not problems:
        print("examples/nextflow.config: manifest.nextflowVersion '>=25.04.0'; docker, singularity, apptainer "
              "and podman profiles")
    try:
        for name, chain, compare, unit, (broken, sabotage) in WORKFLOWS:
            try:
                wf = Workflow(root, build, version, tmp / name, name)
                tasks, final = chain(wf)
                if tasks < 2:
                    problems.append(f"{name}: the test profile makes {tasks} {unit}: the chaining is not exercised")
                diffs, what = compare(wf, build, final)
                problems += diffs
                if not diffs:
                    print(f"{name}: {tasks} {unit} chained; the result equals one whole run ({what})")
                _, wrong = chain(wf, order=sabotage)
                if not compare(wf, build, wrong)[0]:
                    problems.append(f"{name}: with {broken} the result still equals the whole run: "
                                    f"the comparison cannot fail")
                else:
                    print(f"{name}: with {broken}, the comparison fails as it must")
            except (GroovyError, Unsupported) as e:
                problems.append(f"{name}: {e}")
        for p in problems:
            print(p)
        if problems:
            sys.exit(f"example_workflows: {len(problems)} problems")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
