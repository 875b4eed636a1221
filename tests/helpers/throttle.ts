/**
 * A slow disk with a cliff, for the sustained-run test: the kernel's block throttle (cgroup v1
 * blkio, or cgroup v2 io.max) caps what one process may write to a device, and a controller
 * lowers the cap once the device has taken N bytes (read from /sys/block/DEV/stat, field 7 =
 * sectors written). Direct writes are throttled by the kernel, so the benchmark sees a real cliff.
 * Needs root. `throttleSkipReason()` says why a test must skip; undefined where it can run.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { cgroupFlavour, cgroupRoot, runPlumbInCgroup } from './cgroup.js';
import { mountLoopFs, type MountedFs } from './loopfs.js';

const v1Root = path.join(cgroupRoot, 'blkio');
const v2Root = cgroupRoot;

const flavour = () => cgroupFlavour('blkio/blkio.throttle.write_bps_device', 'io');

export function throttleSkipReason(): string | undefined {
  if (process.platform !== 'linux') return 'block throttling is a Linux cgroup facility';
  if (process.getuid?.() !== 0)
    return 'changing cgroup block throttles needs root (CI runs as root)';
  if (!flavour()) return 'neither cgroup v1 blkio nor a cgroup v2 io controller is available';
  return undefined;
}

export interface WriteThrottle {
  /** Write a pid here to put that process under the throttle. */
  procsFile: string;
  /** Bytes written to the device since the throttle was made. */
  bytesWritten(): number;
  setWriteBytesPerSecond(bytesPerSecond: number): void;
  /**
   * Every write cap set so far, in order, each with the bytes the device had written when it was
   * set: the cap over any stretch of the run, dips included.
   */
  writeCaps(): readonly { bytes: number; rate: number }[];
  /** Caps reads from the device too (the cap applies to reads the process itself issues). */
  setReadBytesPerSecond(bytesPerSecond: number): void;
  /** Lowers the cap to `slow` once `afterBytes` were written; resolves the bytes seen then. */
  lowerAfter(
    afterBytes: number,
    slow: number,
    pollMs?: number,
  ): { done: Promise<number>; stop(): void };
  /**
   * A drive that cannot hold its rate steadily: until `untilBytes` were written, the cap drops
   * to `low()` for `length()` seconds, then goes back to `high` for `gap(length)`, over and over.
   * Set no other cap meanwhile; resolves the number of dips once `untilBytes` were written.
   */
  dipUntil(
    untilBytes: number,
    high: number,
    low: () => number,
    length: () => number,
    gap: (length: number) => number,
  ): { done: Promise<number>; stop(): void };
  /**
   * An SLC cache that empties while the drive rests: once no write has reached the device for
   * `quietSeconds` (the heavy writing is over), raises the cap to `fast` `recoverySeconds` after
   * the last write. Writes in between (probes) do not delay it. Resolves the seconds from the
   * last write to the raise, as measured.
   */
  raiseAfterIdle(
    quietSeconds: number,
    recoverySeconds: number,
    fast: number,
    pollMs?: number,
  ): { done: Promise<number>; stop(): void };
  remove(): void;
}

/** Runs the built CLI inside the throttle's cgroup; resolves with its exit code and output. */
export function runPlumbThrottled(
  throttle: WriteThrottle,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return runPlumbInCgroup(throttle.procsFile, args, env);
}

/** Sectors the device has written (field 7 of /sys/block/NAME/stat, 512-byte units). */
function sectorsWritten(name: string): number {
  const fields = readFileSync(`/sys/block/${name}/stat`, 'utf8').trim().split(/\s+/);
  return Number(fields[6]);
}

