import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { resultSchemaVersion, type ResultDocument } from '../../../app/contract/bench-result.js';
import { phaseSummary } from '../../../app/core/analysis/phase-summary.js';
import { newResultId, resultCsv, ResultsStore } from '../../../app/core/bench/results-store.js';
import { plumbFolders } from '../../../app/core/paths.js';
import { reserveBytes, uiReserveBytes, writeAllowance } from '../../../app/common/reserve.js';
import { cacheGuessBytes } from '../../../app/common/run-sizes.js';
import { whatWouldWork, guardMessage } from '../../../app/core/bench/space-guard.js';
import {
  createTestFolder,
  markerName,
  removeStaleTestFolders,
} from '../../../app/core/bench/test-folder.js';

describe('space guard', () => {
  it('keeps the larger of 10 % of the volume and 1 GB, so a 16 GB stick can be tested', () => {
    assert.equal(reserveBytes(100e9), 10e9);
    assert.equal(reserveBytes(1e12), 100e9);
    assert.equal(reserveBytes(8e9), 1e9);
    assert.equal(reserveBytes(64e6, { fraction: 0.1, minBytes: 0 }), 6.4e6);
  });
  it('lets the UI set the reserve, never below the larger of 1 % and 256 MB', () => {
    assert.equal(uiReserveBytes(16e9), 1.6e9, 'the default when none is asked');
    assert.equal(uiReserveBytes(16e9, 500e6), 500e6);
    assert.equal(uiReserveBytes(16e9, 0), 256e6);
    assert.equal(uiReserveBytes(1e12, 0), 10e9);
    assert.equal(uiReserveBytes(1e12, 200e9), 200e9);
  });
  it('says what would work: a scale, a reserve above the floor, or more space', () => {
    // 16 GB stick, 3 GB free, keeps 1.6 GB: a 2.5 GB plan at full scale does not fit.
    const text = whatWouldWork({
      neededBytes: 2.5e9,
      availableBytes: 3e9,
      reserveBytes: 1.6e9,
      volumeBytes: 16e9,
      scale: 1,
    });
    assert.match(text, /Plumb keeps 1\.60 GB free here/);
    assert.match(text, /a scale of 0\.56 or less/); // 1.4 / 2.5 = 0.56
    assert.match(text, /keeping 500 MB free instead of 1\.60 GB/);
    assert.match(text, /freeing 1\.10 GB on this volume/);
    // Nearly full: no reserve above the floor would do.
    const full = whatWouldWork({
      neededBytes: 2.5e9,
      availableBytes: 2.6e9,
      reserveBytes: 1.6e9,
      volumeBytes: 16e9,
    });
    assert.doesNotMatch(full, /keeping/);
    assert.doesNotMatch(full, /scale/);
  });
  it('writes the scale it suggests as a person would, and the guard with no reserve as such', () => {
    // 1.13 % of the plan fits at scale 0.1: 0.00113, said to two figures, rounded down.
    const text = whatWouldWork({
      neededBytes: 100e9,
      availableBytes: 2.13e9,
      reserveBytes: 1e9,
      volumeBytes: 16e9,
      scale: 0.1,
    });
    assert.match(text, /a scale of 0\.0011 or less/);
    const none = guardMessage(64e6, 10e6, 0);
    assert.match(none, /^Stopped before the disk filled up: writing 64\.0 MB more does not fit/);
    assert.doesNotMatch(none, /by default|1 GB/, 'no default reserve when none was kept');
    assert.match(guardMessage(64e6, 1.5e9, 1e9), /by default Plumb keeps the larger of 10 %/);
  });
  it('allows what is free above the reserve, never less than nothing', () => {
    assert.equal(writeAllowance(50e9, 20e9), 30e9);
    assert.equal(writeAllowance(10e9, 20e9), 0);
  });
  it('guesses the cache as the smaller of a third of free space and a tenth of the drive', () => {
    assert.equal(cacheGuessBytes(2e12, 1.5e12), 200e9);
    assert.equal(cacheGuessBytes(2e12, 300e9), 100e9);
  });
});

describe('the results folder', () => {
  const home = '/home/ann';
  const resultsDir = (env: NodeJS.ProcessEnv, platform: NodeJS.Platform, home: string) =>
    plumbFolders(env, platform, home).results;
  it('uses PLUMB_DATA_DIR first', () => {
    assert.equal(resultsDir({ PLUMB_DATA_DIR: '/tmp/x' }, 'linux', home), '/tmp/x/results');
  });
  it('follows each OS convention', () => {
    assert.equal(
      resultsDir({}, 'darwin', home),
      '/home/ann/Library/Application Support/Plumb/results',
    );
    assert.equal(
      resultsDir({ APPDATA: 'C:\\Users\\ann\\AppData\\Roaming' }, 'win32', home),
      'C:\\Users\\ann\\AppData\\Roaming\\Plumb\\results',
    );
    assert.equal(resultsDir({ XDG_DATA_HOME: '/data' }, 'linux', home), '/data/plumb/results');
    assert.equal(resultsDir({}, 'linux', home), '/home/ann/.local/share/plumb/results');
  });
});

