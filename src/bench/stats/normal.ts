/**
 * The standard normal distribution for the large-sample Wilcoxon test (wilcoxon.ts). The upper tail
 * uses the complementary error function in the Chebyshev form of Numerical Recipes (`erfcc`,
 * fractional error below 1.2e-7 everywhere), so small p-values keep their relative precision.
 */

/** erfc(x), the complementary error function. */
export function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const poly =
    -z * z -
    1.26551223 +
    t *
      (1.00002368 +
        t *
          (0.37409196 +
            t *
              (0.09678418 +
                t *
                  (-0.18628806 +
                    t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))));
  const r = t * Math.exp(poly);
  return x >= 0 ? r : 2 - r;
}

/** P(Z > z) for a standard normal Z. */
export function normalUpperTail(z: number): number {
  return 0.5 * erfc(z / Math.SQRT2);
}

/** Two-sided p-value of a standard normal statistic: P(|Z| ≥ |z|), at most 1. */
export function normalTwoSided(z: number): number {
  return Math.min(1, 2 * normalUpperTail(Math.abs(z)));
}
