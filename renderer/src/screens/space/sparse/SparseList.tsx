/** The sparse files found in a folder, each with its sizes, hole map and tools. */
import type { SparseFile } from '../../../../../app/contract/space.js';
import { formatBytes } from '../../../../../app/common/format.js';
import { holeMapLabel, holeMapSegments, sparseSaving } from '../hole-map.js';

export function SparseList({
  path,
  files,
  onPunch,
  onCopy,
}: {
  path: string;
  files: SparseFile[];
  onPunch: (path: string) => void;
  onCopy: (path: string) => void;
}) {
  return (
    <section aria-labelledby="sparse-title">
      <h2 id="sparse-title" className="section-title">
        {files.length} sparse {files.length === 1 ? 'file' : 'files'} in{' '}
        <span className="section-path mono">{path}</span>
      </h2>
      <ul className="sparse-list" aria-label="Sparse files">
        {files.map((file) => (
          <SparseRow
            key={file.path}
            file={file}
            onPunch={() => onPunch(file.path)}
            onCopy={() => onCopy(file.path)}
          />
        ))}
      </ul>
    </section>
  );
}

function SparseRow({
  file,
  onPunch,
  onCopy,
}: {
  file: SparseFile;
  onPunch: () => void;
  onCopy: () => void;
}) {
  const name = file.path.split(/[\\/]/).at(-1) ?? file.path;
  return (
    <li className="sparse-row" aria-label={name}>
      <div className="sparse-head">
        <span className="sparse-name" title={file.path}>
          {name}
        </span>
        <span className="sparse-path mono">{file.path}</span>
      </div>
      <dl className="sparse-sizes">
        <div>
          <dt>Logical size</dt>
          <dd data-testid="sparse-logical">{formatBytes(file.logicalBytes)}</dd>
        </div>
        <div>
          <dt>On disk</dt>
          <dd data-testid="sparse-allocated">{formatBytes(file.allocatedBytes)}</dd>
        </div>
        <div>
          <dt>Holes save</dt>
          <dd>{formatBytes(sparseSaving(file))}</dd>
        </div>
      </dl>
      <HoleMap file={file} />
      <div className="sparse-actions">
        <button type="button" className="button button-small" onClick={onPunch}>
          Punch zeros…
        </button>
        <button type="button" className="button button-small" onClick={onCopy}>
          Copy with holes…
        </button>
      </div>
    </li>
  );
}

function HoleMap({ file }: { file: SparseFile }) {
  const label = holeMapLabel(file);
  return (
    <div className="hole-map-wrap">
      <div className="hole-map" role="img" aria-label={`Data and holes: ${label}`}>
        {holeMapSegments(file).map((segment) => (
          <span
            key={segment.start}
            className="hole-map-data"
            style={{ left: `${segment.start * 100}%`, width: `${segment.width * 100}%` }}
          />
        ))}
      </div>
      <span className="hole-map-legend muted" aria-hidden="true">
        <span className="legend-swatch legend-data" /> data <span className="legend-swatch" /> hole
        · {label}
      </span>
    </div>
  );
}
