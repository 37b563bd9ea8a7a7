import { asText, fmt, useJson, type AlignedCall, type RecordResponse } from './api.ts';
import { href } from './route.ts';
import { ErrorBox, Offline, Pre } from './text.tsx';

interface Call {
  tool: string;
  args: Record<string, unknown>;
  status: 'ok' | 'error';
  output?: unknown;
  error?: string;
  durationMs?: number;
  origin?: string;
  attempt?: number;
}
interface Observation {
  nodeId: string;
  kind: 'llm' | 'tool';
  role?: string;
  status: string;
  input: string;
  output?: unknown;
  error?: string;
  attempts: number;
  startedAtMs: number;
  durationMs: number;
  model?: string;
  usage?: { llmCalls?: number; inputTokens?: number; outputTokens?: number; costUsd?: number };
  calls?: Call[];
  cached?: boolean;
}

const ms = (v: number) => `${v < 10 ? v.toFixed(1) : Math.round(v)} ms`;

/** Where a tool response came from: a replay hit, a replay miss, a simulation or a live tool. */
export function responseSource(c: Call): string {
  if (c.origin === 'replay') return c.status === 'ok' ? 'replay hit' : 'replay miss';
  if (c.origin === 'simulated') return 'simulated (replay miss)';
  return c.origin ?? 'live';
}

const KIND_LABEL: Record<AlignedCall['kind'], string> = {
  match: 'match',
  'wrong-args': 'wrong arguments',
  reordered: 'out of order',
  missing: 'missing',
  extra: 'extra',
};

