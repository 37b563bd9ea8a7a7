"""Reference alignments from PM4Py for test/fixtures/conformance/pm4py-alignments.json.

Calls PM4Py's public API only (read_xes, discover_process_tree_inductive, parse_process_tree,
convert_to_petri_net, conformance_diagnostics_alignments) and its alignment-based fitness evaluation
on the alignments it returned. Run from a checkout of pm4py-core (PYTHONPATH), PYTHONHASHSEED=0 and
PM4PY_SHOW_PROGRESS_BAR=False:

    python3 scripts/pm4py-alignments.py <cases.json> <out.json> [timeout seconds per case]

<cases.json> lists {"name", "log", "tree"} where "tree" is a tree in PM4Py notation, or "im:<log>" /
"imf0.2:<log>" for the tree PM4Py's inductive miner discovers on <log> (paths relative to the
repository). Each case runs in a child process under the time limit; a case that does not finish is
written with "timedOut": true.
"""
import hashlib
import json
import subprocess
import sys
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


def main():
    if sys.argv[1] == "--one":
        print(json.dumps(one(json.loads(sys.argv[2]))))
        return
    cases = json.load(open(sys.argv[1]))
    limit = float(sys.argv[3]) if len(sys.argv) > 3 else 900
    results = []
    for case in cases:
        try:
            done = subprocess.run([sys.executable, __file__, "--one", json.dumps(case)], capture_output=True,
                                  text=True, timeout=limit, check=True)
            results.append(json.loads(done.stdout.strip().splitlines()[-1]))
            print(case["name"], "done", results[-1]["seconds"], "s", file=sys.stderr)
        except subprocess.TimeoutExpired:
            results.append({"name": case["name"], "log": case["log"], "timedOut": True, "limitSeconds": limit})
            print(case["name"], "timed out", file=sys.stderr)
        except subprocess.CalledProcessError as e:
            results.append({"name": case["name"], "log": case["log"], "error": e.stderr[-500:]})
            print(case["name"], "failed", e.stderr[-2000:], file=sys.stderr)
    json.dump(results, open(sys.argv[2], "w"))


if __name__ == "__main__":
    main()
