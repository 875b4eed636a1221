/** The main window's size, position and maximised state, remembered across launches. */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface WindowState {
  width: number;
  height: number;
  x?: number;
  y?: number;
  maximized: boolean;
}

export const defaultWindowState: WindowState = { width: 1280, height: 820, maximized: false };

export interface DisplayArea {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The saved state, or the default when it is missing, corrupt, or off every current display. */
export function loadWindowState(file: string, displays: DisplayArea[]): WindowState {
  let saved: Partial<WindowState>;
  try {
    saved = JSON.parse(readFileSync(file, 'utf8')) as Partial<WindowState>;
  } catch {
    return { ...defaultWindowState };
  }
  const width = Number(saved.width);
  const height = Number(saved.height);
  if (!(width >= 640 && height >= 480)) return { ...defaultWindowState };
  const state: WindowState = { width, height, maximized: saved.maximized === true };
  const { x, y } = saved;
  const visible =
    typeof x === 'number' &&
    typeof y === 'number' &&
    displays.some(
      (d) => x + 100 > d.x && y + 50 > d.y && x < d.x + d.width - 100 && y < d.y + d.height - 50,
    );
  if (visible) Object.assign(state, { x, y });
  return state;
}

export function saveWindowState(file: string, state: WindowState): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.tmp`;
  writeFileSync(temporary, JSON.stringify(state));
  renameSync(temporary, file);
}
