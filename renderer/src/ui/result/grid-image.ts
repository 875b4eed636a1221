/**
 * The queue-depth grid as a PNG, put on the clipboard where the browser lets a page do that,
 * else saved as a file; and text put on the clipboard.
 */
import { formatDateTime } from '../../../../app/common/format.js';
import { saveTextFile } from '../download.js';
import { gridNumber, gridTestWords, type GridSource, type GridUnit } from './grid-copy.js';
import type { GridRow } from './presets-grid.js';

export interface ImageColours {
  text: string;
  muted: string;
  surface: string;
  grid: string;
  read: string;
  write: string;
}

/** Draws the grid as a table on a canvas (2× for sharp text) and returns it as a PNG. */
export function gridPng(
  rows: readonly GridRow[],
  unit: GridUnit,
  source: GridSource | null,
  colours: ImageColours,
): Promise<Blob> {
  const scale = 2;
  const rowHeight = 44;
  const top = 70;
  const columns = [24, 200, 420];
  const width = 640;
  const height = top + rowHeight * (rows.length + 1) + 16;
  const canvas = document.createElement('canvas');
  canvas.width = width * scale;
  canvas.height = height * scale;
  const g = canvas.getContext('2d');
  if (!g) return Promise.reject(new Error('This browser cannot draw the grid as an image.'));
  g.scale(scale, scale);
  g.fillStyle = colours.surface;
  g.fillRect(0, 0, width, height);
  g.textBaseline = 'middle';
  g.fillStyle = colours.text;
  g.font = '600 18px system-ui, sans-serif';
  g.fillText('Plumb queue-depth grid', columns[0]!, 24);
  g.fillStyle = colours.muted;
  g.font = '13px system-ui, sans-serif';
  const where = source
    ? [
        source.volume,
        formatDateTime(source.startedAt),
        ...(source.test ? [gridTestWords(source.test)] : []),
      ].join(' · ')
    : '';
  g.fillText(where, columns[0]!, 48);
  const header = top + rowHeight / 2;
  g.font = '600 14px system-ui, sans-serif';
  g.fillText('Test', columns[0]!, header);
  g.fillText(`Read (${unit})`, columns[1]!, header);
  g.fillText(`Write (${unit})`, columns[2]!, header);
  rows.forEach((row, index) => {
    const y = top + rowHeight * (index + 1);
    g.fillStyle = colours.grid;
    g.fillRect(columns[0]!, y, width - 2 * columns[0]!, 1);
    const middle = y + rowHeight / 2;
    g.fillStyle = colours.text;
    g.font = '600 15px system-ui, sans-serif';
    g.fillText(row.test, columns[0]!, middle);
    g.font = '600 20px ui-monospace, monospace';
    g.fillStyle = colours.read;
    g.fillText(gridNumber(row.read, unit) ?? '—', columns[1]!, middle);
    g.fillStyle = colours.write;
    g.fillText(gridNumber(row.write, unit) ?? '—', columns[2]!, middle);
  });
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('The grid could not be drawn as a PNG.'))),
      'image/png',
    ),
  );
}

/** Puts a PNG on the clipboard where allowed, else saves it; says which happened. */
export async function copyOrSavePng(blob: Blob, fileName: string): Promise<string> {
  if (typeof ClipboardItem !== 'undefined' && navigator.clipboard?.write) {
    try {
      await navigator.clipboard.write([new ClipboardItem({ 'image/png': blob })]);
      return 'Copied the grid as an image.';
    } catch {
      // Not allowed here (no permission, or the page is not focused): save it instead.
    }
  }
  saveTextFile(fileName, blob, 'image/png');
  return `The clipboard took no image here, so the grid was saved as ${fileName}.`;
}

/** Puts text on the clipboard; says whether it worked and what to do when not. */
export async function copyText(text: string): Promise<string> {
  try {
    await navigator.clipboard.writeText(text);
    return 'Copied the grid as text.';
  } catch {
    return 'The clipboard is not available here: allow clipboard access for this page and copy again.';
  }
}
