/** The Wilson score interval of a pass rate: honest at small N and at 0 or 1, where the normal one is not. */

/** A pass rate with its confidence interval. */
export interface RateInterval {
  passed: number;
  total: number;
  /** `passed / total` (0 with no trials). */
  rate: number;
  /** Bounds of the interval (0 and 1 with no trials: nothing is known). */
  low: number;
  high: number;
}

/**
 * The Wilson score interval of `passed` out of `total` at confidence `z` (default 1.96: 95%). Figures are
 * rounded to 3 decimals.
 */
export function wilsonInterval(passed: number, total: number, z = 1.96): RateInterval {
  if (total === 0) return { passed, total, rate: 0, low: 0, high: 1 };
  const p = passed / total;
  const z2 = z * z;
  const centre = (p + z2 / (2 * total)) / (1 + z2 / total);
  const half = (z * Math.sqrt((p * (1 - p)) / total + z2 / (4 * total * total))) / (1 + z2 / total);
  return {
    passed,
    total,
    rate: round(p),
    low: round(Math.max(0, centre - half)),
    high: round(Math.min(1, centre + half)),
  };
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
