import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '@xyflow/react/dist/style.css';
import './styles.css';
import { BenchPage } from './bench.tsx';
import { CandidatePage, ComparePage } from './candidate.tsx';
import { RecordPage } from './record.tsx';
import { href, useRoute } from './route.ts';
import { RunPage, RunsPage } from './runs.tsx';
import { ErrorBox } from './text.tsx';
import { WorkflowPage } from './workflow.tsx';

/** FlowScout's web UI: runs → run (search tree) → candidate (workflow, diff) → record (trace). */
function App() {
  const r = useRoute();
  return (
    <>
      <header className="top">
        <a href={href.runs()} className="brand">
          FlowScout
        </a>
        <span className="muted small">read-only view of the search store</span>
      </header>
      <main key={JSON.stringify(r)}>
        {r.page === 'runs' ? <RunsPage /> : null}
        {r.page === 'run' ? <RunPage run={r.run} /> : null}
        {r.page === 'candidate' ? <CandidatePage run={r.run} candidate={r.candidate} /> : null}
        {r.page === 'record' ? (
          <RecordPage run={r.run} candidate={r.candidate} split={r.split} record={r.record} />
        ) : null}
        {r.page === 'compare' ? <ComparePage run={r.run} a={r.a} b={r.b} /> : null}
        {r.page === 'bench' ? <BenchPage index={r.index} /> : null}
        {r.page === 'workflow' ? <WorkflowPage hash={r.hash} /> : null}
        {r.page === 'bad' ? (
          <ErrorBox
            error={`The address ${r.address} is not valid: it has a broken %-escape. Go back to the list of runs.`}
          />
        ) : null}
      </main>
    </>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
