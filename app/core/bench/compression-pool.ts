/**
 * Compression on every core: one worker thread per core, each compressing whole chunks with
 * node:zlib (gzip, or zstd where this Node has it). Chunks are independent, as pigz and zstd -T0
 * make them, so the work spreads evenly.
 */
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import zlib from 'node:zlib';
import { PlumbError } from '../../contract/errors.js';

export type Codec = 'gzip' | 'zstd';

/** zstd arrived in node:zlib in Node 22.15 / 23.8. */
function zstdAvailable(): boolean {
  return typeof (zlib as { zstdCompressSync?: unknown }).zstdCompressSync === 'function';
}

/** The codec a plan asks for, as this Node can run it. */
export function resolveCodec(wanted: 'auto' | Codec): Codec {
  if (wanted === 'gzip') return 'gzip';
  if (zstdAvailable()) return 'zstd';
  if (wanted === 'zstd')
    throw new PlumbError(
      'ENOTSUP',
      `This Node (${process.version}) has no zstd in node:zlib (it needs 22.15 or later); use "codec": "gzip" or "auto".`,
    );
  return 'gzip';
}

/** Each codec's everyday level: gzip's default and zstd's. */
export const defaultLevel: Record<Codec, number> = { gzip: 6, zstd: 3 };

/** Compression threads by default: one per core the OS gives this process. */
export function defaultWorkers(): number {
  return os.availableParallelism();
}

// Evaluated as a CommonJS worker, so it needs no file of its own in the bundle.
const workerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const zlib = require('node:zlib');
const { codec, level } = workerData;
const compress =
  codec === 'zstd'
    ? (data) => zlib.zstdCompressSync(data, { params: { [zlib.constants.ZSTD_c_compressionLevel]: level } })
    : (data) => zlib.gzipSync(data, { level });
parentPort.on('message', ({ id, data }) => {
  try {
    parentPort.postMessage({ id, data: compress(data) });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.message ? error.message : error) });
  }
});
`;

interface Job {
  id: number;
  data: Uint8Array;
  resolve: (compressed: Uint8Array) => void;
  reject: (error: Error) => void;
}

interface Reply {
  id: number;
  data?: Uint8Array;
  error?: string;
}

/** A fixed set of compression threads taking chunks in turn. */
export class CompressionPool {
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, Job>();
  private readonly queue: Job[] = [];
  private nextId = 0;
  private closed = false;

  constructor(
    readonly codec: Codec,
    readonly level: number,
    readonly workers: number,
  ) {
    for (let i = 0; i < workers; i += 1) {
      const worker = new Worker(workerSource, { eval: true, workerData: { codec, level } });
      worker.on('message', (reply: Reply) => this.settle(worker, reply));
      worker.on('error', (error: Error) => this.fail(worker, error));
      this.idle.push(worker);
    }
  }

  /** The chunk compressed by the next free thread. */
  compress(data: Uint8Array): Promise<Uint8Array> {
    if (this.closed) return Promise.reject(new Error('the compression pool is closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, data, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.idle.length > 0 && this.queue.length > 0) {
      const worker = this.idle.pop()!;
      const job = this.queue.shift()!;
      this.busy.set(worker, job);
      worker.postMessage({ id: job.id, data: job.data });
    }
  }

  private settle(worker: Worker, reply: Reply): void {
    const job = this.busy.get(worker);
    this.busy.delete(worker);
    this.idle.push(worker);
    if (job) {
      if (reply.error !== undefined || !reply.data)
        job.reject(new PlumbError('EIO', `Compression failed: ${reply.error ?? 'no output'}`));
      else job.resolve(reply.data);
    }
    this.dispatch();
  }

  private fail(worker: Worker, error: Error): void {
    const job = this.busy.get(worker);
    this.busy.delete(worker);
    job?.reject(
      new PlumbError('EIO', `A compression thread failed: ${error.message}`, { cause: error }),
    );
  }

  /** Stops every thread; queued chunks are rejected. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error('the compression pool closed'));
    const all = [...this.idle, ...this.busy.keys()];
    this.idle.length = 0;
    this.busy.clear();
    await Promise.all(all.map((worker) => worker.terminate()));
  }
}
