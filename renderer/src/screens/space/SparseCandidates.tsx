/**
 * Large files in the listed folder that are not sparse yet but hold whole blocks of zeros: what
 * punching them would free, with the warning that apps may write them back in full. Looking reads
 * each large file once, so it runs only when asked.
 */
import { useState } from 'react';
import type { SparseCandidate } from '../../../../app/contract/space.js';
import type { PlumbClient } from '../../client.js';
import { formatBytes } from '../../../../app/common/format.js';

type State =
  | { kind: 'idle' }
  | { kind: 'reading' }
  | { kind: 'done'; candidates: SparseCandidate[]; warning: string }
  | { kind: 'error'; message: string };

export function SparseCandidates({
  client,
  folder,
  onPunch,
}: {
  client: PlumbClient;
  folder: string;
  /** Puts a candidate into the punch form below. */
  onPunch: (path: string) => void;
}) {
  const [state, setState] = useState<State>({ kind: 'idle' });
  const look = async () => {
    setState({ kind: 'reading' });
    try {
      await client.call('session.choosePath', { path: folder });
      const found = await client.call('space.sparse.candidates', { path: folder });
      setState({ kind: 'done', ...found });
    } catch (error) {
      setState({ kind: 'error', message: (error as Error).message });
    }
  };
  return (
    <section className="sparse-candidates" aria-label="Files that could be made sparse">
      <div className="toolbar">
        <h2 className="section-title">Files that punching would shrink</h2>
        <button
          type="button"
          className="button"
          disabled={state.kind === 'reading'}
          onClick={() => void look()}
        >
          {state.kind === 'reading' ? 'Reading large files…' : 'Look for runs of zeros'}
        </button>
      </div>
      {state.kind === 'idle' ? (
        <p className="muted">
          Reads every file of 64 MB or more in {folder} once for whole blocks of zeros (disk images,
          databases, downloads being written).
        </p>
      ) : null}
      {state.kind === 'error' ? (
        <div className="banner banner-error" role="alert">
          {state.message}
        </div>
      ) : null}
      {state.kind === 'done' ? (
        <>
          {state.candidates.length === 0 ? (
            <p className="muted" data-testid="sparse-candidates-none">
              No large file here holds 1 MB or more of whole zero blocks.
            </p>
          ) : (
            <ul className="sparse-list" data-testid="sparse-candidates">
              {state.candidates.map((c) => (
                <li key={c.path} className="sparse-candidate">
                  <span className="mono">{c.path}</span>{' '}
                  <span>
                    frees {formatBytes(c.zeroBytes)} of {formatBytes(c.allocatedBytes)} allocated
                  </span>{' '}
                  <button type="button" className="button" onClick={() => onPunch(c.path)}>
                    Punch…
                  </button>
                </li>
              ))}
            </ul>
          )}
          <p className="banner banner-warning" role="note">
            {state.warning}
          </p>
        </>
      ) : null}
    </section>
  );
}
