/** Everything the system says about the volume of one folder the user typed or picked. */
import type { VolumeInfo } from '../../../../app/contract/volume.js';
import { formatPercent, yesNoUnknown } from '../../../../app/common/format.js';
import { VolumeActions } from './VolumeActions.js';
import { freeSpaceText } from '../../ui/free-space.js';

export function VolumeCard({ info }: { info: VolumeInfo }) {
  const used = info.totalBytes > 0 ? 1 - info.availableBytes / info.totalBytes : 0;
  const rows: [string, string][] = [
    ['File system', info.fsType ?? 'Unknown'],
    ['Mount point', info.mountPoint ?? 'Unknown'],
    ['Device', info.device ?? 'Unknown'],
    ['Block size', `${info.blockSize.toLocaleString()} bytes`],
    [
      'Uncached I/O block',
      info.directIoAlignment === null ? 'Unknown' : `${info.directIoAlignment} bytes`,
    ],
    ['Bus', info.bus ?? 'Unknown'],
    ['Medium', info.medium === null ? 'Unknown' : info.medium.toUpperCase()],
    ['Internal', yesNoUnknown(info.internal)],
    ['Clones', yesNoUnknown(info.supportsClones)],
    ['Sparse files', yesNoUnknown(info.supportsSparse)],
    ['Read-only', yesNoUnknown(info.readOnly)],
  ];
  return (
    <article className="card volume-card" aria-label={`Volume of ${info.path}`}>
      <header className="card-header">
        <h2 className="card-title">{info.mountPoint ?? info.path}</h2>
        <span className="card-subtitle">{info.path}</span>
      </header>
      <div className="space-summary">
        <span className="figure" data-testid="free-bytes">
          {freeSpaceText(info)}
        </span>
        <div
          className="meter"
          role="meter"
          aria-label="Space used"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(used * 100)}
        >
          <div className="meter-fill" style={{ width: `${Math.min(100, used * 100)}%` }} />
        </div>
        <span className="muted">{formatPercent(used)} used</span>
      </div>
      {info.readOnly ? null : <VolumeActions name={info.path} folder={info.path} />}
      <dl className="facts">
        {rows.map(([label, value]) => (
          <div className="fact" key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </article>
  );
}
