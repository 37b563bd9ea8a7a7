/**
 * The exploration weight λ of the selection score, cosine-annealed over the iterations (docs/DESIGN.md,
 * "Search": λ is cosine-annealed from 0.2 to 0.02 over the iterations): λ_t = λ_min + ½(λ_max − λ_min)(1 + cos(π·t/J))
 * for iteration t = 1..J, so the search explores broadly first and exploits the best subtree at the
 * end. Defaults: λ_max = 0.2, λ_min = 0.02. Rewards lie in [0, 1] and sibling candidates differ by
 * a few hundredths to a tenth, while the exploration term sqrt(ln(C_p + 1)/(C_c + 1)) is 0.5–1 for
 * young nodes: λ_max = 0.2 still lets a once-visited sibling overtake a better-rewarded, often
 * visited one (0.2·0.9 vs 0.2·0.5), and λ_min = 0.02 makes the last iterations follow Q almost
 * greedily. Chosen on D_val: over the three TRAJECT-Bench domains and two seeds, λ_max = 0.2 gave
 * the best validation scores among 0.1, 0.2 and 0.5 (offline policy, rule-based optimizer).
 */

/** The two ends of the schedule. */
export interface AnnealOptions {
  lambdaMax: number;
  lambdaMin: number;
}

/** λ at the first iteration (see the module comment for why). */
export const DEFAULT_LAMBDA_MAX = 0.2;
/** λ at the last iteration. */
export const DEFAULT_LAMBDA_MIN = 0.02;

/** λ at iteration `t` (1-based) of `total`. t ≤ 1 gives λ_max, t ≥ total gives λ_min. */
export function annealedLambda(
  t: number,
  total: number,
  opts: AnnealOptions = { lambdaMax: DEFAULT_LAMBDA_MAX, lambdaMin: DEFAULT_LAMBDA_MIN },
): number {
  if (total <= 1) return opts.lambdaMax;
  const progress = Math.min(1, Math.max(0, (t - 1) / (total - 1)));
  return opts.lambdaMin + 0.5 * (opts.lambdaMax - opts.lambdaMin) * (1 + Math.cos(Math.PI * progress));
}
