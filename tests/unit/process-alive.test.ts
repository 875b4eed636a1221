/** Whether a process id names a running process, this one included or not. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { otherProcessAlive, processAlive } from '../../app/core/process-alive.js';

test('a running process is alive, one that exited is not', () => {
  assert.equal(processAlive(process.ppid), true);
  assert.equal(otherProcessAlive(process.ppid), true);
  const exited = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  const gone = Number(exited.stdout.toString());
  assert.ok(gone > 0, 'the child printed its id');
  assert.equal(processAlive(gone), false);
  assert.equal(otherProcessAlive(gone), false);
});

test('this process counts as alive, but not as another process', () => {
  assert.equal(processAlive(process.pid), true);
  assert.equal(otherProcessAlive(process.pid), false);
});