function Alignment({ lines }: { lines: AlignedCall[] }) {
  return (
    <table className="grid align" data-testid="alignment">
      <thead>
        <tr>
          <th>reference call</th>
          <th></th>
          <th>produced call</th>
        </tr>
      </thead>
      <tbody>
        {lines.map((l, i) => (
          <tr key={i} className={`al-${l.kind}`} data-kind={l.kind}>
            <td>
              {l.reference ? (
                <Pre value={`#${l.reference.index} ${l.reference.tool}\n${JSON.stringify(l.reference.args)}`} />
              ) : null}
            </td>
            <td className="al-kind">
              {KIND_LABEL[l.kind]}
              {l.keys?.length ? `: ${l.keys.join(', ')}` : ''}
            </td>
            <td>
              {l.produced ? (
                <Pre
                  value={`#${l.produced.index} ${l.produced.tool}${l.produced.status === 'error' ? ' → error' : ''}\n${JSON.stringify(l.produced.args)}`}
                />
              ) : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function ObservationView({ o, n }: { o: Observation; n: number }) {
  const tokens = o.usage ? (o.usage.inputTokens ?? 0) + (o.usage.outputTokens ?? 0) : 0;
  return (
    <div className={`obs obs-${o.status}`} data-testid={`obs-${o.nodeId}`}>
      <div className="obs-head">
        <b>
          {n}. {o.nodeId}
        </b>{' '}
        <span className="tag">{o.kind === 'llm' ? `LLM · ${o.role ?? ''}` : 'TOOL'}</span>{' '}
        <span className={`status status-${o.status}`}>{o.status}</span>
        <span className="muted small">
          {' '}
          {ms(o.durationMs)}
          {o.attempts > 1 ? ` · ${o.attempts} attempts` : ''}
          {o.model ? ` · ${o.model}` : ''}
          {o.usage ? ` · ${tokens} tokens (${o.usage.inputTokens ?? 0} in, ${o.usage.outputTokens ?? 0} out)` : ''}
          {o.cached ? ' · from the memo cache' : ''}
        </span>
      </div>
      <div className="obs-grid">
        <div>
          <div className="lbl">input</div>
          <Pre value={o.input} />
        </div>
        <div>
          <div className="lbl">output</div>
          <Pre value={o.output ?? ''} />
        </div>
      </div>
      {o.error ? <div className="err-text">error: {o.error}</div> : null}
      {o.calls?.map((c, i) => (
        <div className="call" key={i} data-testid="tool-call">
          <div>
            <span className="lbl">tool</span> <b>{c.tool}</b>{' '}
            <span className={`status status-${c.status}`}>{c.status}</span>{' '}
            <span className="src" data-testid="call-source">
              {responseSource(c)}
            </span>
            <span className="muted small">
              {' '}
              attempt {c.attempt ?? 1} · {ms(c.durationMs ?? 0)}
            </span>
          </div>
          <div className="obs-grid">
            <div>
              <div className="lbl">arguments</div>
              <Pre value={c.args} />
            </div>
            <div>
              <div className="lbl">response</div>
              <Pre value={c.status === 'ok' ? c.output : `error: ${c.error ?? ''}`} />
            </div>
          </div>
        </div>
      ))}
    </div>
  );
}

export function RecordPage({
  run,
  candidate,
  split,
  record,
}: {
  run: string;
  candidate: string;
  split: string;
  record: string;
}) {
  const q = useJson<RecordResponse>(
    `/api/runs/${encodeURIComponent(run)}/candidates/${encodeURIComponent(candidate)}/records/${encodeURIComponent(split)}/${encodeURIComponent(record)}`,
  );
  if (q.error) return <ErrorBox error={q.error} />;
  if (!q.data) return <p>Loading…</p>;
  const d = q.data;
  const obs = ((d.trace?.observations ?? []) as Observation[])
    .map((o, i) => ({ o, i }))
    .sort((a, b) => a.o.startedAtMs - b.o.startedAtMs || a.i - b.i);
  return (
    <section>
      <p className="crumbs">
        <a href={href.runs()}>Runs</a> / <a href={href.run(run)}>{run}</a> /{' '}
        <a href={href.candidate(run, candidate)}>{candidate}</a> / {split} / {record}
      </p>
      <h1>
        Record {record}{' '}
        <span className="muted small">
          under {candidate} ({split === 'opt' ? 'D_opt' : split === 'val' ? 'D_val' : split})
        </span>
      </h1>
      <p data-testid="record-scores">
        TC {fmt(d.tc)} · ES {fmt(d.es)}
        {Object.entries(d.dims).map(([k, v]) => ` · ${k} ${fmt(v)}`)}
        {d.tcCounts
          ? ` · LCS ${d.tcCounts.lcs ?? '–'} of max(K ${d.tcCounts.k ?? '–'}, K̂ ${d.tcCounts.kHat ?? '–'})`
          : ''}{' '}
        <Offline offline={d.offline} />
      </p>
      {d.error ? <ErrorBox error={d.error} /> : null}
      <h2>Query</h2>
      <Pre value={d.query ?? '(not stored for this run)'} testId="query" />
      <div className="cols">
        <div>
          <h2>Reference answer</h2>
          <Pre value={d.reference ?? '(not stored for this run)'} testId="reference" />
        </div>
        <div>
          <h2>Produced answer</h2>
          <Pre value={d.answer} testId="answer" />
        </div>
      </div>
      {d.trace?.rationale ? <p className="muted small">judge: {d.trace.rationale}</p> : null}
      {d.trace?.judgeError ? <ErrorBox error={`judge: ${d.trace.judgeError}`} /> : null}
      <h2>Calls, aligned by the LCS</h2>
      {d.alignment ? (
        <Alignment lines={d.alignment} />
      ) : (
        <p className="muted">
          No alignment stored (a run from before traces were kept). Produced calls: {asText(d.producedCalls)}
        </p>
      )}
      {d.argumentSources ? <Sources s={d.argumentSources} /> : null}
      <h2>Node observations, in execution order</h2>
      {d.trace ? (
        obs.map(({ o }, i) => <ObservationView key={`${o.nodeId}-${i}`} o={o} n={i + 1} />)
      ) : (
        <p className="muted">No trace stored for this record.</p>
      )}
    </section>
  );
}

/** The reference arguments by where their value stands: how many, how many called, how many right. */
function Sources({ s }: { s: NonNullable<RecordResponse['argumentSources']> }) {
  const rows: Array<[string, { args: number; called: number; right: number }]> = [
    ['written in the request', s.request],
    ["found in an earlier call's result", s.upstream],
    ['neither (a constant, a default)', s.neither],
  ];
  return (
    <>
      <h2>Where the reference arguments come from</h2>
      <table className="table" data-testid="argument-sources">
        <thead>
          <tr>
            <th>value</th>
            <th className="num">arguments</th>
            <th className="num">their call made</th>
            <th className="num">passed right</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([label, c]) => (
            <tr key={label}>
              <td>{label}</td>
              <td className="num">{c.args}</td>
              <td className="num">{c.called}</td>
              <td className="num">{c.right}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
