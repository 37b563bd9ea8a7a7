import { fmt } from './api.ts';

/** One point of the validation-per-iteration chart. */
export interface IterPoint {
  iteration: number;
  valScore?: number | undefined;
  bestVal?: number | undefined;
  status: string;
}

/**
 * The validation score of each iteration's new candidate (dots; failed or invalid expansions as
 * crosses on the axis) and the best-so-far line: the paper's Fig. 5, as SVG built from numbers.
 */
export function ValChart({ points, g0 }: { points: IterPoint[]; g0?: number | undefined }) {
  const W = 640;
  const H = 240;
  const pad = { l: 44, r: 12, t: 12, b: 32 };
  const all = [...points.flatMap((p) => [p.valScore, p.bestVal]), g0].filter((v): v is number => typeof v === 'number');
  const lo = Math.max(0, Math.floor((Math.min(...all, 1) - 0.05) * 10) / 10);
  const hi = Math.min(1, Math.ceil((Math.max(...all, 0) + 0.05) * 10) / 10);
  const maxIt = Math.max(1, ...points.map((p) => p.iteration));
  const x = (it: number) => pad.l + (it / maxIt) * (W - pad.l - pad.r);
  const y = (v: number) => pad.t + (1 - (v - lo) / Math.max(1e-9, hi - lo)) * (H - pad.t - pad.b);
  const best = [
    ...(g0 !== undefined ? [{ iteration: 0, v: g0 }] : []),
    ...points.filter((p) => p.bestVal !== undefined).map((p) => ({ iteration: p.iteration, v: p.bestVal! })),
  ];
  const step = best.length
    ? `${best.map((p, i) => (i === 0 ? `M${x(p.iteration).toFixed(1)},${y(p.v).toFixed(1)}` : `H${x(p.iteration).toFixed(1)} V${y(p.v).toFixed(1)}`)).join(' ')} H${x(maxIt).toFixed(1)}`
    : '';
  const ticks = Array.from({ length: 5 }, (_, i) => lo + ((hi - lo) * i) / 4);
  return (
    <svg
      className="chart"
      viewBox={`0 0 ${W} ${H}`}
      role="img"
      aria-label="validation score per iteration"
      data-testid="val-chart"
    >
      {ticks.map((t) => (
        <g key={t}>
          <line x1={pad.l} x2={W - pad.r} y1={y(t)} y2={y(t)} stroke="#e2e8f0" />
          <text x={pad.l - 6} y={y(t) + 4} textAnchor="end" fontSize="10">
            {t.toFixed(2)}
          </text>
        </g>
      ))}
      {Array.from({ length: maxIt + 1 }, (_, i) => i)
        .filter((i) => maxIt <= 20 || i % Math.ceil(maxIt / 10) === 0)
        .map((i) => (
          <text key={i} x={x(i)} y={H - pad.b + 14} textAnchor="middle" fontSize="10">
            {i}
          </text>
        ))}
      <text x={(W + pad.l) / 2} y={H - 4} textAnchor="middle" fontSize="11">
        iteration
      </text>
      {best.length ? <path d={step} fill="none" stroke="#2563eb" strokeWidth="2" data-testid="best-line" /> : null}
      {points.map((p) =>
        p.valScore !== undefined ? (
          <circle key={p.iteration} cx={x(p.iteration)} cy={y(p.valScore)} r="4" fill="#f59e0b" stroke="#92400e">
            <title>{`iteration ${p.iteration}: S_val ${fmt(p.valScore)} (${p.status})`}</title>
          </circle>
        ) : (
          <text key={p.iteration} x={x(p.iteration)} y={H - pad.b - 2} textAnchor="middle" fontSize="12" fill="#dc2626">
            ×<title>{`iteration ${p.iteration}: ${p.status}, no validation score`}</title>
          </text>
        ),
      )}
      <g fontSize="11">
        <circle cx={W - 250} cy={H - pad.b - 14} r="4" fill="#f59e0b" stroke="#92400e" />
        <text x={W - 242} y={H - pad.b - 10}>
          new candidate's S_val
        </text>
        <line x1={W - 110} x2={W - 90} y1={H - pad.b - 14} y2={H - pad.b - 14} stroke="#2563eb" strokeWidth="2" />
        <text x={W - 86} y={H - pad.b - 10}>
          best so far
        </text>
      </g>
    </svg>
  );
}