/** A cgroup that caps writes to `device` (e.g. /dev/loop3) at `bytesPerSecond`. */
export function createWriteThrottle(device: string, bytesPerSecond: number): WriteThrottle {
  const kind = flavour();
  if (!kind) throw new Error(`cannot throttle: ${throttleSkipReason()}`);
  const name = path.basename(device);
  const majorMinor = readFileSync(`/sys/block/${name}/dev`, 'utf8').trim();
  const dir = path.join(kind === 'v1' ? v1Root : v2Root, `plumb-throttle-${process.pid}-${name}`);
  mkdirSync(dir);
  if (kind === 'v2') {
    // The io controller must be enabled for children of the root.
    writeFileSync(path.join(v2Root, 'cgroup.subtree_control'), '+io');
  }
  const limit = (direction: 'read' | 'write', bps: number) => {
    if (kind === 'v1')
      writeFileSync(
        path.join(dir, `blkio.throttle.${direction}_bps_device`),
        `${majorMinor} ${Math.round(bps)}`,
      );
    else
      writeFileSync(
        path.join(dir, 'io.max'),
        `${majorMinor} ${direction === 'read' ? 'r' : 'w'}bps=${Math.round(bps)}`,
      );
  };
  const baseline = sectorsWritten(name);
  const bytesWritten = () => (sectorsWritten(name) - baseline) * 512;
  const caps: { bytes: number; rate: number }[] = [];
  const set = (bps: number) => {
    limit('write', bps);
    caps.push({ bytes: bytesWritten(), rate: bps });
  };
  set(bytesPerSecond);
  return {
    procsFile: path.join(dir, 'cgroup.procs'),
    bytesWritten,
    setWriteBytesPerSecond: set,
    writeCaps: () => caps,
    setReadBytesPerSecond: (bps) => limit('read', bps),
    lowerAfter(afterBytes, slow, pollMs = 5) {
      let timer: NodeJS.Timeout | undefined;
      const done = new Promise<number>((resolve) => {
        timer = setInterval(() => {
          const seen = bytesWritten();
          if (seen >= afterBytes) {
            set(slow);
            clearInterval(timer);
            resolve(seen);
          }
        }, pollMs);
      });
      return { done, stop: () => clearInterval(timer) };
    },
    dipUntil(untilBytes, high, low, length, gap) {
      let timer: NodeJS.Timeout | undefined;
      let stopped = false;
      const done = new Promise<number>((resolve) => {
        let dips = 0;
        const next = (dipping: boolean, seconds: number) => {
          timer = setTimeout(() => {
            if (stopped) return;
            if (bytesWritten() >= untilBytes) {
              if (dipping) set(high);
              resolve(dips);
              return;
            }
            if (dipping) {
              // The dip is over: back to the drive's own rate until the next one.
              set(high);
              return next(false, gap(seconds));
            }
            const dip = length();
            dips += 1;
            set(low());
            next(true, dip);
          }, seconds * 1000);
        };
        next(false, gap(length()));
      });
      return {
        done,
        stop: () => {
          stopped = true;
          clearTimeout(timer);
        },
      };
    },
    raiseAfterIdle(quietSeconds, recoverySeconds, fast, pollMs = 20) {
      let timer: NodeJS.Timeout | undefined;
      const done = new Promise<number>((resolve) => {
        let seen = bytesWritten();
        let lastWrite = performance.now();
        let quietFrom: number | null = null;
        timer = setInterval(() => {
          const now = performance.now();
          const bytes = bytesWritten();
          if (quietFrom === null) {
            if (bytes !== seen) {
              seen = bytes;
              lastWrite = now;
            } else if (now - lastWrite >= quietSeconds * 1000) quietFrom = lastWrite;
          }
          if (quietFrom !== null && now - quietFrom >= recoverySeconds * 1000) {
            set(fast);
            clearInterval(timer);
            resolve((now - quietFrom) / 1000);
          }
        }, pollMs);
      });
      return { done, stop: () => clearInterval(timer) };
    },
    remove() {
      // Processes still inside keep the cgroup busy; they have exited by the time tests call this.
      try {
        rmdirSync(dir);
      } catch {
        // already gone
      }
    },
  };
}