function sampleDocument(id: string, startedAt: string): ResultDocument {
  const files = [
    {
      phase: 'write' as const,
      bytes: 1e6,
      seconds: 0.01,
      cumulativeBytes: 1e6,
      t: 0.01,
      temperatureC: null,
    },
    {
      phase: 'write' as const,
      bytes: 2e6,
      seconds: 0.02,
      cumulativeBytes: 3e6,
      t: 0.03,
      temperatureC: 41,
    },
  ];
  return {
    schema: resultSchemaVersion,
    scale: 1,
    id,
    startedAt,
    app: { version: '0.1.0' },
    environment: {
      os: 'Linux',
      volume: { path: '/mnt/x', fsType: 'ext4', totalBytes: 1e9, freeBytes: 5e8, bus: null },
      cacheMode: 'direct',
    },
    plan: { name: 'series' },
    files,
    summary: { write: phaseSummary(files), read: phaseSummary([]) },
    findings: [],
  };
}

describe('ResultsStore', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'plumb-results-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('makes sortable, unique ids', () => {
    const id = newResultId(new Date('2025-03-04T05:06:07Z'));
    assert.match(id, /^20250304-050607-[0-9a-f]{4}$/);
  });

  it('saves atomically, lists newest first, finds by prefix, renames, exports and deletes', async () => {
    const store = new ResultsStore(path.join(dir, 'results'));
    assert.deepEqual(await store.list(), []);
    await store.save(sampleDocument('20250101-000000-aaaa', '2025-01-01T00:00:00Z'));
    await store.save(sampleDocument('20250202-000000-bbbb', '2025-02-02T00:00:00Z'));
    await writeFile(path.join(store.dir, 'junk.json'), 'not json');
    const names = await readdir(store.dir);
    assert.ok(!names.some((n) => n.endsWith('.tmp')), 'no temporary files left');
    const list = await store.list();
    assert.deepEqual(
      list.map((i) => i.id),
      ['20250202-000000-bbbb', '20250101-000000-aaaa'],
    );
    assert.equal(list[0]!.writeMedian, 1e8);
    assert.equal((await store.get('20250101')).id, '20250101-000000-aaaa');
    await assert.rejects(store.get('2025'), /matches 2 results/);
    await assert.rejects(store.get('1999'), /No result "1999"/);
    await assert.rejects(store.get('../etc/passwd'), /No result|not a result id/);
    const renamed = await store.rename('20250101', 'before firmware update');
    assert.equal(renamed.name, 'before firmware update');
    assert.equal((await store.get('20250101-000000-aaaa')).name, 'before firmware update');
    assert.equal(
      resultCsv(await store.get('20250101')),
      '# Headline: write 100 MB/s (1 file of 2 MB or more)\nphase,bytes,seconds,cumulativeBytes,t,temperatureC\nwrite,1000000,0.01,1000000,0.01,\nwrite,2000000,0.02,3000000,0.03,41\n',
    );
    assert.equal(await store.delete('20250202'), true);
    assert.deepEqual(
      (await store.list()).map((i) => i.id),
      ['20250101-000000-aaaa'],
    );
  });

  it('refuses to save a document that does not follow the format', async () => {
    const store = new ResultsStore(path.join(dir, 'bad'));
    const broken = {
      ...sampleDocument('x1', '2025-01-01T00:00:00Z'),
      files: [{ phase: 'sideways' }],
    };
    await assert.rejects(store.save(broken as unknown as ResultDocument));
    await assert.rejects(readdir(store.dir), { code: 'ENOENT' });
  });
});

describe('test folders', () => {
  let target: string;
  before(async () => {
    target = await mkdtemp(path.join(os.tmpdir(), 'plumb-target-'));
  });
  after(async () => {
    await rm(target, { recursive: true, force: true });
  });

  it('makes a marked plumb-test-* folder', async () => {
    const dir = await createTestFolder(target);
    assert.match(path.basename(dir), /^plumb-test-/);
    const marker = JSON.parse(await readFile(path.join(dir, markerName), 'utf8')) as {
      pid: number;
    };
    assert.equal(marker.pid, process.pid);
    await rm(dir, { recursive: true });
  });

  it('removes folders of dead runs only, and never an unmarked folder', async () => {
    const dead = await createTestFolder(target);
    const live = await createTestFolder(target);
    const unmarked = path.join(target, 'plumb-test-mine');
    await mkdir(unmarked);
    await writeFile(path.join(dead, 'file-00000.dat'), 'x');
    const livePid = process.pid;
    const deadMarker = JSON.parse(await readFile(path.join(dead, markerName), 'utf8')) as {
      pid: number;
    };
    deadMarker.pid = 999_999_999;
    await writeFile(path.join(dead, markerName), JSON.stringify(deadMarker));
    const removed = await removeStaleTestFolders(target, (pid) => pid === livePid);
    assert.deepEqual(removed, [dead]);
    const left = (await readdir(target)).sort();
    assert.deepEqual(left, [path.basename(live), 'plumb-test-mine'].sort());
  });
});
