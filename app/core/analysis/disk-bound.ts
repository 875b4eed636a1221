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
  /**
   * The share of the time the disk would be busy at the CPU-bound pace: reading the input at
   * memoryRate plus writing the output at memoryRate × compressionRatio, one after the other (an
   * upper bound). Null when the disk's rates were not measured.
   */
  diskLoad: number | null;
  /** The resource that limits the task: the processor, or the disk (reading or writing). */
  limit: 'cpu' | 'disk' | 'read' | 'write';
  message: string;
}

/** Up to this slowdown the disk costs little: timings of a CPU-heavy task vary that much anyway. */
const cpuBoundSlowdown = 0.15;
/** From this slowdown on the disk sets the pace. */
const diskBoundSlowdown = 0.3;
/** A direction is named as the limit when the CPU-bound rate would need this share of it. */
const nearLimit = 0.8;
/**
 * At most this disk load at the CPU-bound pace, the processor limits the task whatever the disk
 * run's slowdown: the disk idles half the time or more, so a faster disk has nothing to speed up,
 * and a small slowdown on the disk is the processor time its own I/O takes, or timing noise.
 */
const cpuBoundDiskLoad = 0.5;

const times = (factor: number) => `${factor >= 10 ? factor.toFixed(0) : factor.toFixed(1)}×`;

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
  const need = {
    read: rates.readRate ? rates.memoryRate / rates.readRate : 0,
    write: rates.writeRate ? (rates.memoryRate * rates.compressionRatio) / rates.writeRate : 0,
  };
  const diskLoad = rates.readRate && rates.writeRate ? need.read + need.write : null;
  const idleDisk = diskLoad !== null && diskLoad <= cpuBoundDiskLoad;
  const verdict: TaskVerdict = idleDisk
    ? 'cpu-bound'
    : slowdown >= diskBoundSlowdown
      ? 'disk-bound'
      : slowdown > cpuBoundSlowdown
        ? 'partly-disk-bound'
        : 'cpu-bound';
  const likelier = need.read >= need.write ? 'read' : 'write';
  const limitedBy = verdict !== 'cpu-bound' && need[likelier] >= nearLimit ? likelier : null;
  const limit = verdict === 'cpu-bound' ? 'cpu' : (limitedBy ?? 'disk');

  const pace = `The task ran at ${formatRate(rates.diskRate)} on this volume and ${formatRate(rates.memoryRate)} in memory`;
  const share = `${Math.round(slowdown * 100)} %`;
  let message: string;
  if (idleDisk) {
    const slower =
      slowdown > cpuBoundSlowdown
        ? ` The disk run's ${share} slower pace is not the disk's limit: its own I/O takes processor time too.`
        : '';
    message =
      `${pace}: the processor limits it. At ${formatRate(rates.memoryRate)} the disk would be busy ` +
      `${Math.round(diskLoad! * 100)} % of the time (it reads at ${formatRate(rates.readRate!)} and ` +
      `writes at ${formatRate(rates.writeRate!)}), so it could keep up with a processor ` +
      `${times(1 / diskLoad!)} as fast; a faster disk would not speed it up.${slower}`;
  } else if (verdict === 'cpu-bound')
    message = `${pace}: it is CPU-bound here; a faster disk would not speed it up.`;
  else {
    const which =
      limitedBy === 'read'
        ? ` Reading is the likelier limit: the CPU could take ${formatRate(rates.memoryRate)} but the disk reads at ${formatRate(rates.readRate!)} (the processor could go ${times(need.read)} as fast).`
        : limitedBy === 'write'
          ? ` Writing is the likelier limit: the CPU could produce ${formatRate(rates.memoryRate * rates.compressionRatio)} of output but the disk writes at ${formatRate(rates.writeRate!)} (the processor could go ${times(need.write)} as fast).`
          : '';
    message =
      verdict === 'disk-bound'
        ? `${pace}: it is disk-bound here; the disk cost ${share} of the speed.${which}`
        : `${pace}: the disk cost ${share} of the speed, so it is partly disk-bound here.${which}`;
  }
  return { verdict, slowdown, limitedBy, diskLoad, limit, message };
}
