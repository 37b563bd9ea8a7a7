import { useEffect, useState } from 'react';

/** Pages are addressed by the URL hash: #/, #/runs/<id>, #/runs/<id>/c/<cid>, … */
export type Route =
  | { page: 'runs' }
  | { page: 'run'; run: string }
  | { page: 'candidate'; run: string; candidate: string }
  | { page: 'record'; run: string; candidate: string; split: string; record: string }
  | { page: 'compare'; run: string; a: string; b: string }
  | { page: 'bench'; index: string }
  | { page: 'workflow'; hash: string }
  | { page: 'bad'; address: string };

export function parseRoute(hash: string): Route {
  let parts: string[];
  try {
    parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    // A hand-edited address with a broken %-escape: say so instead of a blank page.
    return { page: 'bad', address: hash };
  }
  if (parts[0] === 'bench' && parts[1] !== undefined) return { page: 'bench', index: parts[1] };
  if (parts[0] === 'workflows' && parts[1] !== undefined) return { page: 'workflow', hash: parts[1] };
  if (parts[0] !== 'runs' || !parts[1]) return { page: 'runs' };
  const run = parts[1];
  if (parts[2] === 'compare' && parts[3] && parts[4]) return { page: 'compare', run, a: parts[3], b: parts[4] };
  if (parts[2] === 'c' && parts[3]) {
    if (parts[4] === 'r' && parts[5] && parts[6])
      return { page: 'record', run, candidate: parts[3], split: parts[5], record: parts[6] };
    return { page: 'candidate', run, candidate: parts[3] };
  }
  return { page: 'run', run };
}

export const href = {
  runs: () => '#/',
  run: (run: string) => `#/runs/${encodeURIComponent(run)}`,
  candidate: (run: string, c: string) => `#/runs/${encodeURIComponent(run)}/c/${encodeURIComponent(c)}`,
  record: (run: string, c: string, split: string, rec: string) =>
    `#/runs/${encodeURIComponent(run)}/c/${encodeURIComponent(c)}/r/${encodeURIComponent(split)}/${encodeURIComponent(rec)}`,
  compare: (run: string, a: string, b: string) =>
    `#/runs/${encodeURIComponent(run)}/compare/${encodeURIComponent(a)}/${encodeURIComponent(b)}`,
  bench: (i: number | string) => `#/bench/${i}`,
  workflow: (hash: string) => `#/workflows/${encodeURIComponent(hash)}`,
};

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(window.location.hash));
  useEffect(() => {
    const on = () => setRoute(parseRoute(window.location.hash));
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  return route;
}
