/**
 * A write phase as a result records it, on a model drive: files written one after another (their
 * sizes from `fileBytes`), sampled every 4 MB, each interval timed at the drive's rate after the
 * bytes written so far, with ±`noise` on its time, and a 10 ms gap to open each next file. For
 * view tests that need a drawn rate curve of a known shape (the sustained plan's own, with its
 * noise, stalls and throttles, is tests/helpers/synthetic-samples.ts).
 */
import type { FileRecord } from '../../app/contract/bench-result.js';

const MB = 1e6;
const stepBytes = 4 * MB;

export interface ModelWritePhase {
  files: FileRecord[];
  samples: { t: number[]; bytes: number[]; file: number[] };
}

export function modelWritePhase(options: {
  totalBytes: number;
  /** The drive's rate (bytes/s) after `bytes` written. */
  rate: (bytes: number) => number;
  random: () => number;
  fileBytes: () => number;
  noise?: number;
}): ModelWritePhase {
  const { totalBytes, rate, random, fileBytes, noise = 0.05 } = options;
  const samples = { t: [0], bytes: [0], file: [0] };
  const files: FileRecord[] = [];
  let t = 0;
  let bytes = 0;
  for (let index = 0; bytes < totalBytes; index += 1) {
    const start = { t, bytes };
    if (index > 0) {
      t += 0.01; // open the next file: a gap, not transfer time
      samples.t.push(t);
      samples.bytes.push(bytes);
      samples.file.push(index);
    }
    const end = Math.min(totalBytes, bytes + fileBytes());
    while (bytes < end) {
      const step = Math.min(stepBytes, end - bytes);
      t += (step / rate(bytes)) * (1 + noise * (2 * random() - 1));
      bytes += step;
      samples.t.push(t);
      samples.bytes.push(bytes);
      samples.file.push(index);
    }
    files.push({
      phase: 'write',
      bytes: bytes - start.bytes,
      seconds: t - start.t,
      cumulativeBytes: bytes,
      t,
      temperatureC: null,
    });
  }
  return { files, samples };
}
