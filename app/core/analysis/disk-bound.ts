import { formatRate } from '../../common/format.js';

export interface TaskRates {
  /** The task's rate from and to the target, input bytes/s. */
  diskRate: number;
  /** The same task from and to memory: what the CPU alone allows, input bytes/s. */
  memoryRate: number;
  /** Compressed bytes ÷ input bytes. */
  compressionRatio: number;
  /** The target's own uncached read and write rates, bytes/s (null when not measured). */
  readRate: number | null;
  writeRate: number | null;
}

export type TaskVerdict = 'disk-bound' | 'partly-disk-bound' | 'cpu-bound';

export interface DiskBoundVerdict {
  verdict: TaskVerdict;
  /** 1 − diskRate ÷ memoryRate, at least 0: the share of the CPU-bound speed the disk cost. */
  slowdown: number;
  limitedBy: 'read' | 'write' | null;
  message: string;
}

/** Up to this slowdown the disk costs little: timings of a CPU-heavy task vary that much anyway. */
export const cpuBoundSlowdown = 0.15;
/** From this slowdown on the disk sets the pace. */
export const diskBoundSlowdown = 0.3;
/** A direction is named as the limit when the CPU-bound rate would need this share of it. */
const nearLimit = 0.8;

/**
 * Is a task disk-bound on this volume? Seed 002's method: time the real task on the disk and the
 * same task where the disk plays no part (memory); a disk that costs more than `diskBoundSlowdown`
 * of the speed sets the pace. Disk benchmarks alone cannot predict it (seed 002), so they only
 * name which direction is the likelier limit: the one whose measured rate the CPU-bound task
 * would need most of (reads at memoryRate, writes at memoryRate × compressionRatio).
 */
export function diskBound(rates: TaskRates): DiskBoundVerdict {
  const slowdown =
    rates.memoryRate > 0 ? Math.min(1, Math.max(0, 1 - rates.diskRate / rates.memoryRate)) : 0;
  const verdict: TaskVerdict =
    slowdown >= diskBoundSlowdown
      ? 'disk-bound'
      : slowdown > cpuBoundSlowdown
        ? 'partly-disk-bound'
        : 'cpu-bound';
  const need = {
    read: rates.readRate ? rates.memoryRate / rates.readRate : 0,
    write: rates.writeRate ? (rates.memoryRate * rates.compressionRatio) / rates.writeRate : 0,
  };
  const likelier = need.read >= need.write ? 'read' : 'write';
  const limitedBy = verdict !== 'cpu-bound' && need[likelier] >= nearLimit ? likelier : null;

  const pace = `The task ran at ${formatRate(rates.diskRate)} on this volume and ${formatRate(rates.memoryRate)} in memory`;
  let message: string;
  if (verdict === 'cpu-bound')
    message = `${pace}: it is CPU-bound here; a faster disk would not speed it up.`;
  else {
    const share = `${Math.round(slowdown * 100)} %`;
    const which =
      limitedBy === 'read'
        ? ` Reading is the likelier limit: the CPU could take ${formatRate(rates.memoryRate)} but the disk reads at ${formatRate(rates.readRate!)}.`
        : limitedBy === 'write'
          ? ` Writing is the likelier limit: the CPU could produce ${formatRate(rates.memoryRate * rates.compressionRatio)} of output but the disk writes at ${formatRate(rates.writeRate!)}.`
          : '';
    message =
      verdict === 'disk-bound'
        ? `${pace}: it is disk-bound here; the disk cost ${share} of the speed.${which}`
        : `${pace}: the disk cost ${share} of the speed, so it is partly disk-bound here.${which}`;
  }
  return { verdict, slowdown, limitedBy, message };
}
