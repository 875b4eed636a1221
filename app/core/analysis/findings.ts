import { median } from 'simple-statistics';
import { formatBytes, formatRate } from '../../common/format.js';
import { driveRateMinBytes } from '../../common/headline-rate.js';
import { cacheCliffOf } from './cache-cliff.js';
import { dropCause, type DropCause, type EarlierDrop } from './drop-cause.js';
import { anySsdCeiling, ceilingToCheck, type InterfaceCeiling } from './interface-ceiling.js';
import type { PhaseSamples } from '../../common/phase-samples.js';
import { rateShape } from './rate-shape.js';
import { sizeAdjustedRatiosOf, sizeAdjustedSpreadOf } from './size-adjusted-spread.js';
import { theilSenOf } from './theil-sen.js';
import {
  columnRates,
  phaseColumns,
  ratedRows,
  selectValues,
  type PhaseColumns,
  type SeriesColumns,
  type SeriesPoint,
} from './transfer-columns.js';
import { isBimodal, twoModes } from './two-modes.js';

export type Phase = 'write' | 'read';

/** A file as findings need it: a point of the phase's series, maybe with a temperature. */
export interface PhaseFile extends SeriesPoint {
  phase: Phase;
  temperatureC?: number | null;
}

type FindingBase = {
  phase: Phase | null;
  /** One sentence for people. */
  message: string;
};

export type Finding = FindingBase &
  (
    | {
        kind: 'cliff' | 'throttling';
        atBytes: number;
        atSeconds: number | null;
        beforeRate: number;
        afterRate: number;
        confidence: number;
        cause: DropCause;
        reason: string;
        recoverySeconds: number | null;
        /** From samples: every step of the rate, the first at the start (a cache running out). */
        steps?: { atBytes: number; atSeconds: number; rate: number }[];
        /** From samples, for a rate that fell and came back again and again while writing went on. */
        repeating?: { count: number; periodSeconds: number; slowShare: number };
      }
    | {
        kind: 'exceeds-interface';
        interface: string;
        ceilingRate: number;
        count: number;
        maxRate: number;
      }
    | { kind: 'bimodal'; modes: { rate: number; count: number }[]; ashmansD: number }
    | { kind: 'small-files'; count: number; thresholdBytes: number }
    | { kind: 'buffered' }
    | { kind: 'unstable'; spread: number }
  );

export interface FindingsInput extends FindingsOptions {
  files: readonly PhaseFile[];
}

/** What findings read besides the files. */
export interface FindingsOptions {
  cacheMode: 'direct' | 'buffered';
  /** The interface the data crossed, when known or chosen (else rates are checked against any SSD's). */
  ceiling?: InterfaceCeiling;
  /** Drops found in earlier runs of the same plan on the same drive, per phase. */
  earlierDrops?: Partial<Record<Phase, readonly EarlierDrop[]>>;
  /** Idle seconds the write rate took to recover after a sustained run; null: it did not. */
  recoverySeconds?: number | null;
  /**
   * Progress samples of each phase, when the run recorded them: then the drop (or drops) and any
   * repeating slow-down are found on them; without them (version 1 results), on the per-file rates.
   */
  samples?: Partial<Record<Phase, PhaseSamples>>;
}

/** A drop of the phase's rate, found on samples or on files, before its cause is judged. */
export interface PhaseDrop {
  atBytes: number;
  atSeconds: number | null;
  beforeRate: number;
  afterRate: number;
  confidence: number;
  steps?: { atBytes: number; atSeconds: number; rate: number }[];
  repeating?: { count: number; periodSeconds: number; slowShare: number };
  /** What was measured, without a subject: "about 0.90 GB at 740 MB/s, then 150 MB/s". */
  measured: string;
}

const phaseWord: Record<Phase, string> = { write: 'Write', read: 'Read' };

/** "1 file written", "106 files read": a count of a phase's files in words. */
function filesCounted(count: number, phase: Phase): string {
  return `${count} ${count === 1 ? 'file' : 'files'} ${phase === 'write' ? 'written' : 'read'}`;
}

