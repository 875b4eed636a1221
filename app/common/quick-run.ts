/**
 * Quick runs: a plan shrunk by `--scale` below 1 (the UI's quick scale). Its figures come from
 * small files and short runs, so it is labelled as quick wherever it is shown. One place reads the
 * scale of a result, whichever way the document records it. Pure: imports nothing.
 */

/** What a result document says about its scale: top-level (plumb.result/2) or in its plan. */
export interface ScaledResult {
  scale?: unknown;
  /** The stored plan; its `scale`, when it has one, is read. */
  plan: object;
}

const validScale = (value: unknown): value is number =>
  typeof value === 'number' && value > 0 && value <= 1;

/** The scale the run's plan was shrunk by; 1 for a full run (and documents that do not say). */
export function runScale(result: ScaledResult): number {
  if (validScale(result.scale)) return result.scale;
  const planScale = (result.plan as { scale?: unknown }).scale;
  if (validScale(planScale)) return planScale;
  return 1;
}

export function isQuickRun(result: ScaledResult): boolean {
  return runScale(result) < 1;
}

/** A scale as a share of the full plan: "1 %", "0.1 %", "25 %". */
export function scalePercent(scale: number): string {
  return `${Number((scale * 100).toPrecision(2))} %`;
}

/** The short label: "Quick run (1 %)"; null for a full run. */
export function quickRunLabel(result: ScaledResult): string | null {
  const scale = runScale(result);
  return scale < 1 ? `Quick run (${scalePercent(scale)})` : null;
}

/** A run's scale said to a reader who does not know what a scale is: "Quick run (1 % of full size)". */
export function quickScaleWords(scale: number): string {
  return scale < 1 ? `Quick run (${scalePercent(scale)} of full size)` : 'Full size';
}

const caveat =
  "small files and short runs may be served by caches, so the figures are not the drive's full-run speed.";

/** One sentence for a caption, a CSV comment or a report: null for a full run. */
export function quickRunNote(result: ScaledResult): string | null {
  const scale = runScale(result);
  if (scale >= 1) return null;
  return `Quick run at ${scalePercent(scale)} of the plan's sizes: ${caveat}`;
}

/**
 * What a quick run means for its figures, for a place that has already named it ("Quick run
 * (1 %)." as a banner's or a row's label): the note without saying it again.
 */
export function quickRunCaveat(result: ScaledResult): string | null {
  return runScale(result) < 1 ? caveat[0]!.toUpperCase() + caveat.slice(1) : null;
}
