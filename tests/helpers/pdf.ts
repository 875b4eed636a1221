/**
 * Reading PDFs the way a person would check them, with poppler-utils: the text (pdftotext), the
 * pages as pictures (pdftoppm) and the embedded images, which is what chart canvases become
 * (pdfimages). Pictures come back as raw RGB from poppler's PPM output, so no decoder is needed.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface Picture {
  width: number;
  height: number;
  /** RGB, 3 bytes per pixel, row by row. */
  rgb: Buffer;
}

function run(command: string, args: string[]): string {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
}

/** Why PDF checks cannot run here, or undefined when they can. */
export function popplerMissingReason(): string | undefined {
  const probe = spawnSync('pdftotext', ['-v'], { encoding: 'utf8' });
  return probe.error ? 'poppler-utils is not installed (apt-get install poppler-utils)' : undefined;
}

/** All the text, with runs of white space (line breaks included) made single spaces. */
export function pdfText(file: string): string {
  return run('pdftotext', [file, '-']).replace(/\s+/g, ' ');
}

/** One page's text with its layout kept (columns stay on one line). */
export function pdfPageText(file: string, page: number): string {
  return run('pdftotext', ['-layout', '-f', String(page), '-l', String(page), file, '-']);
}

export function pdfPageCount(file: string): number {
  const match = /^Pages:\s+(\d+)/m.exec(run('pdfinfo', [file]));
  if (!match) throw new Error(`pdfinfo gave no page count for ${file}`);
  return Number(match[1]);
}

/** Page size in PDF points (1/72 inch). */
export function pdfPageSize(file: string): { width: number; height: number } {
  const match = /^Page size:\s+([\d.]+) x ([\d.]+) pts/m.exec(run('pdfinfo', [file]));
  if (!match) throw new Error(`pdfinfo gave no page size for ${file}`);
  return { width: Number(match[1]), height: Number(match[2]) };
}

/** A binary PPM (P6, maxval 255). */
function parsePpm(data: Buffer): Picture {
  const fields: string[] = [];
  let offset = 0;
  while (fields.length < 4) {
    while (/\s/.test(String.fromCharCode(data[offset]!))) offset += 1;
    if (data[offset] === 0x23) {
      while (data[offset] !== 0x0a) offset += 1;
      continue;
    }
    const start = offset;
    while (!/\s/.test(String.fromCharCode(data[offset]!))) offset += 1;
    fields.push(data.subarray(start, offset).toString('latin1'));
  }
  const [magic, width, height, maxval] = fields;
  if (magic !== 'P6' || maxval !== '255')
    throw new Error(`not an 8-bit P6 PPM: ${magic} ${maxval}`);
  const w = Number(width);
  const h = Number(height);
  return { width: w, height: h, rgb: data.subarray(offset + 1, offset + 1 + w * h * 3) };
}

function withTemporaryDir<T>(work: (dir: string) => T): T {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'plumb-pdf-'));
  try {
    return work(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One page rendered at `dpi`. */
export function renderPage(file: string, page: number, dpi = 50): Picture {
  return withTemporaryDir((dir) => {
    const prefix = path.join(dir, 'page');
    run('pdftoppm', [
      '-r',
      String(dpi),
      '-f',
      String(page),
      '-l',
      String(page),
      '-singlefile',
      file,
      prefix,
    ]);
    return parsePpm(readFileSync(`${prefix}.ppm`));
  });
}

/** Every page as a PNG in `dir` (for people to look at), named `${stem}-N.png`. */
export function savePagePngs(file: string, dir: string, stem: string, dpi = 50): void {
  run('pdftoppm', ['-png', '-r', String(dpi), file, path.join(dir, stem)]);
}

/** The colour images embedded in the PDF (chart canvases print as images), with their page. */
export function embeddedImages(file: string): (Picture & { page: number })[] {
  // pdfimages numbers every image and soft mask alike; the masks are the canvases' alpha.
  const images = run('pdfimages', ['-list', file])
    .split('\n')
    .slice(2)
    .map((line) => line.trim().split(/\s+/))
    .filter((cols) => cols.length > 3 && cols[2] === 'image')
    .map((cols) => ({ page: Number(cols[0]), num: Number(cols[1]) }));
  return withTemporaryDir((dir) => {
    run('pdfimages', [file, path.join(dir, 'img')]);
    return images.map(({ page, num }) => ({
      ...parsePpm(readFileSync(path.join(dir, `img-${String(num).padStart(3, '0')}.ppm`))),
      page,
    }));
  });
}

/** Pixels within `tolerance` (per channel) of `hex`, e.g. a series colour. */
export function countColour(picture: Picture, hex: string, tolerance = 24): number {
  const target = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  let count = 0;
  for (let i = 0; i < picture.rgb.length; i += 3) {
    if (
      Math.abs(picture.rgb[i]! - target[0]!) <= tolerance &&
      Math.abs(picture.rgb[i + 1]! - target[1]!) <= tolerance &&
      Math.abs(picture.rgb[i + 2]! - target[2]!) <= tolerance
    )
      count += 1;
  }
  return count;
}

/** The share of pixels that are not (near) white. */
export function inkShare(picture: Picture): number {
  let ink = 0;
  const pixels = picture.rgb.length / 3;
  for (let i = 0; i < picture.rgb.length; i += 3) {
    if (picture.rgb[i]! < 235 || picture.rgb[i + 1]! < 235 || picture.rgb[i + 2]! < 235) ink += 1;
  }
  return ink / pixels;
}