/**
 * What the disk under `dir` writes when nothing caps it, bytes/s: the slower of two writes of
 * `bytes` of zeros, each with O_DIRECT and synced by dd from this (unthrottled) process, then
 * removed. A test that caps a loop disk at a real drive's rates needs a disk that goes faster than
 * the cap: where it does not, the cap is not what the benchmark sees. This VM's loop disks write
 * 550–970 MB/s from one minute to the next, and the CI machine's gave 553 MB/s under a cap of 700
 * on 2026-12-01.
 */
export function uncappedWriteRate(dir: string, bytes = 1e9): number {
  const chunk = 4 * 2 ** 20;
  const count = Math.max(1, Math.round(bytes / chunk));
  const rates = [0, 1].map((k) => {
    const file = path.join(dir, `uncapped-rate-${k}.tmp`);
    const started = performance.now();
    const dd = spawnSync(
      'dd',
      ['if=/dev/zero', `of=${file}`, `bs=${chunk}`, `count=${count}`, 'oflag=direct', 'conv=fsync'],
      { encoding: 'utf8' },
    );
    const seconds = (performance.now() - started) / 1000;
    rmSync(file, { force: true });
    if (dd.status !== 0) throw new Error(`dd could not time the disk under ${dir}: ${dd.stderr}`);
    return (count * chunk) / seconds;
  });
  return Math.min(...rates);
}

/**
 * The factor (at most 1) that keeps a test's fastest cap at `headroom` of what the disk writes
 * uncapped, so every cap is what the benchmark sees; with a line saying so when it is below 1.
 * A test scales all its rates by it, evenly, and its sizes not at all. 0.6: in the CI runs of
 * 2026-12-02 the disk dipped to about two thirds of its rate for seconds at a time (553 MB/s on
 * average under a 700 cap, 372 under 432).
 */
export function capScale(
  fastest: number,
  diskRate: number,
  headroom = 0.6,
): { factor: number; note: string } {
  const factor = Math.min(1, (headroom * diskRate) / fastest);
  const disk = `this machine's disk writes ${(diskRate / 1e6).toFixed(0)} MB/s uncapped`;
  return {
    factor,
    note:
      factor < 1
        ? `${disk}, under ${(fastest / headroom / 1e6).toFixed(0)} MB/s: every rate scaled by ${factor.toFixed(2)}, so the caps are what the benchmark sees`
        : `${disk}: the rates as drawn`,
  };
}

/** mkfs.ext4 options for a device only the benchmark writes to: no journal, no lazy initialisation. */
export const quietExt4Options = [
  '-O',
  '^has_journal',
  '-E',
  'lazy_itable_init=0,lazy_journal_init=0',
];

/**
 * A quiet ext4 loop disk with direct I/O to its image, its writes capped at `bytesPerSecond`.
 * With `fitToDisk`, the disk's uncapped rate is taken first (before the throttle counts bytes) and
 * the cap scaled by `capScale`: `scale` says by how much, for the caller's other rates.
 */
export function mountThrottledDisk(
  sizeBytes: number,
  bytesPerSecond: number,
  options: { fitToDisk?: boolean } = {},
): { fs: MountedFs; throttle: WriteThrottle; scale: ReturnType<typeof capScale>; remove(): void } {
  const fs = mountLoopFs('ext4', { sizeBytes, directIo: true, mkfsArgs: quietExt4Options });
  let throttle: WriteThrottle;
  let scale = capScale(bytesPerSecond, Infinity);
  try {
    if (options.fitToDisk) scale = capScale(bytesPerSecond, uncappedWriteRate(fs.dir));
    throttle = createWriteThrottle(fs.device!, bytesPerSecond * scale.factor);
  } catch (error) {
    fs.unmount();
    throw error;
  }
  return {
    fs,
    throttle,
    scale,
    remove() {
      throttle.remove();
      fs.unmount();
    },
  };
}
