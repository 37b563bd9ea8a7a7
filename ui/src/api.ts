import { useEffect, useState } from 'react';
import type {
  candidateView,
  recordView,
  runView,
  RunSummary,
  TreeNode,
  AlignedCall,
} from '../../src/ui/server/read-model.ts';
import type { WorkflowDiff } from '../../src/ui/server/workflow-diff.ts';
import type { ServedWorkflowSummary, WorkflowView } from '../../src/ui/server/workflow-view.ts';
import type { ChoiceOption, Workflow, WorkflowNode, Edge } from '../../src/graph/schema.ts';

/** The JSON the server sends (types taken from the server's own views). */
export type RunsResponse = { store: string; runs: RunSummary[]; bench: Array<{ index: number; dir: string }> };
export type RunResponse = ReturnType<typeof runView>;
export type CandidateResponse = ReturnType<typeof candidateView>;
export type RecordResponse = ReturnType<typeof recordView>;
export type BenchResponse = { dir: string; report: string | null; figures: string[]; files: string[] };
export type ServedWorkflowsResponse = { workflows: ServedWorkflowSummary[] };
export type WorkflowResponse = WorkflowView;
export type { RunSummary, TreeNode, AlignedCall, WorkflowDiff, Workflow, WorkflowNode, Edge, ChoiceOption };

export type Loaded<T> = { data?: T; error?: string; loading: boolean };

/**
 * Fetches `url` as JSON; with `live`, refetches whenever the server's event stream says the store
 * changed (a running search committed an iteration), so the page updates without a reload.
 */
export function useJson<T>(url: string, live?: { run?: string } | false): Loaded<T> {
  const [state, setState] = useState<Loaded<T>>({ loading: true });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let cancelled = false;
    fetch(url)
      .then(async (r) => {
        // An error is `{error: {code, message, hint?, location?}}` (the server's ErrorShape).
        const body = (await r.json()) as T & { error?: { message?: string; hint?: string } };
        if (cancelled) return;
        if (!r.ok)
          setState({
            loading: false,
            error: `${body.error?.message ?? r.statusText}${body.error?.hint ? ` ${body.error.hint}` : ''}`,
          });
        else setState({ loading: false, data: body });
      })
      .catch((e: unknown) => !cancelled && setState((s) => ({ ...s, loading: false, error: String(e) })));
    return () => {
      cancelled = true;
    };
  }, [url, tick]);
  const liveKey = live === false || live === undefined ? null : (live.run ?? '*');
  useEffect(() => {
    if (liveKey === null) return;
    const es = new EventSource(`/api/events${liveKey === '*' ? '' : `?run=${encodeURIComponent(liveKey)}`}`);
    es.addEventListener('change', () => setTick((t) => t + 1));
    return () => es.close();
  }, [liveKey]);
  return state;
}

export const fmt = (v: number | null | undefined, digits = 3): string =>
  v === null || v === undefined || !Number.isFinite(v) ? '–' : v.toFixed(digits);

export function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

/** A score in [0, 1] as a fill colour (red → amber → green); grey when unscored. */
export function scoreColor(v: number | null | undefined): string {
  if (v === null || v === undefined) return '#e5e7eb';
  const h = Math.max(0, Math.min(1, v)) * 120;
  return `hsl(${h.toFixed(0)} 70% 82%)`;
}

/** Any value as one line of text (JSON for structures). */
export function asText(v: unknown): string {
  if (v === undefined) return '';
  if (typeof v === 'string') return v;
  return JSON.stringify(v, null, 2) ?? String(v);
}
