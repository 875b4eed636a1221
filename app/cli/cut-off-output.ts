import { Writable } from 'node:stream';

/**
 * Standard output or error whose reader may go away (`plumb bench … | head -1`). A closed stream
 * must not stop the work: the result is still saved, an apply still finishes and cleans up. So a
 * write that fails (EPIPE) marks the output cut off and what follows is dropped, and the command's
 * exit code says so at the end (`cutOff`).
 */
export class CutOffOutput extends Writable {
  readonly isTTY: boolean | undefined;
  private lost = false;

  constructor(private readonly target: NodeJS.WriteStream) {
    super({ decodeStrings: false });
    this.isTTY = target.isTTY;
    // The stream also emits the failure of a write as an error, which must not end the process.
    target.on('error', () => {
      this.lost = true;
    });
  }

  /** The terminal's width, for the progress line. */
  get columns(): number | undefined {
    return this.target.columns;
  }

  /** The file descriptor written to. */
  get fd(): number | undefined {
    return (this.target as { fd?: number }).fd;
  }

  /** True once some of what was written could not be delivered. */
  get cutOff(): boolean {
    return this.lost;
  }

  override _write(
    chunk: string | Uint8Array,
    encoding: BufferEncoding,
    callback: (error?: Error | null) => void,
  ): void {
    if (this.lost) {
      callback();
      return;
    }
    this.target.write(chunk, encoding, (error) => {
      if (error) this.lost = true;
      callback();
    });
  }
}
