#!/usr/bin/env python3
"""gpu-sw's configuration table from sweeps, and what it predicts.

kernels/sw/sw_configs.inc, the table, records for every shape (G lanes, R
rows a lane) the register cap B (blocks a multiprocessor), the unroll of
the step loop of its one-pass and of its several-pass kernel and the rate
each measured. Refreshing it (docs/sw.md section 6) takes a sweep on the
GPU machine of each unroll tried, every kernel built at that unroll; in a
scratch copy of the tree, --sweep-build rewrites the table for such a
build (--cap too for a build of every shape at one cap):

    scripts/sw-table.py --sweep-build 2   # then build bench_sw_gpu, and
    bench_sw_gpu 1000000 1 0 sweep 3 > sweep_u2.txt
    scripts/sw-table.py --sweep-build 4   # the same again
    bench_sw_gpu 1000000 1 0 sweep 3 > sweep_u4.txt

    scripts/sw-table.py 2=sweep_u2.txt 4=sweep_u4.txt          # print the table and its predictions
    scripts/sw-table.py 2=sweep_u2.txt 4=sweep_u4.txt --write  # and rewrite the table in place

A sweep's configurations are named s16_g<G>_r<R>_b<B>; a build with
other caps in its table (every entry's B set to 3, say) gives the same
shapes under other names, and its sweeps are passed the same way. Sweeps
of one unroll are averaged per configuration (sweeps repeated in the same
lease). For each shape the script keeps the cap whose kernels, each at its
fastest unroll, have the larger product of the two rates (one pass and
several weigh alike), with each kernel's fastest unroll and its rate; and,
as a second entry, a cap faster at one of the two kernels by more than
MARGIN. It then prints, for each query length, the
configuration choose_config() would take and the rate the table predicts
for it (the rows of every pass, padding included, divided by the rate):
a prediction, which a run of bench_sw_gpu at those lengths measures.
"""
import argparse
import re
import sys
from pathlib import Path

TABLE = Path(__file__).resolve().parent.parent / "kernels" / "sw" / "sw_configs.inc"
ENTRY = re.compile(r"WARPDP_SW16\((\d+), (\d+), (\d+), (\d+), (\d+), (\d+), (\d+)\)")
# A second cap of a shape earns its place in the table when one of its
# kernels is faster by more than this: what one configuration moves from
# one sweep or lease to the next.
MARGIN = 0.01
LENGTHS = "144,189,222,375,464,567,657,729,850,1000,1500,2005,2504,3005,3564,4061,4548,4743,5147,5478"


def read_sweep(path):
    """{configuration: (one-pass GCUPS, several-pass GCUPS)} of a sweep's output."""
    rates = {}
    try:
        text = Path(path).read_text()
    except OSError as e:
        sys.exit(f"{path}: {e.strerror}")
    for line in text.splitlines():
        f = line.split()
        if len(f) == 4 and f[0].startswith("s16_"):
            rates[f[0]] = (float(f[2]), float(f[3]))
    if not rates:
        sys.exit(f"{path}: no sweep lines (configuration, W, GCUPS one pass, GCUPS three)")
    return rates


def read_sweeps(specs):
    """{unroll: {configuration: (one-pass GCUPS, several-pass GCUPS)}}, each
    configuration's rates the mean over the sweeps of that unroll holding it."""
    runs = {}
    for spec in specs:
        unroll, sep, path = spec.partition("=")
        if not sep or not unroll.isdigit() or int(unroll) < 1:
            sys.exit(f"{spec}: expected UNROLL=SWEEP_FILE, such as 4=sweep_u4.txt")
        for name, rates in read_sweep(path).items():
            runs.setdefault(int(unroll), {}).setdefault(name, []).append(rates)
    return {unroll: {name: tuple(sum(r[i] for r in rates) / len(rates) for i in (0, 1))
                     for name, rates in by_name.items()}
            for unroll, by_name in runs.items()}


def best_of(sweeps, name):
    """(one-pass unroll, its rate, several-pass unroll, its rate) of the
    fastest unrolls swept for configuration `name`; a tie goes to the smaller."""
    unrolls = sorted(u for u in sweeps if name in sweeps[u])
    single = max(unrolls, key=lambda u: sweeps[u][name][0])
    multi = max(unrolls, key=lambda u: sweeps[u][name][1])
    return single, sweeps[single][name][0], multi, sweeps[multi][name][1]


