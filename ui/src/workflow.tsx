import { fmt, useJson, type ServedWorkflowsResponse, type WorkflowResponse } from './api.ts';
import { href } from './route.ts';
import { ErrorBox, Pre } from './text.tsx';

/** The workflows `serve --db` stored runs of, each linking to its page (shown under the runs). */
export function ServedWorkflows() {
  const q = useJson<ServedWorkflowsResponse>('/api/workflows', {});
  if (q.error) return <ErrorBox error={q.error} />;
  if (!q.data || q.data.workflows.length === 0) return null;
  return (
    <>
      <h2>Served workflows</h2>
      <table className="grid" data-testid="served-workflows">
        <thead>
          <tr>
            <th>workflow</th>
            <th className="num">runs</th>
            <th>first run</th>
            <th>last run</th>
            <th>workflow found in</th>
          </tr>
        </thead>
        <tbody>
          {q.data.workflows.map((w) => (
            <tr key={w.hash} data-testid={`served-${w.hash}`}>
              <td>
                <a href={href.workflow(w.hash)}>{w.name}</a> <span className="muted small">{w.hash.slice(0, 12)}</span>
              </td>
              <td className="num">{w.runs}</td>
              <td className="small">{w.firstAt.replace('T', ' ').replace(/\.\d+Z$/, 'Z')}</td>
              <td className="small">{w.lastAt.replace('T', ' ').replace(/\.\d+Z$/, 'Z')}</td>
              <td className="small">
                {w.source === 'file' ? '--workflow file' : w.source === 'search' ? 'a search in this store' : '–'}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

/** One served workflow: the drift verdict, fitness over time, the deviating variants with their alignments. */
export function WorkflowPage({ hash }: { hash: string }) {
  const q = useJson<WorkflowResponse>(`/api/workflows/${encodeURIComponent(hash)}`, {});
  if (q.error) return <ErrorBox error={q.error} />;
  if (!q.data) return <p>Loading…</p>;
  const d = q.data;
  const m = d.drift.measures;
  return (
    <section>
      <div className="crumbs">
        <a href={href.runs()}>runs</a> / served workflow
      </div>
      <h1>{d.name}</h1>
      <p className="muted">
        {d.runs.length} served run{d.runs.length === 1 ? '' : 's'} · {d.variants} variant{d.variants === 1 ? '' : 's'} ·
        workflow from {d.source === 'file' ? 'the --workflow file' : 'a search in this store'} · hash{' '}
        <code>{d.hash.slice(0, 12)}</code>
      </p>
      <div className={`verdict ${d.drift.drift ? 'verdict-drift' : 'verdict-ok'}`} data-testid="drift-verdict">
        <strong>
          {!d.drift.drift
            ? 'No drift'
            : d.drift.processChanged && d.drift.runsFailMore
              ? 'Drift: the process changed and runs fail more'
              : d.drift.processChanged
                ? 'Drift: the process changed'
                : 'Drift: runs fail more'}
        </strong>
        <span className="muted small">
          {' '}
          {d.drift.comparedWith === 'workflowRuns'
            ? `compared with its own ${d.drift.baselineRuns} runs in the search`
            : d.drift.comparedWith === 'heldOut'
              ? `compared with ${d.drift.baselineRuns} runs of the process it was not learned from`
              : d.drift.comparedWith === 'learning'
                ? `compared with the ${d.drift.baselineRuns} runs it was learned from`
                : 'no conformance profile: fixed thresholds'}
        </span>
        {d.drift.reasons.length ? (
          <ul>
            {d.drift.reasons.map((r) => (
              <li key={r}>{r}</li>
            ))}
          </ul>
        ) : null}
        <div className="small">next: {d.drift.next}</div>
      </div>
      <table className="grid budget" data-testid="conformance-figures">
        <tbody>
          <tr>
            <th>averageFitness</th>
            <td className="num">{fmt(d.averageFitness)}</td>
            <th>percFitTraces</th>
            <td className="num">{fmt(d.percFitTraces, 1)} %</td>
          </tr>
          <tr>
            <th>averageHealth</th>
            <td className="num">{fmt(d.averageHealth)}</td>
            <th>withheld calls</th>
            <td className="num">{fmt(100 * m.withheldCallRate, 1)} %</td>
          </tr>
          <tr>
            <th>failed calls</th>
            <td className="num">{fmt(100 * m.failedCallRate, 1)} %</td>
            <th>outside routes</th>
            <td className="num">{m.outsideRoutes === null ? '–' : `${fmt(100 * m.outsideRoutes, 1)} %`}</td>
          </tr>
        </tbody>
      </table>
      <h2>Health of each run over time</h2>
      <p className="muted small">
        Health counts what went wrong in a run: 1 / (1 + skipped steps + calls beyond the model + failed, withheld and
        repeated calls). Red dots: runs whose customer was told it failed.
      </p>
      <ScoreChart runs={d.runs} score="health" />
      <h2>Fitness of each run over time</h2>
      <ScoreChart runs={d.runs} score="fitness" />
      <h2>Deviating variants ({d.deviating.length} shown, most frequent first)</h2>
      {d.deviating.length === 0 ? <p className="muted">Every run fits the workflow.</p> : null}
      {d.deviating.map((v, i) => (
        <div key={i} className="variant" data-testid="deviating-variant">
          <div className="small">
            <strong>{v.count}</strong> run{v.count === 1 ? '' : 's'} · cost {v.cost} · fitness {fmt(v.fitness)}
          </div>
          <Alignment moves={v.moves} />
        </div>
      ))}
      <h2>Process tree of the workflow</h2>
      <Pre value={d.tree} testId="workflow-tree" />
    </section>
  );
}

type Move = WorkflowResponse['deviating'][number]['moves'][number];

/** An alignment as two rows, the run above and the model below: » where one of them has no move. */
function Alignment({ moves }: { moves: Move[] }) {
  return (
    <div className="alignment" data-testid="variant-alignment">
      <div className="align-label" style={{ gridRow: 1, gridColumn: 1 }}>
        run
      </div>
      <div className="align-label" style={{ gridRow: 2, gridColumn: 1 }}>
        model
      </div>
      {moves.map((m, i) => (
        <div
          key={`l${i}`}
          className={`move move-${m.kind}`}
          title={title(m)}
          style={{ gridRow: 1, gridColumn: i + 2 }}
          data-testid={`run-move-${m.kind}`}
        >
          {m.kind === 'model' ? '»' : m.activity}
        </div>
      ))}
      {moves.map((m, i) => (
        <div
          key={`m${i}`}
          className={`move move-${m.kind}`}
          title={title(m)}
          style={{ gridRow: 2, gridColumn: i + 2 }}
          data-testid={`model-move-${m.kind}`}
        >
          {m.kind === 'log' ? '»' : m.activity}
        </div>
      ))}
    </div>
  );
}

function title(m: Move): string {
  if (m.kind === 'sync') return `${m.activity}: as the model has it (event ${m.position + 1})`;
  if (m.kind === 'log') return `${m.activity}: inserted, the model has no place for it (event ${m.position + 1})`;
  return `${m.activity}: skipped, the model needs it before event ${m.position + 1}`;
}

/** Each run's fitness or health (dots, oldest first) and the mean of the last 10 runs (line). */
function ScoreChart({ runs, score }: { runs: WorkflowResponse['runs']; score: 'fitness' | 'health' }) {
  const W = 640;
  const H = 220;
  const pad = { l: 40, r: 12, t: 12, b: 30 };
  const n = Math.max(1, runs.length - 1);
  const x = (i: number) => pad.l + (i / n) * (W - pad.l - pad.r);
  const y = (v: number) => pad.t + (1 - v) * (H - pad.t - pad.b);
  const mean = runs.map((_, i) => {
    const w = runs.slice(Math.max(0, i - 9), i + 1);
    return w.reduce((s, r) => s + r[score], 0) / w.length;
  });
  const line = mean.map((v, i) => `${i === 0 ? 'M' : 'L'}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  const color = (r: WorkflowResponse['runs'][number]) =>
    score === 'health'
      ? r.status === 'error'
        ? '#dc2626'
        : r.health < 1
          ? '#f59e0b'
          : '#16a34a'
      : r.cost > 0
        ? '#f59e0b'
        : '#16a34a';
  return (
    <svg
      className="chart"
      viewBox={`0 0 ${W} ${H}`}
      role="img"
      aria-label={`${score} per run`}
      data-testid={`${score}-chart`}
    >
      {[0, 0.25, 0.5, 0.75, 1].map((t) => (
        <g key={t}>
          <line x1={pad.l} x2={W - pad.r} y1={y(t)} y2={y(t)} stroke="#e2e8f0" />
          <text x={pad.l - 6} y={y(t) + 4} textAnchor="end" fontSize="10">
            {t.toFixed(2)}
          </text>
        </g>
      ))}
      {runs.map((r, i) => (
        <circle key={r.id} cx={x(i)} cy={y(r[score])} r="3.5" fill={color(r)} data-testid={`${score}-dot`}>
          <title>{`run ${r.id} at ${r.at}: ${score} ${fmt(r[score])}, ${r.status}; ${r.calls} calls (${r.failedCalls} failed, ${r.withheldCalls} withheld, ${r.repeatedCalls} repeated), cost ${r.cost}`}</title>
        </circle>
      ))}
      {runs.length > 1 ? (
        <path d={line} fill="none" stroke="#2563eb" strokeWidth="2" data-testid={`${score}-mean`} />
      ) : null}
      <text x={pad.l} y={H - 8} fontSize="10">
        {runs[0]?.at.replace('T', ' ').slice(0, 19) ?? ''}
      </text>
      <text x={W - pad.r} y={H - 8} fontSize="10" textAnchor="end">
        {runs[runs.length - 1]?.at.replace('T', ' ').slice(0, 19) ?? ''}
      </text>
      <text x={(W + pad.l) / 2} y={H - 8} fontSize="11" textAnchor="middle">
        served runs, oldest first (line: mean of the last 10)
      </text>
    </svg>
  );
}
