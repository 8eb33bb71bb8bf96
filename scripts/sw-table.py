#!/usr/bin/env python3
"""gpu-sw's configuration table from two sweeps, and what it predicts.

kernels/sw/sw_cuda.cu's kConfigs records, for every configuration, the
unroll (2 or 4) of its one-pass and of its several-pass kernel and the rate
each measured. Refreshing it (docs/sw.md section 6) takes two sweeps on the
GPU machine, one with every kernel built at each unroll:

    bench_sw_gpu 1000000 1 0 sweep 3 > sweep_u2.txt   # built with -DWARPDP_SW_UNROLL=2
    bench_sw_gpu 1000000 1 0 sweep 3 > sweep_u4.txt   # built with -DWARPDP_SW_UNROLL=4

    scripts/sw-table.py sweep_u2.txt sweep_u4.txt            # print the table and its predictions
    scripts/sw-table.py sweep_u2.txt sweep_u4.txt --write    # and rewrite kConfigs in place

For each configuration and each of its two kernels it keeps the faster
unroll and its rate. It then prints, for each query length, the
configuration choose_config() would take and the rate the table predicts
for it (the rows of every pass, padding included, divided by the rate):
a prediction, which a run of bench_sw_gpu at those lengths measures.
"""
import argparse
import re
import sys
from pathlib import Path

TABLE = Path(__file__).resolve().parent.parent / "kernels" / "sw" / "sw_cuda.cu"
ENTRY = re.compile(r"WARPDP_SW16\((\d+), (\d+), (\d+), ([24]), ([24]), (\d+), (\d+)\)")
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


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sweep_u2")
    ap.add_argument("sweep_u4")
    ap.add_argument("--write", action="store_true", help="rewrite kConfigs in kernels/sw/sw_cuda.cu")
    ap.add_argument("--lengths", default=LENGTHS, help="query lengths to predict (comma-separated)")
    args = ap.parse_args()
    u2, u4 = read_sweep(args.sweep_u2), read_sweep(args.sweep_u4)
    if u2.keys() != u4.keys():
        sys.exit("the two sweeps hold different configurations")

    source = TABLE.read_text()
    table = {}  # name -> (G, R, rows, one-pass rate, several-pass rate)

    def entry(m):
        G, R, B = m.group(1), m.group(2), m.group(3)
        name = f"s16_g{G}_r{R}_b{B}"
        if name not in u2:
            sys.exit(f"{name} is in kConfigs but not in the sweeps")
        single = 2 if u2[name][0] >= u4[name][0] else 4
        multi = 2 if u2[name][1] >= u4[name][1] else 4
        r1, r3 = max(u2[name][0], u4[name][0]), max(u2[name][1], u4[name][1])
        table[name] = (int(G), int(R), int(G) * int(R), r1, r3)
        return f"WARPDP_SW16({G}, {R}, {B}, {single}, {multi}, {round(r1)}, {round(r3)})"

    rewritten = ENTRY.sub(entry, source)
    if missing := u2.keys() - table.keys():
        sys.exit(f"in the sweeps but not in kConfigs: {', '.join(sorted(missing))}")
    for line in rewritten.splitlines():
        if ENTRY.search(line):
            print(line.strip())
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
