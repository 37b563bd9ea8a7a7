import { useState } from 'react';
import { fmt, useJson, type CandidateResponse } from './api.ts';
import { WorkflowGraph } from './graphs.tsx';
import { href } from './route.ts';
import { ErrorBox, Offline, Pre } from './text.tsx';

type RecordRow = CandidateResponse['records'][number];
type SortKey = 'score' | 'tc' | 'es' | 'recordId' | 'split';

function Scores({ d }: { d: CandidateResponse }) {
  const rows: Array<
    [
      string,
      {
        records: number;
        esRecords?: number;
        tc: number | null;
        es: number | null;
        score: number | null;
        dims?: Record<string, number>;
      } | null,
    ]
  > = [
    ['D_opt', d.scores.opt],
    ['D_val', d.scores.val],
    ['D_test', d.scores.test ? { ...d.scores.test } : null],
  ];
  const dimNames = [...new Set([...Object.keys(d.scores.opt.dims), ...Object.keys(d.scores.val.dims)])];
  return (
    <table className="grid" data-testid="scores">
      <thead>
        <tr>
          <th>split</th>
          <th className="num">records</th>
          <th className="num">(TC+ES)/2</th>
          <th className="num">TC</th>
          <th className="num">ES</th>
          {dimNames.map((n) => (
            <th key={n} className="num">
              {n}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map(([name, s]) => (
          <tr key={name}>
            <th>{name}</th>
            {s ? (
              <>
                <td className="num">{s.records}</td>
                <td className="num">{fmt(s.score)}</td>
                <td className="num">{fmt(s.tc)}</td>
                <td
                  className="num"
                  title={
                    s.esRecords !== undefined && s.esRecords < s.records
                      ? `ES on the ${s.esRecords} of ${s.records} records with a reference answer (the others: TC only)`
                      : undefined
                  }
                >
                  {fmt(s.es)}
                  {s.esRecords !== undefined && s.esRecords < s.records ? ` (on ${s.esRecords})` : ''}
                </td>
                {dimNames.map((n) => (
                  <td key={n} className="num">
                    {fmt(s.dims?.[n])}
                  </td>
                ))}
              </>
            ) : (
              <td colSpan={4 + dimNames.length} className="muted">
                {name === 'D_test'
                  ? 'not run on the test set (only G0 and the best candidate are, once the search ends)'
                  : 'no results'}
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Per-record results, sortable, worst first by default. */
export function RecordsTable({ run, candidate, records }: { run: string; candidate: string; records: RecordRow[] }) {
  const [key, setKey] = useState<SortKey>('score');
  const [asc, setAsc] = useState(true);
  const val = (r: RecordRow): number | string =>
    key === 'score'
      ? (r.tc + r.es) / 2
      : key === 'tc'
        ? r.tc
        : key === 'es'
          ? r.es
          : key === 'split'
            ? r.split
            : r.recordId;
  const sorted = [...records].sort((a, b) => {
    const x = val(a);
    const y = val(b);
    const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
    return (asc ? c : -c) || a.recordId.localeCompare(b.recordId);
  });
  const head = (k: SortKey, label: string, num = false) => (
    <th className={num ? 'num' : ''}>
      <button
        className="sort"
        data-testid={`sort-${k}`}
        onClick={() => {
          if (k === key) setAsc(!asc);
          else {
            setKey(k);
            setAsc(true);
          }
        }}
      >
        {label}
        {k === key ? (asc ? ' ▲' : ' ▼') : ''}
      </button>
    </th>
  );
  return (
    <table className="grid" data-testid="records-table">
      <thead>
        <tr>
          {head('split', 'split')}
          {head('recordId', 'record')}
          {head('score', '(TC+ES)/2', true)}
          {head('tc', 'TC', true)}
          {head('es', 'ES', true)}
          <th className="num">calls</th>
          <th>error</th>
        </tr>
      </thead>
      <tbody>
        {sorted.map((r) => (
          <tr key={`${r.split}/${r.recordId}`} data-testid="record-row">
            <td>{r.split}</td>
            <td>
              <a href={href.record(run, candidate, r.split, r.recordId)}>{r.recordId}</a>
            </td>
            <td className="num">{fmt((r.tc + r.es) / 2)}</td>
            <td className="num">{fmt(r.tc)}</td>
            <td className="num">{fmt(r.es)}</td>
            <td className="num">{r.calls}</td>
            <td className="small err-text">{r.error ?? ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function DiffList({ d }: { d: CandidateResponse }) {
  const diff = d.diff;
  if (!diff)
    return <p className="muted">{d.candidate.parent ? 'no workflow to compare' : 'G0, the root: no parent'}</p>;
  const items: Array<[string, string[]]> = [
    ['added nodes', diff.addedNodes],
    ['removed nodes', diff.removedNodes],
    ['changed nodes', diff.changedNodes.map((c) => `${c.id} (${c.fields.join(', ')})`)],
    ['added edges', diff.addedEdges],
    ['removed edges', diff.removedEdges],
    ['changed edges', diff.changedEdges],
  ];
  const any = items.some(([, v]) => v.length);
  return (
    <ul className="diff-list" data-testid="diff-list">
      {any ? (
        items
          .filter(([, v]) => v.length)
          .map(([k, v]) => <li key={k} className={`d-${k.split(' ')[0]}`}>{`${k}: ${v.join(', ')}`}</li>)
      ) : (
        <li>no structural change</li>
      )}
    </ul>
  );
}

export function CandidatePage({ run, candidate }: { run: string; candidate: string }) {
  const q = useJson<CandidateResponse>(
    `/api/runs/${encodeURIComponent(run)}/candidates/${encodeURIComponent(candidate)}`,
  );
  if (q.error) return <ErrorBox error={q.error} />;
  if (!q.data) return <p>Loading…</p>;
  const d = q.data;
  const c = d.candidate;
  return (
    <section>
      <p className="crumbs">
        <a href={href.runs()}>Runs</a> / <a href={href.run(run)}>{run}</a> / {c.id}
      </p>
      <h1>
        Candidate {c.id} {c.best ? <span className="best-tag">★ best</span> : null} <Offline offline={d.run.offline} />
      </h1>
      <p>
        {c.parent ? (
          <>
            child of <a href={href.candidate(run, c.parent)}>{c.parent}</a> at iteration {c.iteration}:{' '}
          </>
        ) : (
          'the root G0: '
        )}
        <span data-testid="edit-summary">{c.summary}</span>
      </p>
      {c.error ? <ErrorBox error={`${c.kind}: ${c.error}`} /> : null}
      {c.duplicateOf ? (
        <p>
          Same workflow as <a href={href.candidate(run, c.duplicateOf)}>{c.duplicateOf}</a>; its scores are reused.
        </p>
      ) : null}
      <p className="muted small">
        visits {c.visits} · mean reward {fmt(c.meanReward)} · R_opt {fmt(c.optReward)} · hash {d.candidate.hash ?? '–'}
      </p>
      <h2>Scores</h2>
      <Scores d={d} />
      <h2>Workflow{d.diff ? ' and its diff against the parent' : ''}</h2>
      <p className="muted small">
        LLM nodes blue, tool nodes orange; data edges solid, control edges dashed; guards on edges. Diff: green added,
        amber changed, red removed.
      </p>
      {d.workflow ? (
        <WorkflowGraph workflow={d.workflow} parent={d.parentWorkflow} diff={d.diff} />
      ) : (
        <p className="muted">No workflow: the expansion failed before one existed.</p>
      )}
      <DiffList d={d} />
      {c.plan ? (
        <>
          <h2>Edit plan</h2>
          <Pre value={c.plan} testId="edit-plan" />
        </>
      ) : null}
      <h2>Records (worst first)</h2>
      {d.scoredBy !== c.id ? <p className="muted">Results of {d.scoredBy}, whose workflow this is.</p> : null}
      <RecordsTable run={run} candidate={c.id} records={d.records} />
    </section>
  );
}

/** Two candidates of a run: graphs side by side, per-record score differences. */
export function ComparePage({ run, a, b }: { run: string; a: string; b: string }) {
  const qa = useJson<CandidateResponse>(`/api/runs/${encodeURIComponent(run)}/candidates/${encodeURIComponent(a)}`);
  const qb = useJson<CandidateResponse>(`/api/runs/${encodeURIComponent(run)}/candidates/${encodeURIComponent(b)}`);
  if (qa.error || qb.error) return <ErrorBox error={(qa.error ?? qb.error)!} />;
  if (!qa.data || !qb.data) return <p>Loading…</p>;
  const A = qa.data;
  const B = qb.data;
  const byKey = new Map(B.records.map((r) => [`${r.split}/${r.recordId}`, r]));
  const rows = A.records
    .map((r) => ({ a: r, b: byKey.get(`${r.split}/${r.recordId}`) }))
    .filter((x): x is { a: RecordRow; b: RecordRow } => x.b !== undefined)
    .map((x) => ({ ...x, delta: (x.b.tc + x.b.es) / 2 - (x.a.tc + x.a.es) / 2 }))
    .sort((p, q) => p.delta - q.delta || p.a.recordId.localeCompare(q.a.recordId));
  return (
    <section>
      <p className="crumbs">
        <a href={href.runs()}>Runs</a> / <a href={href.run(run)}>{run}</a> / compare {a} and {b}
      </p>
      <h1>
        {a} vs {b} <Offline offline={A.run.offline} />
      </h1>
      <div className="cols">
        {[A, B].map((d) => (
          <div key={d.candidate.id}>
            <h2>
              <a href={href.candidate(run, d.candidate.id)}>{d.candidate.id}</a>: S_val {fmt(d.scores.val.score)}, R_opt{' '}
              {fmt(d.scores.opt.score)}
            </h2>
            <p className="small">{d.candidate.summary}</p>
            {d.workflow ? (
              <WorkflowGraph workflow={d.workflow} testId={`compare-graph-${d.candidate.id}`} />
            ) : (
              <p>no workflow</p>
            )}
          </div>
        ))}
      </div>
      <h2>
        Per-record difference ({b} − {a}), biggest loss first
      </h2>
      <table className="grid" data-testid="compare-table">
        <thead>
          <tr>
            <th>split</th>
            <th>record</th>
            <th className="num">TC {a}</th>
            <th className="num">TC {b}</th>
            <th className="num">ES {a}</th>
            <th className="num">ES {b}</th>
            <th className="num">Δ (TC+ES)/2</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ a: ra, b: rb, delta }) => (
            <tr key={`${ra.split}/${ra.recordId}`}>
              <td>{ra.split}</td>
              <td>{ra.recordId}</td>
              <td className="num">{fmt(ra.tc)}</td>
              <td className="num">{fmt(rb.tc)}</td>
              <td className="num">{fmt(ra.es)}</td>
              <td className="num">{fmt(rb.es)}</td>
              <td className={`num ${delta > 0 ? 'pos' : delta < 0 ? 'neg' : ''}`}>
                {(delta > 0 ? '+' : '') + delta.toFixed(3)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
