"""PM4Py's alignment times, the reference benchmarks/conformance-pm4py.ts prints its ratios against.

Calls PM4Py's public API only. For each log: read it once (pm4py.read_xes), take its inductive-miner
tree (pm4py.discover_process_tree_inductive, or with --trees the tree PM4Py discovered before, read from
an expected-trees.json by the log's path and parsed with pm4py.parse_process_tree: the same tree
without the discovery's minutes), convert it to a Petri net, then time
pm4py.conformance_diagnostics_alignments(log, net, im, fm) (wall seconds, time.perf_counter, and the
process's CPU seconds, time.process_time): one untimed warm-up (none with --no-warm-up), then the median of the
timed runs (3, or --runs n). Each log runs in a child process and each alignment run gets the time
limit; a run that does not finish is reported with the CPU seconds the child had spent aligning when
it was stopped (a lower bound of that run's CPU time).
Run from a checkout of pm4py-core (PYTHONPATH), PYTHONHASHSEED=0 and PM4PY_SHOW_PROGRESS_BAR=False:

    python3 scripts/pm4py-alignment-timings.py <limit seconds> [--runs n] [--no-warm-up]
        [--trees expected-trees.json] <log.xes[.gz]>...
"""
import json
import os
import select
import statistics
import subprocess
import sys
import time


def child(path, runs, trees_file):
    import pm4py

    started = time.perf_counter()
    log = pm4py.read_xes(path)
    load = time.perf_counter() - started
    tree = None
    if trees_file:
        trees = json.load(open(trees_file))["trees"]
        for rel, entry in trees.items():
            if path.endswith("/" + rel):
                tree = pm4py.parse_process_tree(entry["im"])
                if str(tree) != entry["im"]:
                    sys.exit("the tree of %s does not print back as %s" % (rel, trees_file))
    if tree is None:
        tree = pm4py.discover_process_tree_inductive(log)
    net, im, fm = pm4py.convert_to_petri_net(tree)
    times = []
    cpu = []
    setup = {"load": load, "times": times, "cpu": cpu, "tree": str(tree), "setupCpu": time.process_time()}
    print(json.dumps(setup), flush=True)
    for _ in range(runs):
        started = time.perf_counter()
        cpu_started = time.process_time()
        pm4py.conformance_diagnostics_alignments(log, net, im, fm, multi_processing=False)
        times.append(time.perf_counter() - started)
        cpu.append(time.process_time() - cpu_started)
        print(json.dumps({**setup, "times": times, "cpu": cpu, "doneCpu": time.process_time()}), flush=True)


def main():
    if sys.argv[1] == "--child":
        child(sys.argv[2], int(sys.argv[3]), sys.argv[4] if len(sys.argv) > 4 else None)
        return
    args = sys.argv[1:]
    limit = float(args.pop(0))
    runs, warm_up, trees = 3, 1, None
    while args and args[0].startswith("--"):
        flag = args.pop(0)
        if flag == "--runs":
            runs = int(args.pop(0))
        elif flag == "--no-warm-up":
            warm_up = 0
        elif flag == "--trees":
            trees = args.pop(0)
        else:
            sys.exit("unknown flag " + flag)
    total = runs + warm_up
    for path in args:
        # One process: the warm-up and the timed runs on the log loaded once; each run gets `limit` seconds.
        command = [sys.executable, __file__, "--child", path, str(total)] + ([trees] if trees else [])
        proc = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
        last = None
        started = time.perf_counter()
        while True:
            ready, _, _ = select.select([proc.stdout], [], [], 1.0)
            line = proc.stdout.readline() if ready else ""
            if line:
                last = json.loads(line)
                started = time.perf_counter()
                if len(last["times"]) == total:
                    break
                continue
            if proc.poll() is not None:
                break
            # Reading the log and taking its tree are not limited: the limit is for each alignment run.
            if last is not None and time.perf_counter() - started > limit:
                break
        stopped_cpu = None
        if proc.poll() is None:
            proc.kill()
            _, _, usage = os.wait4(proc.pid, 0)
            stopped_cpu = usage.ru_utime + usage.ru_stime
        else:
            proc.wait()
        common = {"log": path, "runs": runs, "warmUp": bool(warm_up), "tree": last["tree"] if last else None}
        if last is None or len(last["times"]) < total:
            spent = None
            if last is not None and stopped_cpu is not None:
                spent = round(stopped_cpu - last.get("doneCpu", last["setupCpu"]), 3)
            print(json.dumps({**common, "finished": False, "limitSeconds": limit,
                              "runsDone": len(last["times"]) if last else 0,
                              "times": last["times"] if last else [], "cpu": last["cpu"] if last else [],
                              "cpuSpentInUnfinishedRun": spent}), flush=True)
            continue
        timed = last["times"][warm_up:]
        print(json.dumps({**common, "finished": True, "load": round(last["load"], 3),
                          "median": round(statistics.median(timed), 3), "min": round(min(timed), 3),
                          "max": round(max(timed), 3),
                          "warmup": round(last["times"][0], 3) if warm_up else None,
                          "cpuMedian": round(statistics.median(last["cpu"][warm_up:]), 3)}), flush=True)


if __name__ == "__main__":
    main()
