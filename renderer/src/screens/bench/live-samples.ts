/**
 * The live rate-against-bytes curve of a phase, from the run's progress samples and finished files,
 * windowed by the one rule of app/common/sample-rates.ts (the saved result is drawn by it too) and held in typed columns
 * that grow by doubling, so a million samples cost memory once and a redraw only a decimation.
 *
 * Where the samples sit: a `sample` event gives the run's bytes so far and the file's own bytes ÷
 * seconds (timed by the native transfer), so its place inside the file is exact: bytes of the file =
 * run bytes − bytes of finished files, seconds into the file = those bytes ÷ the file's rate. Each
 * file starts at (its phase bytes before it, the end of the file before it) and ends at (its
 * cumulative bytes, start + its seconds), so a file too short to report progress still adds its
 * own rate. Stretches between files are gaps (a new file index): never transfer time.
 */
import type { FileRecord } from '../../../../app/contract/bench-result.js';
import { GrowingDecimation } from '../../../../app/common/decimate.js';
import { SampleRateCurve } from '../../../../app/common/sample-rates.js';
import type { Point } from '../../ui/result/series.js';

export type Direction = 'write' | 'read';

export class LivePhaseSamples {
  readonly curve = new SampleRateCurve();
  /** Files of the phase finished; the index of the file being transferred. */
  private fileIndex = 0;
  private fileStartBytes = 0;
  private fileStartSeconds = 0;
  private fileStarted = false;
  /** Paired runs move two targets' files at once: their samples cannot be placed. */
  private mixed = false;
  /** Bytes and transfer seconds of the finished files: the phase's rate when it is over. */
  filesBytes = 0;
  filesSeconds = 0;
  /** Bytes of the phase so far (finished files and the one going on). */
  bytesSoFar = 0;

  /** Rate points so far (one per interval between two samples of a file). */
  get points(): number {
    return this.curve.length;
  }

  /** A progress sample inside the file being transferred: its bytes so far and its rate so far. */
  sample(fileBytes: number, fileRate: number | null): void {
    if (this.mixed || !(fileBytes > 0) || !(fileRate !== null && fileRate > 0)) return;
    this.bytesSoFar = Math.max(this.bytesSoFar, this.fileStartBytes + fileBytes);
    this.startFile();
    this.curve.push(
      this.fileStartSeconds + fileBytes / fileRate,
      this.fileStartBytes + fileBytes,
      this.fileIndex,
    );
  }

  /** A file of this phase finished (from the event, or from a snapshot of the run). */
  fileDone(file: FileRecord): void {
    this.filesBytes += file.bytes;
    this.filesSeconds += file.seconds;
    this.bytesSoFar = Math.max(this.bytesSoFar, this.filesBytes, file.cumulativeBytes);
    if (file.target !== undefined) this.mixed = true;
    if (this.mixed) return;
    this.fileStartBytes = file.cumulativeBytes - file.bytes;
    this.startFile();
    this.curve.push(this.fileStartSeconds + file.seconds, file.cumulativeBytes, this.fileIndex);
    this.fileIndex += 1;
    this.fileStartBytes = file.cumulativeBytes;
    this.fileStartSeconds = Math.max(file.t, this.fileStartSeconds + file.seconds);
    this.fileStarted = false;
  }

  private startFile(): void {
    if (this.fileStarted) return;
    this.fileStarted = true;
    this.curve.push(this.fileStartSeconds, this.fileStartBytes, this.fileIndex);
  }

  /** Bytes ÷ seconds of the finished files, or null before the first. */
  filesRate(): number | null {
    return this.filesSeconds > 0 ? this.filesBytes / this.filesSeconds : null;
  }

  /** The rate over the last window, or null before the first interval. */
  latestRate(): number | null {
    return this.curve.length > 0 ? this.curve.rate[this.curve.length - 1]! : null;
  }

  private decimation: GrowingDecimation | null = null;

  /**
   * At most 2 × `buckets` points of the curve for drawing: every dip and spike still shows. Slices
   * already drawn are kept, so a redraw costs the points added since, not the whole curve.
   */
  drawn(buckets: number): Point[] {
    if (this.decimation?.buckets !== buckets) this.decimation = new GrowingDecimation(buckets);
    const { x, y } = this.decimation.update(
      this.curve.endBytes,
      this.curve.rate,
      this.curve.length,
    );
    const out: Point[] = new Array(x.length);
    for (let i = 0; i < x.length; i += 1) out[i] = { x: x[i]!, y: y[i]! };
    return out;
  }
}
