/**
 * A sparse-file job called through the contract with a listId (space.sparse.list or
 * space.sparse.candidates), its progress events collected and checked against the schema (its
 * job events checked too).
 */
import assert from 'node:assert/strict';
import { JobEvent } from '../../app/contract/jobs.js';
import { SparseListProgress } from '../../app/contract/space.js';
import type { CallContext, Dispatcher } from '../../app/core/dispatch.js';

export function followSparseJob(
  dispatcher: Dispatcher,
  operation: 'space.sparse.list' | 'space.sparse.candidates',
  input: { path: string; listId: string; minBytes?: number },
  onEvent: (progress: SparseListProgress) => void = () => undefined,
): { done: Promise<unknown>; events: SparseListProgress[] } {
  const events: SparseListProgress[] = [];
  const context: CallContext = {
    emit: (name, payload) => {
      // The listing is a job too: its job.events are the jobs' own (tests/unit/jobs).
      if (name === 'job.event') return void JobEvent.parse(payload);
      assert.equal(name, 'space.sparse.progress');
      const progress = SparseListProgress.parse(payload);
      events.push(progress);
      onEvent(progress);
    },
  };
  return { done: dispatcher.call(operation, input, context), events };
}
