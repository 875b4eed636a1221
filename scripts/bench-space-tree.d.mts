// Types of bench-space-tree.mjs for the TypeScript that imports it (tests/e2e/space-scan-million).
export const IMAGE_FROM: number;
export function fileSizes(count: number, total: number, seed?: number): Uint32Array;
export function filePath(dir: string, i: number): string;
export function sourceOf(i: number, fileCount: number, duplicateShare: number): number;
export function ensureTree(options: {
  dir: string;
  fileCount: number;
  totalBytes: number;
  duplicateShare: number;
  keep?: boolean;
  image?: boolean;
}): Promise<{ cleanup(): void }>;
