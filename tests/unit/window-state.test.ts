import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import {
  defaultWindowState,
  loadWindowState,
  saveWindowState,
} from '../../app/desktop/window-state.js';

const display = { x: 0, y: 0, width: 1920, height: 1080 };

test('window state round-trips, and falls back when missing, corrupt or off-screen', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'plumb-ws-'));
  try {
    const file = path.join(dir, 'sub', 'window-state.json');
    assert.deepEqual(loadWindowState(file, [display]), defaultWindowState);
    saveWindowState(file, { width: 1400, height: 900, x: 100, y: 80, maximized: true });
    assert.deepEqual(loadWindowState(file, [display]), {
      width: 1400,
      height: 900,
      x: 100,
      y: 80,
      maximized: true,
    });
    saveWindowState(file, { width: 1400, height: 900, x: 5000, y: 80, maximized: false });
    assert.deepEqual(loadWindowState(file, [display]), {
      width: 1400,
      height: 900,
      maximized: false,
    });
    writeFileSync(file, '{not json');
    assert.deepEqual(loadWindowState(file, [display]), defaultWindowState);
    writeFileSync(file, JSON.stringify({ width: 10, height: 10 }));
    assert.deepEqual(loadWindowState(file, [display]), defaultWindowState);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
