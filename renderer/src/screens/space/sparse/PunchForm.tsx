/**
 * Punches a file's blocks of zeros into holes: a check first (the dry run the server must have
 * shown before it applies), then an explicit opt-in.
 */
import { useId, useState } from 'react';
import type { PunchReport } from '../../../../../app/contract/space.js';
import type { PlumbClient } from '../../../client.js';
import { formatBytes } from '../../../../../app/common/format.js';
import { useJob, type UseJob } from '../../../jobs/use-job.js';
import { ToolCard, ToolField, useToolAction } from './tool-card.js';

export function PunchForm({
  client,
  path,
  onPath,
  onDone,
}: {
  client: PlumbClient;
  path: string;
  onPath: (path: string) => void;
  onDone: () => void;
}) {
  const [check, setCheck] = useState<PunchReport | null>(null);
  const [understood, setUnderstood] = useState(false);
  const { busy, text, error, fail, act } = useToolAction();
  const punchJob = useJob(client);
  const agreeId = useId();

  const run = (apply: boolean) => {
    if (!path.trim()) return fail('Give the path of a file.');
    void act(async () => {
      await client.call('session.choosePath', { path: path.trim() });
      const report = await punchJob.run((jobId) =>
        client.call('space.sparse.punch', { path: path.trim(), apply, jobId }),
      );
      if (!apply) {
        setCheck(report);
        return null;
      }
      setCheck(null);
      setUnderstood(false);
      onDone();
      const holes = `${formatBytes(report.punchedBytes)} of ${formatBytes(report.zeroBytes)} made into holes`;
      const size = `${report.path} now takes ${formatBytes(report.allocatedAfter)} on disk (was ${formatBytes(report.allocatedBefore)})`;
      return report.stopped
        ? `Stopped: ${report.stopped}. ${holes}; ${size}.`
        : `Done: ${size}. Its content and times are as they were.`;
    });
  };

  return (
    <ToolCard
      title="Free the space of zero blocks"
      description="Finds whole blocks of zeros in a file and frees their space (punches holes): the file reads the same. Checking changes nothing."
      onSubmit={() => run(false)}
      text={text}
      error={error}
    >
      <ToolField
        label="File"
        placeholder="/path/to/file"
        value={path}
        onChange={(value) => {
          onPath(value);
          setCheck(null);
          setUnderstood(false);
        }}
      />
      <button type="submit" className="button" disabled={busy}>
        Check for zeros
      </button>
      {busy ? <PunchProgress job={punchJob} /> : null}
      {check ? (
        <div className="punch-check">
          <p>
            <strong>{formatBytes(check.zeroBytes)}</strong> of zeros found in whole blocks; the file
            takes {formatBytes(check.allocatedBefore)} on disk now.
          </p>
          <div className="banner banner-warning" data-testid="punch-warning">
            {check.warning}
          </div>
          <label className="punch-agree" htmlFor={agreeId}>
            <input
              id={agreeId}
              type="checkbox"
              checked={understood}
              onChange={(e) => setUnderstood(e.target.checked)}
            />
            I understand: punch the zeros of this file into holes
          </label>
          <button
            type="button"
            className="button button-primary"
            disabled={busy || !understood || check.zeroBytes === 0}
            onClick={() => run(true)}
          >
            Punch holes
          </button>
        </div>
      ) : null}
    </ToolCard>
  );
}

/** How far the read for zeros has got, and Stop (before any hole is made). */
function PunchProgress({ job }: { job: UseJob }) {
  const progress = job.job?.progress;
  const running = job.job?.state === 'running';
  return (
    <p className="punch-progress" data-testid="punch-progress">
      {progress?.bytesTotal
        ? `Reading for zeros: ${formatBytes(progress.bytesDone)} of ${formatBytes(progress.bytesTotal)}`
        : 'Reading for zeros…'}{' '}
      <button
        type="button"
        className="button"
        disabled={!running}
        onClick={() => void job.cancel()}
      >
        {running ? 'Stop' : 'Stopping…'}
      </button>
    </p>
  );
}
