/**
 * The task plan's input: a partly compressible file, like a disk image or an archive of mixed
 * documents. It is made of chunks, each a mix of random blocks and blocks of a short phrase
 * repeated; a handful of distinct chunks are laid out in a seeded order, so the same data can be
 * compressed from memory without holding the whole file there.
 */
import { randomFillSync } from 'node:crypto';
import { seededRandom } from './seeded-random.js';

/** Blocks are random or repetitive as a whole; 64 KiB is twice deflate's window. */
const blockBytes = 64 * 1024;
/** Distinct chunks in memory; chunks are compressed independently, so repeats cost full work. */
const distinctChunks = 16;

export interface TaskInput {
  inputBytes: number;
  chunkBytes: number;
  chunkCount: number;
  /** The bytes of chunk `index` of the file (the last may be short). */
  chunk(index: number): Buffer;
}

/** One chunk: each block random with probability 1 − `compressibleShare`, else a phrase repeated. */
function mixedChunk(bytes: number, compressibleShare: number, random: () => number): Buffer {
  const chunk = Buffer.allocUnsafe(bytes);
  for (let offset = 0; offset < bytes; offset += blockBytes) {
    const block = chunk.subarray(offset, Math.min(bytes, offset + blockBytes));
    if (random() >= compressibleShare) {
      randomFillSync(block);
      continue;
    }
    const phrase = Buffer.allocUnsafe(16 + Math.floor(random() * 240));
    randomFillSync(phrase);
    for (let at = 0; at < block.length; at += phrase.length) phrase.copy(block, at);
  }
  return chunk;
}

/** The input a task plan compresses, deterministic in its layout for a given seed. */
export function taskInput(
  inputBytes: number,
  chunkBytes: number,
  compressibleShare: number,
  seed: number,
): TaskInput {
  const random = seededRandom(seed);
  const chunkCount = Math.ceil(inputBytes / chunkBytes);
  const size = Math.min(chunkBytes, inputBytes);
  const pool = Array.from({ length: Math.min(distinctChunks, chunkCount) }, () =>
    mixedChunk(size, compressibleShare, random),
  );
  const order = Array.from({ length: chunkCount }, () => Math.floor(random() * pool.length));
  return {
    inputBytes,
    chunkBytes: size,
    chunkCount,
    chunk(index) {
      const length = Math.min(size, inputBytes - index * size);
      return pool[order[index]!]!.subarray(0, length);
    },
  };
}
