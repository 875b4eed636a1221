/**
 * Progress samples of one phase, in columns: at elapsed `t[i]` seconds since the phase started,
 * `bytes[i]` bytes of the phase had been transferred. Both columns never decrease.
 *
 * Files are written one after another, and between two files the drive is not being timed (the
 * next file is opened, the last one closed and flushed; in a recovery phase the drive idles between
 * probes). `file[i]` says which file of the phase sample i was taken in (its index in the phase's
 * per-file records); the stretch between the last sample of one file and the first of the next is a
 * gap: its time is not transfer time, so it counts for no rate. A per-sample file index rather than
 * a gap mask, because it is what the sampler knows without judging, it ties each sample to its
 * per-file record (and so to that file's temperature reading), and a gap is then simply a change of
 * index. Without `file`, every stretch between samples is taken as transfer.
 */
export interface PhaseSamples {
  t: ArrayLike<number>;
  bytes: ArrayLike<number>;
  file?: ArrayLike<number>;
}

/**
 * The stretches between consecutive samples of the same file: what every rate is made of.
 * Columns of equal length; `start*` are the cumulative bytes and elapsed seconds where each began.
 */
export interface SampleIntervals {
  startBytes: Float64Array;
  startSeconds: Float64Array;
  bytes: Float64Array;
  seconds: Float64Array;
  /**
   * 1 where an interval is its file's last (its write's flush is timed with it: the engine ends
   * a file's samples after the flush), and for the phase's last interval.
   */
  endsFile: Uint8Array;
  /** Bytes of the phase in all (the last sample's cumulative bytes). */
  totalBytes: number;
  count: number;
}

/**
 * The intervals of `samples` between two samples of the same file. One with time and no bytes
 * (the drive held a write a while) is transfer time and stays; one with bytes and no time (two
 * chunks within the clock's 0.1 ms) adds its bytes to the interval before it in the same file,
 * else to the next. Throws a RangeError naming the first bad sample when the columns differ in
 * length or go back.
 */
export function sampleIntervals(samples: PhaseSamples): SampleIntervals {
  const { t, bytes, file } = samples;
  const n = t.length;
  if (bytes.length !== n || (file && file.length !== n))
    throw new RangeError(
      `samples have ${n} times but ${bytes.length} byte counts${file ? ` and ${file.length} file indexes` : ''}: give one of each per sample`,
    );
  const size = Math.max(0, n - 1);
  const startBytes = new Float64Array(size);
  const startSeconds = new Float64Array(size);
  const moved = new Float64Array(size);
  const seconds = new Float64Array(size);
  const endsFile = new Uint8Array(size);
  let count = 0;
  let carried = 0; // bytes of instant intervals waiting for the next interval of their file
  let lastEnd = -1; // the sample the last interval ended at
  for (let i = 1; i < n; i += 1) {
    const dt = t[i]! - t[i - 1]!;
    const db = bytes[i]! - bytes[i - 1]!;
    if (!(dt >= 0) || !(db >= 0))
      throw new RangeError(
        `sample ${i} goes back (t ${t[i - 1]} → ${t[i]} s, bytes ${bytes[i - 1]} → ${bytes[i]}): samples must be in order, elapsed seconds and cumulative bytes never decreasing`,
      );
    if (file && file[i] !== file[i - 1]) {
      if (count > 0) endsFile[count - 1] = 1;
      carried = 0;
      continue;
    }
    if (dt === 0) {
      if (lastEnd === i - 1) {
        moved[count - 1] = moved[count - 1]! + db;
        lastEnd = i;
      } else carried += db;
      continue;
    }
    startBytes[count] = bytes[i - 1]! - carried;
    startSeconds[count] = t[i - 1]!;
    moved[count] = db + carried;
    seconds[count] = dt;
    carried = 0;
    count += 1;
    lastEnd = i;
  }
  if (count > 0) endsFile[count - 1] = 1;
  return {
    startBytes: startBytes.subarray(0, count),
    startSeconds: startSeconds.subarray(0, count),
    bytes: moved.subarray(0, count),
    seconds: seconds.subarray(0, count),
    endsFile: endsFile.subarray(0, count),
    totalBytes: n > 0 ? bytes[n - 1]! : 0,
    count,
  };
}