/**
 * The finding's sentence: what was measured, led by what it was where the cause is known ("Write
 * cache: about 0.90 GB at 740 MB/s, then 150 MB/s."). Why it is thought so is the finding's
 * `reason`, shown one step away.
 */
export function dropSentence(phase: Phase, drop: PhaseDrop, cause: DropCause): string {
  if (drop.repeating) return `${phaseWord[phase]} speed ${drop.measured}.`;
  if (drop.steps && cause === 'cache' && phase === 'write') return `Write cache: ${drop.measured}.`;
  if (drop.steps && cause === 'thermal') return `Slowed by heat: ${drop.measured}.`;
  if (drop.steps) return `${phaseWord[phase]} speed fell: ${drop.measured}.`;
  return `${phaseWord[phase]} speed ${drop.measured}.`;
}

/**
 * What the bimodal sentence says made the two groups: the drop found in the same phase where it
 * does (a throttling drive's files fall on both sides of its slow-downs; a cliff's fast files,
 * but for one, were written before its last step and its slow files after its first), else that
 * file size does not explain them. `starts` and `ends` are each file's place in the phase.
 */
function groupsCause(
  drop: PhaseDrop | null,
  isFast: (i: number) => boolean,
  starts: Float64Array,
  ends: Float64Array,
): string {
  if (drop?.repeating) return 'as the speed fell and came back, not by file size';
  if (drop) {
    const first = drop.atBytes;
    const last = drop.steps?.at(-1)?.atBytes ?? first;
    let [fastAfter, slowBefore] = [0, 0];
    starts.forEach((start, i) => {
      if (isFast(i) && ends[i]! > last) fastAfter += 1;
      if (!isFast(i) && start < first) slowBefore += 1;
    });
    if (fastAfter <= 1 && slowBefore <= 1)
      return 'before and after the speed fell, not by file size';
  }
  return 'that file size does not explain';
}

const percent = (share: number) => `${(share * 100).toFixed(0)} %`;

/**
 * The phase's drop from its samples: a repeating slow-down (throttling), or the steps of a rate
 * that only fell; null when neither. Undefined when the samples are too few to read, so the
 * per-file detector is used instead.
 */
function sampledDrop(phase: Phase, samples: PhaseSamples): PhaseDrop | null | undefined {
  const shape = rateShape(samples);
  if (!shape) return undefined;
  const throttling = shape.throttling;
  if (throttling) {
    return {
      atBytes: throttling.firstBytes,
      atSeconds: throttling.firstSeconds,
      beforeRate: throttling.fastRate,
      afterRate: throttling.slowRate,
      confidence: Math.min(...shape.segments.map((s) => s.confidence)),
      repeating: {
        count: throttling.count,
        periodSeconds: throttling.periodSeconds,
        slowShare: throttling.slowShare,
      },
      measured: `fell from ${formatRate(throttling.fastRate)} to ${formatRate(throttling.slowRate)} ${throttling.count} times, about every ${throttling.periodSeconds.toFixed(1)} s from ${formatBytes(throttling.firstBytes)} on, slow ${percent(throttling.slowShare)} of the time`,
    };
  }
  const steps = shape.steps;
  if (!steps) return null;
  // Each stretch but the last as its size and rate, the last as its rate: "about 0.90 GB at
  // 740 MB/s, then 1.15 GB at 460 MB/s, then 150 MB/s".
  const stretches = steps.map((s, k) =>
    k + 1 < steps.length
      ? `${formatBytes(steps[k + 1]!.startBytes - s.startBytes)} at ${formatRate(s.rate)}`
      : formatRate(s.rate),
  );
  return {
    atBytes: steps[1]!.startBytes,
    atSeconds: steps[1]!.startSeconds,
    beforeRate: steps[0]!.rate,
    afterRate: steps[1]!.rate,
    confidence: Math.min(...steps.slice(1).map((s) => s.confidence)),
    steps: steps.map((s) => ({ atBytes: s.startBytes, atSeconds: s.startSeconds, rate: s.rate })),
    measured: `about ${stretches.join(', then ')}`,
  };
}

