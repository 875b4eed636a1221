/**
 * Progress of a run on the terminal: a bar with rate and time left when stderr is a TTY, one
 * plain line per file otherwise (logs, CI).
 */
import type { BenchEvent } from '../../contract/bench-events.js';
import { formatBytes, formatDuration, formatRate } from '../../common/format.js';

function clock(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '--:--';
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${rest}` : `${m}:${rest}`;
}

export class ProgressView {
  private phase = '';
  private drawn = false;
  private lastDraw = 0;

  constructor(
    private readonly stream: NodeJS.WritableStream & { isTTY?: boolean; columns?: number },
  ) {}

  private get tty(): boolean {
    return this.stream.isTTY === true;
  }

  /** Erases the bar so normal output can follow. */
  clear(): void {
    if (this.tty && this.drawn) this.stream.write('\r\x1b[2K');
    this.drawn = false;
  }

  private line(text: string): void {
    this.clear();
    this.stream.write(`${text}\n`);
  }

  private bar(event: Extract<BenchEvent, { type: 'sample' }>): void {
    const now = Date.now();
    if (now - this.lastDraw < 100) return;
    this.lastDraw = now;
    const overall = event.seconds > 0 ? event.bytesDone / event.seconds : 0;
    const fraction = event.totalBytes ? Math.min(1, event.bytesDone / event.totalBytes) : null;
    const left =
      fraction !== null && overall > 0 ? (event.totalBytes! - event.bytesDone) / overall : NaN;
    const rate = event.bytesPerSecond === null ? '' : formatRate(event.bytesPerSecond);
    const label = event.run ?? event.phase;
    let text: string;
    if (fraction === null) {
      text = `${label}  ${formatBytes(event.bytesDone)}  ${rate}  ${clock(event.seconds)} elapsed`;
    } else {
      const width = 24;
      const filled = Math.round(fraction * width);
      text = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(fraction * 100).toFixed(0).padStart(3)}%  ${label}  ${rate}  ${clock(left)} left`;
    }
    const columns = this.stream.columns ?? 100;
    this.stream.write(`\r\x1b[2K${text.slice(0, columns - 1)}`);
    this.drawn = true;
  }

  handle(event: BenchEvent): void {
    switch (event.type) {
      case 'plan-started':
        this.line(
          `plumb: ${event.plan} on ${event.target}` +
            (event.bytes ? ` (${event.files ?? '?'} transfers, ${formatBytes(event.bytes)})` : ''),
        );
        break;
      case 'phase-started':
        this.phase = event.phase;
        if (!this.tty) this.line(`${event.phase}:`);
        break;
      case 'sample':
        if (this.tty) this.bar(event);
        break;
      case 'file-done':
        if (!this.tty) {
          const of = event.count === null ? '' : `/${event.count}`;
          const rate = event.rate === null ? '—' : formatRate(event.rate);
          this.line(
            `  ${this.phase} ${event.index + 1}${of}  ${formatBytes(event.file.bytes)} in ${event.file.seconds.toFixed(3)} s  ${rate}`,
          );
        }
        break;
      case 'notice':
        this.line(`plumb: ${event.message}`);
        break;
      case 'wait':
        // Said as a wait: the bar of the writing before it would otherwise stand at 100 %.
        this.line(
          `plumb: resting the disk ${formatDuration(event.seconds)} so its cache can empty, then recovery probe ${event.probe + 1} of at most ${event.maxProbes} (${formatBytes(event.probeBytes)})`,
        );
        break;
      case 'finding':
      case 'finished':
      case 'failed':
      case 'cancelled':
        this.clear();
        break;
    }
  }
}
