#!/usr/bin/env python3
"""Times toscana against OpenStack's tosca-parser and the Puccini wheel on the same generated
templates, on this machine, in one run, and writes the table to docs/performance.md.

Run through benches/compare.sh, which builds toscana and installs the peers first. Each
measurement is the median wall time of several runs (one for runs over 30 s) of a separate
process, with its peak resident memory; a peer is not run on sizes beyond the first where it
took more than the cap (five minutes by default). It also times `toscana check` on a tiny
template (the README's example), where process start and the embedded profile dominate.

Only the part of docs/performance.md between the BEGIN and END markers is rewritten; what is
written around it (the reading of the numbers, the profiles) stays. Standard library only.

`--only toscana` or `--only peers` measures one side and takes the other from the last run that
measured it (kept in `<work>/results.json`, each result with its date): the peers take minutes
to reach the cap and do not change when toscana does, so a change to toscana can be measured
without them, and the table says which cells come from an earlier run.
"""

import json

import argparse
import os
import platform
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# The generated variants: the peers' template (1.3 without block storage, which tosca-parser
# refuses; five node templates per unit), the TOSCA 2.0 one (three per unit), and the 1.3 one
# importing a tree of type files. Each gives gen.py's arguments for a number of node templates.
VARIANTS = {
    "1.3": lambda nodes: ["--units", str(max(1, nodes // 5)), "--no-storage"],
    "2.0": lambda nodes: ["--units", str(max(1, nodes // 3)), "--dialect", "2.0"],
    "imports": lambda nodes: ["--units", str(max(1, nodes // 5)), "--no-storage", "--type-files", str(IMPORTED_FILES)],
}
IMPORTED_FILES = 300

BEGIN = "<!-- benches/compare.sh: BEGIN -->"
END = "<!-- benches/compare.sh: END -->"
TINY = os.path.join(ROOT, "examples", "hello.yaml")

PEER_SCRIPTS = {
    "tosca-parser parse": "from toscaparser.tosca_template import ToscaTemplate\nToscaTemplate({path!r})\n",
    "Puccini compile": "import puccini.tosca\npuccini.tosca.compile('file://' + {path!r})\n",
}


def measure(cmd, runs, cap):
    """Median wall seconds, peak RSS (MiB) and median CPU seconds (user + system) of `cmd`;
    None when it fails or passes the cap. CPU time is what to compare on a busy machine: other
    processes stretch the wall time, not the work."""
    times, cpus, peak = [], [], 0
    probe = (
        "import resource, subprocess, sys, time\n"
        "t = time.perf_counter()\n"
        "r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
        "u = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
        "print(time.perf_counter() - t, u.ru_maxrss, r.returncode, u.ru_utime + u.ru_stime)\n"
    )
    for i in range(runs):
        try:
            out = subprocess.run(
                [sys.executable, "-c", probe, *cmd], capture_output=True, text=True, timeout=cap
            )
        except subprocess.TimeoutExpired:
            return None, None, "over the cap", None
        seconds, rss_kib, rc, cpu = out.stdout.split()
        if rc != "0":
            return None, None, f"exit {rc}", None
        times.append(float(seconds))
        cpus.append(float(cpu))
        peak = max(peak, int(rss_kib) // 1024)
        if float(seconds) > 30:
            break
    return statistics.median(times), peak, None, statistics.median(cpus)


def fmt(seconds):
    if seconds is None:
        return "—"
    return f"{seconds * 1000:.0f} ms" if seconds < 1 else f"{seconds:.2f} s"


def ms(seconds):
    return "—" if seconds is None else f"{seconds * 1000:.1f} ms"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--toscana", required=True)
    ap.add_argument("--python", required=True, help="the peers' virtual environment's python")
    ap.add_argument("--nodes", type=int, nargs="+", default=[1000, 4000, 10000, 100000])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--tiny-runs", type=int, default=21)
    ap.add_argument("--cap", type=int, default=300, help="seconds before a peer is given up")
    ap.add_argument("--work", default=os.path.join(ROOT, "target", "bench-compare"))
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "performance.md"))
    ap.add_argument(
        "--only",
        choices=["all", "toscana", "peers"],
        default="all",
        help="measure one side; the other comes from the last run that measured it",
    )
    args = ap.parse_args()
    today = time.strftime("%Y-%m-%d")
    cache_path = os.path.join(args.work, "results.json")
    try:
        with open(cache_path) as f:
            cache = json.load(f)
    except (OSError, ValueError):
        cache = {}

    toscana = os.path.abspath(args.toscana)
    # Each tool: the variant it reads and its command for that variant's file and output folder.
    tools = {
        "toscana check": ("1.3", lambda p, o: [toscana, "check", p]),
        "tosca2k8s": ("1.3", lambda p, o: [toscana, "k8s", p, "-o", o + "-k8s"]),
        "tosca2tf": ("1.3", lambda p, o: [toscana, "tf", p, "-o", o + "-tf"]),
        "tosca2dot": ("1.3", lambda p, o: [toscana, "dot", p, "-o", o + "-dot"]),
        "toscana check, TOSCA 2.0": ("2.0", lambda p, o: [toscana, "check", p]),
        f"toscana check, {IMPORTED_FILES} imported type files": ("imports", lambda p, o: [toscana, "check", p]),
    }
    for name, script in PEER_SCRIPTS.items():
        tools[name] = ("1.3", lambda p, o, s=script: [args.python, "-c", s.format(path=p)])

    ours = [t for t in tools if t not in PEER_SCRIPTS]
    measured = {"all": list(tools), "toscana": ours, "peers": list(PEER_SCRIPTS)}[args.only]

    if "toscana check" in measured:
        tiny, tiny_rss, _, tiny_cpu = measure([toscana, "check", TINY], args.tiny_runs, args.cap)
        cache["tiny"] = {"result": [tiny, tiny_rss, None, tiny_cpu], "date": today}
    earlier = {}
    tiny, tiny_rss, _, tiny_cpu = cache.get("tiny", {}).get("result", [None, None, None, None])
    if "tiny" in cache and "toscana check" not in measured:
        earlier["tiny template"] = cache["tiny"]["date"]
    print(f"tiny template: toscana check {ms(tiny)}  CPU {ms(tiny_cpu)}  {tiny_rss} MiB", flush=True)

    given_up = set()
    rows = []
    results = {}
    for nodes in args.nodes:
        folders = {}
        for variant in sorted({v for v, _ in tools.values()}):
            folder = os.path.join(args.work, f"n{nodes}" + ("" if variant == "1.3" else f"-{variant}"))
            subprocess.run(
                [sys.executable, os.path.join(HERE, "gen.py"), *VARIANTS[variant](nodes), "-o", folder],
                check=True,
            )
            folders[variant] = folder
        for tool, (variant, make) in tools.items():
            folder = folders[variant]
            path = os.path.join(folder, "service.yaml")
            if tool not in measured:
                kept = cache.get(f"{tool}|{nodes}")
                if kept:
                    results[(tool, nodes)] = tuple(kept["result"])
                    earlier.setdefault(tool, kept["date"])
                else:
                    results[(tool, nodes)] = (None, None, "not measured at this size", None)
                continue
            if tool in given_up:
                results[(tool, nodes)] = (None, None, "not run: over the cap on a smaller size", None)
                cache[f"{tool}|{nodes}"] = {"result": list(results[(tool, nodes)]), "date": today}
                continue
            seconds, rss, why, cpu = measure(make(path, os.path.join(folder, "out")), args.runs, args.cap)
            if why == "over the cap":
                given_up.add(tool)
            results[(tool, nodes)] = (seconds, rss, why, cpu)
            cache[f"{tool}|{nodes}"] = {"result": [seconds, rss, why, cpu], "date": today}
            print(f"{nodes:>7} nodes  {tool:<20} {fmt(seconds):>10}  CPU {fmt(cpu):>10}  {rss or '—'} MiB  {why or ''}", flush=True)

    # The cap applies to the peers: with their cells kept from an earlier run, so is its cap.
    if any(peer in measured for peer in PEER_SCRIPTS):
        cache["peer cap"] = args.cap
    peer_cap = cache.get("peer cap", args.cap)
    os.makedirs(args.work, exist_ok=True)
    with open(cache_path, "w") as f:
        json.dump(cache, f, indent=1, sort_keys=True)

    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    header = "| tool | " + " | ".join(f"{n:,} nodes" for n in args.nodes) + " |"
    lines = [header, "|---|" + "---|" * len(args.nodes)]
    for tool in tools:
        cells = []
        for n in args.nodes:
            seconds, rss, why, cpu_seconds = results[(tool, n)]
            cells.append(f"{fmt(seconds)} (CPU {fmt(cpu_seconds)}), {rss} MiB" if seconds is not None else f"— ({why})")
        lines.append(f"| {tool} | " + " | ".join(cells) + " |")
    ratios = []
    for n in args.nodes:
        ours, ours_cpu = results[("toscana check", n)][0], results[("toscana check", n)][3]
        for peer in PEER_SCRIPTS:
            theirs, theirs_cpu = results[(peer, n)][0], results[(peer, n)][3]
            if ours and theirs:
                ratios.append(
                    f"- {n:,} nodes: `toscana check` is {theirs / ours:,.0f}× faster than {peer}"
                    f" (CPU time: {theirs_cpu / ours_cpu:,.0f}×)"
                )
    # The scaling curve: time per 1,000 nodes at each size, and the growth between sizes.
    curve = [
        "| tool | " + " | ".join(f"{n:,}" for n in args.nodes) + " | growth |",
        "|---|" + "---|" * (len(args.nodes) + 1),
    ]
    for tool in tools:
        cells, growth = [], []
        for n in args.nodes:
            seconds = results[(tool, n)][3]
            cells.append(f"{seconds * 1000 / (n / 1000):.1f} ms" if seconds else "—")
        for a, b in zip(args.nodes, args.nodes[1:]):
            ta, tb = results[(tool, a)][3], results[(tool, b)][3]
            if ta and tb:
                growth.append(f"{a // 1000}k→{b // 1000}k {tb / ta:.1f}× ({b / a:.1f}× nodes)")
        curve.append(f"| {tool} | " + " | ".join(cells) + " | " + ", ".join(growth) + " |")
    table = "\n".join(lines)
    machine = f"{platform.node()}: {os.cpu_count()} cores, {cpu}, {platform.system()} {platform.release()}"
    generated = (
        BEGIN
        + "\n"
        + "Made by `benches/compare.sh` (templates from `benches/gen.py --no-storage`, five node\n"
        "templates per unit; the peers refuse 1.3's `Storage.BlockStorage`; the TOSCA 2.0 row reads\n"
        f"`gen.py --dialect 2.0`, the imports row the 1.3 template importing {IMPORTED_FILES} type files\n"
        "through a tree of imports). Median wall time of\n"
        f"up to {args.runs} runs of a separate process, the median CPU time (user + system) of the\n"
        f"same runs, and the peak resident memory; a peer is given up after {peer_cap} s of wall time.\n\n"
        f"Machine: {machine}. Run on {today}"
        + (
            " (from earlier runs on this machine: "
            + ", ".join(f"{tool} {date}" for tool, date in earlier.items())
            + ")"
            if earlier
            else ""
        )
        + ".\n\n"
        + table
        + "\n\n"
        + ("\n".join(ratios) + "\n" if ratios else "")
        + f"- tiny template (`toscana check examples/hello.yaml`, median of {args.tiny_runs}, process start included): "
        + f"{ms(tiny)} (CPU {ms(tiny_cpu)}), {tiny_rss} MiB\n\n"
        + "Scaling curve: CPU time per 1,000 node templates at each size (flat is linear), and the\n"
        "growth of CPU time between sizes.\n\n"
        + "\n".join(curve)
        + "\n"
        + END
        + "\n"
    )
    try:
        with open(args.out) as f:
            old = f.read()
    except OSError:
        old = ""
    if BEGIN in old and END in old:
        head, rest = old.split(BEGIN, 1)
        tail = rest.split(END, 1)[1].lstrip("\n")
        text = head + generated + ("\n" + tail if tail else "")
    else:
        text = "# Performance\n\n" + generated
    with open(args.out, "w") as f:
        f.write(text)
    print(table)
    print("\n".join(ratios))
    print("\n".join(curve))


if __name__ == "__main__":
    main()