/** The phase's drop from its per-file rates (results without samples). */
function fileDrop(files: SeriesColumns): PhaseDrop | null {
  const cliff = cacheCliffOf(files);
  if (!cliff) return null;
  return {
    atBytes: cliff.atBytes,
    atSeconds: cliff.atSeconds,
    beforeRate: cliff.beforeRate,
    afterRate: cliff.afterRate,
    confidence: cliff.confidence,
    measured: `fell from ${formatRate(cliff.beforeRate)} to ${formatRate(cliff.afterRate)} after ${formatBytes(cliff.atBytes)}`,
  };
}

/**
 * The phase's drop: from its samples when there are enough to read (the steps of a rate that only
 * fell, or a repeating slow-down), else from its per-file rates (version 1 results, or a phase of
 * a few short files). One detector for the final analysis, the live cliff and the recovery probe.
 */
export function phaseDrop(
  phase: Phase,
  files: readonly SeriesPoint[] | SeriesColumns,
  samples?: PhaseSamples,
): PhaseDrop | null {
  const fromSamples = samples ? sampledDrop(phase, samples) : undefined;
  if (fromSamples !== undefined) return fromSamples;
  return fileDrop(Array.isArray(files) ? phaseColumns(files) : (files as SeriesColumns));
}

/** Files under this size show rates that mean little on fast SSDs (DESIGN.md); the headline's line. */
export const smallFileBytes = driveRateMinBytes;
/** Size-adjusted spread above which a phase is called unstable. */
const unstableSpread = 0.5;

/** The files with a temperature, as dropCause reads them (a million rows have none). */
function heatedFiles(files: PhaseColumns, rates: Float64Array) {
  const { temperatureC, t } = files;
  if (!temperatureC) return [];
  const heated: { temperatureC: number; rate: number; t: number | null }[] = [];
  temperatureC.forEach((temperature, i) => {
    if (Number.isNaN(temperature)) return;
    heated.push({
      temperatureC: temperature,
      rate: rates[i]!,
      t: Number.isNaN(t[i]) ? null : t[i]!,
    });
  });
  return heated;
}

