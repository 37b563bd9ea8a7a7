"""PM4Py's alignment times, the reference benchmarks/conformance-pm4py.ts prints its ratios against.

Calls PM4Py's public API only. For each log: read it once (pm4py.read_xes), discover its inductive-miner
tree (pm4py.discover_process_tree_inductive), convert it to a Petri net, then time
pm4py.conformance_diagnostics_alignments(log, net, im, fm) (wall seconds, time.perf_counter): one
untimed warm-up, then the median of 3 runs. Each run is a child process with a time limit; a log whose
warm-up does not finish in time is reported as not finished. Run from a checkout of pm4py-core
(PYTHONPATH), PYTHONHASHSEED=0 and PM4PY_SHOW_PROGRESS_BAR=False:

    python3 scripts/pm4py-alignment-timings.py <limit seconds> <log.xes[.gz]>...
"""
import json
import select
import statistics
import subprocess
import sys
import time


def child(path, runs):
    import pm4py

    started = time.perf_counter()
    log = pm4py.read_xes(path)
    load = time.perf_counter() - started
    tree = pm4py.discover_process_tree_inductive(log)
    net, im, fm = pm4py.convert_to_petri_net(tree)
    times = []
    cpu = []
    for _ in range(runs):
        started = time.perf_counter()
        cpu_started = time.process_time()
        pm4py.conformance_diagnostics_alignments(log, net, im, fm, multi_processing=False)
        times.append(time.perf_counter() - started)
        cpu.append(time.process_time() - cpu_started)
        print(json.dumps({"load": load, "times": times, "cpu": cpu}), flush=True)


def main():
    if sys.argv[1] == "--child":
        child(sys.argv[2], int(sys.argv[3]))
        return
    limit = float(sys.argv[1])
    for path in sys.argv[2:]:
        # One process: the warm-up and the 3 timed runs on the log loaded once; each run gets `limit` seconds.
        proc = subprocess.Popen([sys.executable, __file__, "--child", path, "4"], stdout=subprocess.PIPE, text=True)
        last = None
        started = time.perf_counter()
        runs_seen = 0
        while True:
            ready, _, _ = select.select([proc.stdout], [], [], 1.0)
            line = proc.stdout.readline() if ready else ""
            if line:
                last = json.loads(line)
                runs_seen = len(last["times"])
                started = time.perf_counter()
                if runs_seen == 4:
                    break
                continue
            if proc.poll() is not None:
                break
            if time.perf_counter() - started > limit:
                break
        if proc.poll() is None:
            proc.kill()
        if last is None or runs_seen < 4:
            print(json.dumps({"log": path, "finished": False, "limitSeconds": limit, "runsDone": runs_seen,
                              "times": last["times"] if last else []}), flush=True)
            continue
        timed = last["times"][1:]
        print(json.dumps({"log": path, "finished": True, "load": round(last["load"], 3),
                          "median": round(statistics.median(timed), 3), "min": round(min(timed), 3),
                          "max": round(max(timed), 3), "warmup": round(last["times"][0], 3),
                          "cpuMedian": round(statistics.median(last["cpu"][1:]), 3)}), flush=True)


if __name__ == "__main__":
    main()
