/**
 * Large files in the listed folder that are not sparse yet but hold whole blocks of zeros: what
 * punching them would free, with the warning that apps may write them back in full. Looking reads
 * each large file once, so it runs only when asked, with its progress and a Cancel.
 */
import type { PlumbClient } from '../../client.js';
import { formatBytes } from '../../../../app/common/format.js';
import { sparseProgressFigures } from './duplicates-view.js';
import { ProgressCard } from './ProgressCard.js';
import { useSparseJob } from './sparse/use-sparse-listing.js';

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
  const { job, load, cancel } = useSparseJob(
    client,
    (path, listId) => client.call('space.sparse.candidates', { path, listId }),
    'Type the path of a folder to look for runs of zeros in.',
  );
  return (
    <section className="sparse-candidates" aria-label="Files that could be made sparse">
      <div className="toolbar">
        <h2 className="section-title">Files that punching would shrink</h2>
        <button
          type="button"
          className="button"
          disabled={job.kind === 'loading'}
          onClick={() => void load(folder)}
        >
          {job.kind === 'loading' ? 'Reading large files…' : 'Look for runs of zeros'}
        </button>
      </div>
      {job.kind === 'idle' ? (
        <p className="muted">
          Reads every file of 64 MB or more in {folder} once for whole blocks of zeros (disk images,
          databases, downloads being written).
        </p>
      ) : null}
      {job.kind === 'loading' ? (
        <ProgressCard
          title="Looking for runs of zeros in"
          path={job.path}
          figures={sparseProgressFigures(job.progress)}
          barLabel="Search for runs of zeros"
          bytesLabel="Looked at"
          cancelLabel="Cancel"
          canCancel
          onCancel={() => void cancel()}
          testIdPrefix="candidates"
        />
      ) : null}
      {job.kind === 'cancelled' ? (
        <p className="muted" role="status" data-testid="sparse-candidates-cancelled">
          Stopped reading the large files in {job.path}. Nothing was changed.
        </p>
      ) : null}
      {job.kind === 'error' ? (
        <div className="banner banner-error" role="alert">
          {job.message}
        </div>
      ) : null}
      {job.kind === 'done' ? (
        <>
          {job.result.candidates.length === 0 ? (
            <p className="muted" data-testid="sparse-candidates-none">
              No large file here holds 1 MB or more of whole zero blocks.
            </p>
          ) : (
            <ul className="sparse-list" data-testid="sparse-candidates">
              {job.result.candidates.map((c) => (
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
            {job.result.warning}
          </p>
        </>
      ) : null}
    </section>
  );
}