function phaseFindings(phase: Phase, files: PhaseColumns, input: FindingsOptions): Finding[] {
  const found: Finding[] = [];
  const rated = ratedRows(files);
  const rates = columnRates(rated);
  if (rates.length === 0) return found;

  const drop = phaseDrop(phase, rated, input.samples?.[phase]);
  if (drop) {
    const verdict = dropCause({
      phase,
      atBytes: drop.atBytes,
      atSeconds: drop.atSeconds,
      files: heatedFiles(rated, rates),
      earlier: input.earlierDrops?.[phase],
      recoverySeconds: phase === 'write' ? input.recoverySeconds : undefined,
      repeating: drop.repeating,
    });
    // A repeating slow-down is throttling whatever its cause; a single drop is named by its cause.
    const kind = drop.repeating || verdict.cause === 'thermal' ? 'throttling' : 'cliff';
    found.push({
      kind,
      phase,
      atBytes: drop.atBytes,
      atSeconds: drop.atSeconds,
      beforeRate: drop.beforeRate,
      afterRate: drop.afterRate,
      confidence: drop.confidence,
      cause: verdict.cause,
      reason: verdict.reason,
      recoverySeconds: phase === 'write' ? (input.recoverySeconds ?? null) : null,
      ...(drop.steps ? { steps: drop.steps } : {}),
      ...(drop.repeating ? { repeating: drop.repeating } : {}),
      message: dropSentence(phase, drop, verdict.cause),
    });
  }

  const ceiling = ceilingToCheck(input.ceiling);
  const above = rates.filter((rate) => rate > ceiling.bytesPerSecond);
  if (above.length > 0) {
    const maxRate = above.reduce((most, rate) => Math.max(most, rate), 0);
    const what = `${filesCounted(above.length, phase)} went faster than`;
    found.push({
      kind: 'exceeds-interface',
      phase,
      interface: ceiling.id,
      ceilingRate: ceiling.bytesPerSecond,
      count: above.length,
      maxRate,
      message:
        ceiling === anySsdCeiling
          ? `${what} any SSD Plumb knows of (the fastest reaches ${formatRate(ceiling.bytesPerSecond)}; these up to ${formatRate(maxRate)}): they were served from memory or a cache, not ${phase === 'write' ? 'written to' : 'read from'} the drive.`
          : `${what} ${ceiling.label} can carry (${formatRate(ceiling.bytesPerSecond)}; up to ${formatRate(maxRate)}): they were served from a cache, not the drive.`,
    });
  }

  // Two groups of speed that file size does not explain (small files are slower by nature).
  const fit = theilSenOf(rated.bytes, rated.seconds);
  const ratios = sizeAdjustedRatiosOf(rated, fit);
  const hasRatio = (i: number) => !Number.isNaN(ratios[i]);
  const keptRates = selectValues(rates, hasRatio);
  const logRatios = selectValues(ratios, hasRatio).map(Math.log);
  const modes = twoModes(logRatios);
  const bimodal = isBimodal(modes);
  if (modes && bimodal) {
    const split = (modes.low.center + modes.high.center) / 2;
    // A low time ratio is the fast group.
    const isFast = (i: number) => logRatios[i]! <= split;
    const fast = selectValues(keptRates, isFast);
    const slow = selectValues(keptRates, (i) => !isFast(i));
    const fastRate = median(fast as unknown as number[]);
    const slowRate = median(slow as unknown as number[]);
    const ends = selectValues(rated.cumulativeBytes, hasRatio);
    const sizes = selectValues(rated.bytes, hasRatio);
    const starts = ends.map((end, i) => end - sizes[i]!);
    found.push({
      kind: 'bimodal',
      phase,
      modes: [
        { rate: fastRate, count: fast.length },
        { rate: slowRate, count: slow.length },
      ],
      ashmansD: modes.ashmansD,
      message: `${phaseWord[phase]} rates fall into two groups, ${fast.length} files near ${formatRate(fastRate)} and ${slow.length} near ${formatRate(slowRate)}, ${groupsCause(drop, isFast, starts, ends)}: an average of them describes neither.`,
    });
  }

  const small = files.bytes.filter((bytes) => bytes < smallFileBytes).length;
  if (small > 0) {
    found.push({
      kind: 'small-files',
      phase,
      count: small,
      thresholdBytes: smallFileBytes,
      message: `${filesCounted(small, phase)} ${small === 1 ? 'is' : 'are'} under ${formatBytes(smallFileBytes)}: their rates are dominated by fixed costs and caches, not the drive's speed.`,
    });
  }

  if (!drop && !bimodal) {
    const spread = sizeAdjustedSpreadOf(rated, fit);
    if (spread !== null && spread > unstableSpread) {
      found.push({
        kind: 'unstable',
        phase,
        spread,
        message: `${phaseWord[phase]} times vary widely for files of similar size (the middle 60 % span ${(spread * 100).toFixed(0)} % of the expected time): treat the figures as rough.`,
      });
    }
  }
  return found;
}

/**
 * Every finding for a run: per phase a cache cliff or thermal throttling, rates above the
 * interface ceiling, bimodal rates, small files and unexplained spread; and once for the run,
 * that the OS cache could not be bypassed.
 */
export function findings(input: FindingsInput): Finding[] {
  const phases = {
    write: phaseColumns(input.files.filter((f) => f.phase === 'write')),
    read: phaseColumns(input.files.filter((f) => f.phase === 'read')),
  };
  return findingsOfPhases(phases, input);
}

/** findings for the files of each phase held as columns. */
export function findingsOfPhases(
  phases: Record<Phase, PhaseColumns>,
  input: FindingsOptions,
): Finding[] {
  const all: Finding[] = [];
  if (input.cacheMode === 'buffered') {
    all.push({
      kind: 'buffered',
      phase: null,
      message:
        'Direct (uncached) I/O was not available, so files went through the OS cache with flushes and drop-cache hints: rates may be higher than the drive delivers.',
    });
  }
  for (const phase of ['write', 'read'] as const)
    all.push(...phaseFindings(phase, phases[phase], input));
  return all;
}
