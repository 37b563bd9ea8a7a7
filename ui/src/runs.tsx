import { duration, fmt, scoreColor, useJson, type RunResponse, type RunsResponse } from './api.ts';
import { ValChart, type IterPoint } from './chart.tsx';
import { SearchTreeGraph, scoreRange } from './graphs.tsx';
import { href } from './route.ts';
import { ErrorBox, Offline, Status } from './text.tsx';
import { ServedWorkflows } from './workflow.tsx';
import { useState } from 'react';

/** Every stored run, newest first; updates live. */
export function RunsPage() {
  const q = useJson<RunsResponse>('/api/runs', {});
  if (q.error) return <ErrorBox error={q.error} />;
  if (!q.data) return <p>Loading…</p>;
  const { runs, store, bench } = q.data;
  return (
    <section>
      <h1>Runs</h1>
      <p className="muted">
        Store: <code>{store}</code> · {runs.length} run{runs.length === 1 ? '' : 's'}
      </p>
      {runs.length === 0 ? (
        <p>
          No runs yet: start one with <code>flowscout search</code>.
        </p>
      ) : null}
      <table className="grid" data-testid="runs-table">
        <thead>
          <tr>
            <th>run</th>
            <th>status</th>
            <th>data</th>
            <th>policy / judge / optimizer</th>
            <th className="num">best S_val</th>
            <th className="num">iterations</th>
            <th className="num">requests</th>
            <th className="num">tokens</th>
            <th className="num">cost $</th>
            <th>started</th>
            <th className="num">duration</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((r) => (
            <tr key={r.id} data-testid={`run-row-${r.id}`}>
              <td>
                <a href={href.run(r.id)}>{r.id}</a>
                {r.resume ? (
                  <div className="resume">
                    resume: <code>{r.resume}</code>
                  </div>
                ) : null}
              </td>
              <td>
                <Status status={r.status} />
                {r.stopReason ? <div className="muted small">{r.stopReason}</div> : null}
              </td>
              <td className="small">{r.data ?? '–'}</td>
              <td className="small">
                <Offline offline={r.offline} /> {r.policy} / {r.judge} / {r.optimizer}
              </td>
              <td className="num">
                {fmt(r.bestVal)}
                {r.bestCandidate ? <span className="muted"> ({r.bestCandidate})</span> : null}
              </td>
              <td className="num">
                {r.iterations}
                {r.maxIterations ? ` / ${r.maxIterations}` : ''}
              </td>
              <td className="num">{r.llmCalls}</td>
              <td className="num">{r.tokens}</td>
              <td className="num">{r.costUsd.toFixed(4)}</td>
              <td className="small">{r.createdAt.replace('T', ' ').replace(/\.\d+Z$/, 'Z')}</td>
              <td className="num">{duration(r.durationMs)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <ServedWorkflows />
      {bench.length ? (
        <>
          <h2>Benchmark reports</h2>
          <ul>
            {bench.map((b) => (
              <li key={b.index}>
                <a href={href.bench(b.index)}>{b.dir}</a>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}

type Scores = { tc: number; es: number; reward: number };

/** The held-out test figures the run ended with (G0 and the best candidate only). */
function TestSet({ run, result, root }: { run: string; result: RunResponse['result']; root: string | undefined }) {
  const r = result as {
    test?: { records: number; best: Scores; g0: Scores };
    testSkipped?: string;
    best?: string;
  } | null;
  if (!r) return null;
  if (!r.test) return r.testSkipped ? <p className="muted">Test set: {r.testSkipped}</p> : null;
  return (
    <>
      <h2>Test set ({r.test.records} records, looked at once when the search ended)</h2>
      <table className="grid budget" data-testid="test-set">
        <thead>
          <tr>
            <th></th>
            <th className="num">TC</th>
            <th className="num">ES</th>
            <th className="num">(TC+ES)/2</th>
          </tr>
        </thead>
        <tbody>
          {(
            [
              ['G0', r.test.g0, root],
              [`best (${r.best ?? '?'})`, r.test.best, r.best],
            ] as const
          ).map(([name, s, id]) => (
            <tr key={name}>
              <th>
                {/* The candidate's page lists its test records, each of which opens. */}
                {id ? (
                  <a
                    href={href.candidate(run, id)}
                    data-testid={`test-records-${name === 'G0' ? 'g0' : 'best'}`}
                    title="open its test records"
                  >
                    {name}
                  </a>
                ) : (
                  name
                )}
              </th>
              <td className="num">{fmt(s.tc)}</td>
              <td className="num">{fmt(s.es)}</td>
              <td className="num">{fmt(s.reward)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function Budget({ data }: { data: RunResponse }) {
  const u = data.usage as Record<string, number | undefined>;
  const b = data.budget;
  const rows: Array<[string, number, number | undefined, (v: number) => string]> = [
    ['iterations', data.run.iterations, data.run.maxIterations, (v) => String(v)],
    ['model requests', u.llmCalls ?? 0, b.calls, (v) => String(v)],
    ['tokens', u.tokens ?? 0, b.tokens, (v) => String(v)],
    ['cost $', u.costUsd ?? 0, b.usd, (v) => v.toFixed(4)],
    ['minutes', data.run.durationMs / 60000, b.minutes, (v) => v.toFixed(1)],
  ];
  return (
    <table className="grid budget" data-testid="budget">
      <tbody>
        {rows.map(([name, used, limit, f]) => (
          <tr key={name}>
            <th>{name}</th>
            <td className="num">{f(used)}</td>
            <td className="num muted">{limit === undefined ? 'no limit' : `of ${f(limit)}`}</td>
            <td className="bar-cell">
              {limit ? (
                <div className="bar" style={{ width: `${Math.min(100, (100 * used) / limit).toFixed(0)}%` }} />
              ) : null}
            </td>
          </tr>
        ))}
        {data.run.queue ? (
          <tr data-testid="queue">
            <th>workers</th>
            <td className="num">{data.run.queue.workers}</td>
            <td className="num muted" colSpan={2}>
              jobs {data.run.queue.waiting} waiting · {data.run.queue.active} active · {data.run.queue.done} done ·{' '}
              {data.run.queue.failed} failed (as of the last stored iteration)
            </td>
          </tr>
        ) : null}
        <tr>
          <th>tool calls</th>
          <td className="num">{u.toolCalls ?? 0}</td>
          <td className="num muted" colSpan={2}>
            memo saved {u.nodeRunsSaved ?? 0} node runs, {u.toolCallsSaved ?? 0} tool calls, {u.llmCallsSaved ?? 0}{' '}
            model requests
          </td>
        </tr>
      </tbody>
    </table>
  );
}

/** One run: the tree, Fig. 5, budget use, the iteration table; updates live while it runs. */
export function RunPage({ run }: { run: string }) {
  const q = useJson<RunResponse>(`/api/runs/${encodeURIComponent(run)}`, { run });
  const [pick, setPick] = useState<string[]>([]);
  if (q.error) return <ErrorBox error={q.error} />;
  if (!q.data) return <p>Loading…</p>;
  const d = q.data;
  const r = d.run;
  const points: IterPoint[] = d.iterations.map((it) => {
    const row = it as { iteration: number; valScore?: number; bestVal?: number; status: string };
    return { iteration: row.iteration, valScore: row.valScore, bestVal: row.bestVal, status: row.status };
  });
  const g0 = d.tree.find((c) => c.parent === null)?.valScore;
  const range = scoreRange(d.tree);
  const open = (id: string) => (window.location.hash = href.candidate(run, id));
  const togglePick = (id: string) =>
    setPick((p) => (p.includes(id) ? p.filter((x) => x !== id) : [...p.slice(-1), id]));
  return (
    <section>
      <p className="crumbs">
        <a href={href.runs()}>Runs</a> / {r.id}
      </p>
      <h1>
        {r.id} <Status status={r.status} /> <Offline offline={r.offline} />
      </h1>
      <p className="labels">
        policy: {r.policy} · judge: {r.judge} · optimizer: {r.optimizer}
        {r.offline ? ' — OFFLINE results (no LLM anywhere)' : ''}
      </p>
      <p className="muted">
        data {r.data ?? '–'} · strategy {r.strategy}, seed {r.seed} · started {r.createdAt} · {duration(r.durationMs)}
        {r.stopReason ? ` · ended: ${r.stopReason}` : ''}
      </p>
      {r.resume ? (
        <p className="resume">
          Continue it with: <code>{r.resume}</code>
        </p>
      ) : null}
      <div className="cols">
        <div>
          <h2>Validation score per iteration</h2>
          <ValChart points={points} g0={g0} />
          <p className="muted small">
            G0 {fmt(g0)} → best {fmt(r.bestVal ?? d.tree.find((c) => c.best)?.valScore)} ({r.bestCandidate ?? '–'})
          </p>
        </div>
        <div>
          <h2>Budget</h2>
          <Budget data={d} />
        </div>
      </div>
      <h2>
        Search tree{' '}
        <span className="muted small" data-testid="candidate-count">
          ({d.tree.length} candidates)
        </span>
      </h2>
      <p className="muted small">
        <span data-testid="tree-legend">
          Colour: validation score on a fixed scale, 0 <span className="legend-bar" /> 1
          {range ? ` (this run: ${fmt(range.lo)} → ${fmt(range.hi)})` : ' (no candidate scored yet)'}.
        </span>{' '}
        ★ best. Dashed: duplicate, failed or invalid. Hover for visits and mean reward; click to open. Edge labels: the
        edit that made the child.
      </p>
      <SearchTreeGraph nodes={d.tree} onOpen={open} />
      <h2>Candidates</h2>
      <p className="small">
        Tick two to compare:{' '}
        {pick.length === 2 ? (
          <a href={href.compare(run, pick[0]!, pick[1]!)} data-testid="compare-link">
            compare {pick[0]} and {pick[1]}
          </a>
        ) : (
          <span className="muted">{pick.length} ticked</span>
        )}
      </p>
      <table className="grid" data-testid="candidates-table">
        <thead>
          <tr>
            <th></th>
            <th>candidate</th>
            <th>parent</th>
            <th className="num">it</th>
            <th>status</th>
            <th className="num">R_opt</th>
            <th className="num">S_val</th>
            <th className="num">TC_val</th>
            <th className="num">ES_val</th>
            <th className="num">visits</th>
            <th className="num">mean R</th>
            <th>edit</th>
          </tr>
        </thead>
        <tbody>
          {d.tree.map((c) => (
            <tr key={c.id} className={c.best ? 'best-row' : ''} data-testid={`cand-row-${c.id}`}>
              <td>
                <input
                  type="checkbox"
                  aria-label={`compare ${c.id}`}
                  checked={pick.includes(c.id)}
                  onChange={() => togglePick(c.id)}
                  disabled={!c.valScore && c.valScore !== 0}
                />
              </td>
              <td>
                <a href={href.candidate(run, c.id)}>{c.id}</a>
                {c.best ? ' ★' : ''}
              </td>
              <td>{c.parent ?? '–'}</td>
              <td className="num">{c.iteration}</td>
              <td>
                {c.kind}
                {c.duplicateOf ? ` of ${c.duplicateOf}` : ''}
              </td>
              <td className="num">{fmt(c.optReward)}</td>
              <td
                className="num"
                style={{
                  background: c.valScore === undefined ? undefined : scoreColor(c.valScore),
                }}
              >
                {fmt(c.valScore)}
              </td>
              <td className="num">{fmt(c.valTc)}</td>
              <td className="num">{fmt(c.valEs)}</td>
              <td className="num">{c.visits}</td>
              <td className="num">{fmt(c.meanReward)}</td>
              <td className="small">
                {c.summary}
                {c.error ? <div className="err-text">{c.error}</div> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <TestSet run={run} result={d.result} root={d.tree.find((c) => c.parent === null)?.id} />
    </section>
  );
}
