/** How far a dedupe or Trash apply has got: files and bytes done of the total, as a bar. */
import { formatBytes } from '../../../../app/common/format.js';
import type { JobView } from '../../jobs/use-job.js';

export function ApplyProgress({ job }: { job: JobView | null }) {
  const progress = job?.progress ?? null;
  if (!progress || progress.total === null) return <p>Starting…</p>;
  const bytes =
    progress.bytesTotal === null
      ? formatBytes(progress.bytesDone)
      : `${formatBytes(progress.bytesDone)} of ${formatBytes(progress.bytesTotal)}`;
  return (
    <div data-testid="apply-progress">
      <progress
        aria-label="Apply progress"
        max={Math.max(1, progress.total)}
        value={progress.done}
      />
      <p>
        {progress.done} of {progress.total} files · {bytes}
        {job?.state === 'cancelling' ? ' · stopping after this file' : ''}
      </p>
    </div>
  );
}