def sweep_build(unroll, cap):
    """Rewrites the table for a sweep's build: every kernel at `unroll`, and
    with `cap`, every shape at that cap once (the rates stay, unused)."""
    source = TABLE.read_text()
    entries = list(ENTRY.finditer(source))
    if not entries:
        sys.exit(f"{TABLE}: no WARPDP_SW16 entries")
    lines = {}  # (G, R, cap) -> entry: a shape under both caps becomes one
    for m in entries:
        G, R, B, _, _, r1, r3 = m.groups()
        lines.setdefault((G, R, cap or B), f"WARPDP_SW16({G}, {R}, {cap or B}, {unroll}, {unroll}, {r1}, {r3})")
    TABLE.write_text(source[:entries[0].start()] + "\n".join(lines.values()) + source[entries[-1].end():])
    print(f"# rewrote {TABLE} for a sweep at unroll {unroll}" + (f", cap {cap}" if cap else "") +
          ": build bench_sw_gpu and run its sweep, then restore the table (git checkout)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sweeps", nargs="*", metavar="UNROLL=SWEEP_FILE")
    ap.add_argument("--write", action="store_true", help="rewrite the table, kernels/sw/sw_configs.inc")
    ap.add_argument("--lengths", default=LENGTHS, help="query lengths to predict (comma-separated)")
    ap.add_argument("--sweep-build", type=int, metavar="UNROLL",
                    help="rewrite the table for a sweep's build instead: every kernel at this unroll")
    ap.add_argument("--cap", type=int, choices=(3, 4), help="with --sweep-build: every shape at this cap")
    args = ap.parse_args()
    if args.sweep_build is not None:
        if args.sweeps or args.write or args.sweep_build < 1:
            ap.error("--sweep-build takes a positive unroll, no sweeps and no --write")
        return sweep_build(args.sweep_build, args.cap)
    if args.cap is not None:
        ap.error("--cap goes with --sweep-build")
    if not args.sweeps:
        ap.error("give the sweeps, UNROLL=SWEEP_FILE each")
    sweeps = read_sweeps(args.sweeps)
    names = set().union(*(s.keys() for s in sweeps.values()))
    shape = re.compile(r"s16_g(\d+)_r(\d+)_b(\d+)")
    swept_shapes = {c.group(1, 2) for n in names if (c := shape.fullmatch(n))}

    source = TABLE.read_text()
    entries = list(ENTRY.finditer(source))
    if not entries:
        sys.exit(f"{TABLE}: no WARPDP_SW16 entries")
    table = {}  # name -> (G, R, rows, one-pass rate, several-pass rate)
    lines = []
    for G, R in dict.fromkeys(m.group(1, 2) for m in entries):  # each shape once, in table order
        swept = {int(c.group(3)): best_of(sweeps, n) for n in names if (c := shape.fullmatch(n)) and c.group(1, 2) == (G, R)}
        if not swept:
            sys.exit(f"s16_g{G}_r{R} is in the table but not in the sweeps")
        # The cap whose two kernels do best together; and besides it the cap
        # fastest at one of the two kernels, where that beats it by more than
        # the sweeps' noise (choose_config then takes whichever is faster).
        first = max(sorted(swept), key=lambda b: swept[b][1] * swept[b][3])
        keep = {first}
        for k in (1, 3):
            fastest = max(sorted(swept), key=lambda b: swept[b][k])
            if swept[fastest][k] > swept[first][k] * (1 + MARGIN):
                keep.add(fastest)
        for B in sorted(keep, reverse=True):
            single, r1, multi, r3 = swept[B]
            table[f"s16_g{G}_r{R}_b{B}"] = (int(G), int(R), int(G) * int(R), r1, r3)
            lines.append(f"WARPDP_SW16({G}, {R}, {B}, {single}, {multi}, {round(r1)}, {round(r3)})")
    if missing := swept_shapes - {(str(g), str(r)) for g, r, *_ in table.values()}:
        sys.exit(f"in the sweeps but not in the table: {', '.join(f's16_g{g}_r{r}' for g, r in sorted(missing))}")
    rewritten = source[:entries[0].start()] + "\n".join(lines) + source[entries[-1].end():]
    for line in lines:
        print(line)
    if args.write:
        TABLE.write_text(rewritten)
        print(f"# rewrote {TABLE}")

    print("\n# predicted: query length, configuration, rows with padding, TCUPS")
    for m in (int(x) for x in args.lengths.split(",")):
        best = None
        for name, (_, _, w, r1, r3) in table.items():
            passes = (m + w - 1) // w
            seconds_per_cell = passes * w / (r1 if passes == 1 else r3)
            if best is None or seconds_per_cell < best[0]:
                best = (seconds_per_cell, name, passes * w)
        print(f"{m:6d} {best[1]:16s} {best[2]:6d} {m / best[0] / 1000:6.2f}")


if __name__ == "__main__":
    main()
