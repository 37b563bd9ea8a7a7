"""Reference alignments from PM4Py for test/fixtures/conformance/pm4py-alignments.json.

Calls PM4Py's public API only (read_xes, discover_process_tree_inductive, parse_process_tree,
convert_to_petri_net, conformance_diagnostics_alignments) and its alignment-based fitness evaluation
on the alignments it returned. Run from a checkout of pm4py-core (PYTHONPATH), PYTHONHASHSEED=0 and
PM4PY_SHOW_PROGRESS_BAR=False:

    python3 scripts/pm4py-alignments.py <cases.json> <out.json> [timeout seconds per case] [parallel cases]

<cases.json> lists {"name", "log", "tree"} where "tree" is a tree in PM4Py notation, or "im:<log>" /
"imf0.2:<log>" for the tree PM4Py's inductive miner discovers on <log> (paths relative to the
repository, which is the working directory). Each case runs in a child process under the time limit
(default 900 s; 1 case at a time unless told). <out.json> is {"pm4py", "cases", "notFinished"}:
"cases" in the order of <cases.json>, those that finished; "notFinished" the others, each with its
time limit or PM4Py's error. It is rewritten after every case, and a run started again keeps the
cases it already holds.
"""
import concurrent.futures
import hashlib
import json
import os
import subprocess
import sys
import threading
import time


def variant_key(activities):
    return hashlib.sha256("\u0000".join(activities).encode("utf-8")).hexdigest()[:16]


def one(case):
    import pm4py
    from pm4py.algo.evaluation.replay_fitness.variants import alignment_based

    def read(path):
        # A log without timestamps is read as an EventLog object: PM4Py's DataFrame functions need a date column.
        import pandas as pd

        df = pm4py.read_xes(path)
        if "time:timestamp" in df.columns and pd.api.types.is_datetime64_any_dtype(df["time:timestamp"]):
            return df
        return pm4py.read_xes(path, return_legacy_log_object=True)

    def tree_of(spec):
        if spec.startswith("im:") or spec.startswith("imf0.2:"):
            kind, path = spec.split(":", 1)
            noise = 0.2 if kind == "imf0.2" else 0.0
            return pm4py.discover_process_tree_inductive(read(path), noise_threshold=noise)
        return pm4py.parse_process_tree(spec)

    log = read(case["log"])
    tree = tree_of(case["tree"])
    net, im, fm = pm4py.convert_to_petri_net(tree)
    started = time.perf_counter()
    aligned = pm4py.conformance_diagnostics_alignments(log, net, im, fm, multi_processing=False)
    seconds = time.perf_counter() - started
    fitness = alignment_based.evaluate(aligned)
    if hasattr(log, "groupby"):
        traces = [tuple(t) for t in log.groupby("case:concept:name")["concept:name"].agg(list).to_dict().values()]
    else:
        traces = [tuple(e["concept:name"] for e in t) for t in log]
    variants = {}
    for trace, a in zip(traces, aligned):
        entry = variants.get(trace)
        if entry is None:
            variants[trace] = entry = {"count": 0, "cost": a["cost"] // 10000, "fitness": a["fitness"]}
        entry["count"] += 1
    bwc = aligned[0]["bwc"] - 10000 * len(traces[0])
    return {
        "name": case["name"],
        "log": case["log"],
        "tree": str(tree),
        "cheapestRun": bwc // 10000,
        "traces": len(traces),
        "percFitTraces": fitness["percFitTraces"],
        "averageFitness": fitness["averageFitness"],
        "seconds": round(seconds, 3),
        "variants": [[variant_key(list(t)), v["count"], v["cost"], v["fitness"]] for t, v in variants.items()],
    }


def run_case(case, limit):
    try:
        done = subprocess.run([sys.executable, __file__, "--one", json.dumps(case)], capture_output=True,
                              text=True, timeout=limit, check=True)
        result = json.loads(done.stdout.strip().splitlines()[-1])
        print(case["name"], "done", result["seconds"], "s", file=sys.stderr, flush=True)
        return result, None
    except subprocess.TimeoutExpired:
        print(case["name"], "timed out", file=sys.stderr, flush=True)
        return None, {"name": case["name"], "log": case["log"], "timedOut": True, "limitSeconds": limit}
    except subprocess.CalledProcessError as e:
        print(case["name"], "failed", e.stderr[-2000:], file=sys.stderr, flush=True)
        return None, {"name": case["name"], "log": case["log"], "error": e.stderr[-500:]}


def write(path, version, by_name, cases):
    done = [by_name[c["name"]] for c in cases if c["name"] in by_name and "variants" in by_name[c["name"]]]
    failed = [by_name[c["name"]] for c in cases if c["name"] in by_name and "variants" not in by_name[c["name"]]]
    with open(path + ".part", "w") as f:
        # One case a line, so a diff of two runs shows which cases changed.
        f.write('{"pm4py": %s,\n"cases": [\n' % json.dumps(version))
        f.write(",\n".join(json.dumps(c) for c in done))
        f.write('\n],\n"notFinished": %s}\n' % json.dumps(failed))
    os.replace(path + ".part", path)


def main():
    if sys.argv[1] == "--one":
        print(json.dumps(one(json.loads(sys.argv[2]))))
        return
    import pm4py

    cases = json.load(open(sys.argv[1]))
    out = sys.argv[2]
    limit = float(sys.argv[3]) if len(sys.argv) > 3 else 900
    jobs = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    # Cases already in <out.json> (aligned, or not finished) are kept and not run again: delete the
    # file, or a case's entry, to run it again.
    by_name = {}
    if os.path.exists(out):
        previous = json.load(open(out))
        if previous.get("pm4py") != pm4py.__version__:
            sys.exit("%s was written by PM4Py %s, this is %s: delete it first" % (out, previous.get("pm4py"),
                                                                                  pm4py.__version__))
        by_name = {c["name"]: c for c in previous["cases"] + previous["notFinished"]}
    todo = [c for c in cases if c["name"] not in by_name]
    lock = threading.Lock()

    def run(case):
        done, failed = run_case(case, limit)
        with lock:
            by_name[case["name"]] = done if done is not None else failed
            write(out, pm4py.__version__, by_name, cases)

    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        list(pool.map(run, todo))
    write(out, pm4py.__version__, by_name, cases)


if __name__ == "__main__":
    main()
