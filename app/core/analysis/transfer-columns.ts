/**
 * A phase's files held as columns: file i is bytes[i], seconds[i]… A million files as one object
 * each were a hundred MB and more of heap, and every filter and map of them as much again in
 * garbage; as columns they are 8 bytes a figure, and a selection is one copy of the figures kept.
 */
import { transferRate, type Transfer } from './transfer-rate.js';

/** One file of a phase, in the order it was transferred. */
export interface SeriesPoint {
  bytes: number;
  seconds: number;
  /** Bytes of the phase transferred so far, including this file. */
  cumulativeBytes: number;
  /** Seconds since the phase started, at the end of this file (optional). */
  t?: number | null;
}

export interface TransferColumns {
  bytes: Float64Array;
  seconds: Float64Array;
}

export interface SeriesColumns extends TransferColumns {
  /** Bytes of the phase transferred so far, including this file. */
  cumulativeBytes: Float64Array;
  /** Seconds since the phase started, at the end of this file; NaN where it is not known. */
  t: Float64Array;
}

/** A phase's files as findings read them: a series, maybe with temperatures (NaN: none). */
export interface PhaseColumns extends SeriesColumns {
  temperatureC?: Float64Array;
}

export function transferColumns(transfers: readonly Transfer[]): TransferColumns {
  return {
    bytes: Float64Array.from(transfers, (f) => f.bytes),
    seconds: Float64Array.from(transfers, (f) => f.seconds),
  };
}

export function phaseColumns(
  points: readonly (SeriesPoint & { temperatureC?: number | null })[],
): PhaseColumns {
  const hot = points.some((p) => typeof p.temperatureC === 'number');
  return {
    ...transferColumns(points),
    cumulativeBytes: Float64Array.from(points, (p) => p.cumulativeBytes),
    t: Float64Array.from(points, (p) => (typeof p.t === 'number' ? p.t : Number.NaN)),
    ...(hot
      ? {
          temperatureC: Float64Array.from(points, (p) =>
            typeof p.temperatureC === 'number' ? p.temperatureC : Number.NaN,
          ),
        }
      : {}),
  };
}

/** The rows for which `keep(i)` holds, in order: the same columns when every row is kept. */
export function selectRows<C extends object>(columns: C, keep: (i: number) => boolean): C {
  const first = Object.values(columns).find((c) => c instanceof Float64Array) as
    Float64Array | undefined;
  const n = first?.length ?? 0;
  const kept = new Uint32Array(n);
  let count = 0;
  for (let i = 0; i < n; i += 1) if (keep(i)) kept[count++] = i;
  if (count === n) return columns;
  const picked: Record<string, unknown> = {};
  for (const [name, column] of Object.entries(columns)) {
    if (!(column instanceof Float64Array)) {
      picked[name] = column;
      continue;
    }
    const out = new Float64Array(count);
    for (let k = 0; k < count; k += 1) out[k] = column[kept[k]!]!;
    picked[name] = out;
  }
  return picked as C;
}

/** The rows that have a rate (transferRate), in order. */
export function ratedRows<C extends TransferColumns>(files: C): C {
  return selectRows(files, (i) => transferRate(files.bytes[i]!, files.seconds[i]!) !== null);
}

/** The rate of each row, bytes ÷ seconds. */
export function columnRates({ bytes, seconds }: TransferColumns): Float64Array {
  const rates = new Float64Array(bytes.length);
  for (let i = 0; i < bytes.length; i += 1) rates[i] = bytes[i]! / seconds[i]!;
  return rates;
}

/** The values for which `keep(i)` holds, in order. */
export function selectValues(values: Float64Array, keep: (i: number) => boolean): Float64Array {
  const out = new Float64Array(values.length);
  let count = 0;
  for (let i = 0; i < values.length; i += 1) if (keep(i)) out[count++] = values[i]!;
  return out.slice(0, count);
}
