/**
 * The exploration weight λ of the selection score, cosine-annealed over the iterations (DESIGN.md,
 * "Search": "λ cosine-annealed over the iterations"): λ_t = λ_min + ½(λ_max − λ_min)(1 + cos(π·t/J))
 * for iteration t = 1..J, so the search explores broadly first and exploits the best subtree at the
 * end. Defaults: λ_max = 0.5, λ_min = 0.05. Rewards lie in [0, 1] and sibling candidates usually
 * differ by a few hundredths, so λ_max = 0.5 already lets an unexplored sibling (exploration term
 * ≈ 0.5·0.9) beat a better-rewarded but well-visited one early, while λ_min = 0.05 makes the last
 * iterations follow Q almost greedily.
 */

export interface AnnealOptions {
  lambdaMax: number;
  lambdaMin: number;
}

export const DEFAULT_LAMBDA_MAX = 0.5;
export const DEFAULT_LAMBDA_MIN = 0.05;

/** λ at iteration `t` (1-based) of `total`. t ≤ 1 gives λ_max, t ≥ total gives λ_min. */
export function annealedLambda(t: number, total: number, opts: AnnealOptions = { lambdaMax: DEFAULT_LAMBDA_MAX, lambdaMin: DEFAULT_LAMBDA_MIN }): number {
  if (total <= 1) return opts.lambdaMax;
  const progress = Math.min(1, Math.max(0, (t - 1) / (total - 1)));
  return opts.lambdaMin + 0.5 * (opts.lambdaMax - opts.lambdaMin) * (1 + Math.cos(Math.PI * progress));
}
