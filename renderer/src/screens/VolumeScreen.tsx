import { useId, useState, type FormEvent } from 'react';
import type { AppAbout } from '../../../app/contract/app.js';
import type { VolumeInfo } from '../../../app/contract/volume.js';
import type { PlumbClient } from '../client.js';
import { formatBytes, formatPercent, yesNoUnknown } from '../../../app/common/format.js';

type State =
  | { kind: 'idle' }
  | { kind: 'loading'; path: string }
  | { kind: 'done'; info: VolumeInfo }
  | { kind: 'error'; message: string };

export function VolumeScreen({ client, about }: { client: PlumbClient; about: AppAbout | null }) {
  const [path, setPath] = useState('');
  const [state, setState] = useState<State>({ kind: 'idle' });
  const inputId = useId();

  const inspect = async (target: string) => {
    const trimmed = target.trim();
    if (!trimmed) {
      setState({
        kind: 'error',
        message: 'Type the path of a folder, for example your home folder.',
      });
      return;
    }
    setState({ kind: 'loading', path: trimmed });
    try {
      setState({ kind: 'done', info: await client.call('volume.info', { path: trimmed }) });
    } catch (error) {
      setState({ kind: 'error', message: (error as Error).message });
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void inspect(path);
  };

  const choose = async () => {
    const { path: chosen } = await client.call('dialog.chooseFolder', {
      title: 'Choose a folder to inspect',
    });
    if (chosen) {
      setPath(chosen);
      void inspect(chosen);
    }
  };

  return (
    <section className="screen" aria-labelledby="volume-title">
      <h1 id="volume-title">Where should Plumb look?</h1>
      <p className="lede">
        Pick a folder on the disk you want to know about. Plumb reads what the system says about its
        volume — file system, free space, block size and bus — before any test writes a byte.
      </p>
      <form className="path-form" onSubmit={onSubmit}>
        <label htmlFor={inputId} className="visually-hidden">
          Folder path
        </label>
        <input
          id={inputId}
          className="path-input"
          type="text"
          spellCheck={false}
          autoComplete="off"
          placeholder={about ? about.homeDir : '/path/to/folder'}
          value={path}
          onChange={(event) => setPath(event.target.value)}
        />
        {client.transport === 'electron' ? (
          <button type="button" className="button" onClick={() => void choose()}>
            Choose…
          </button>
        ) : null}
        <button type="submit" className="button button-primary" disabled={state.kind === 'loading'}>
          Inspect
        </button>
      </form>
      <div className="result-area" aria-live="polite">
        {state.kind === 'idle' ? (
          <p className="empty-state">
            Tip: start with your home folder{about ? ` (${about.homeDir})` : ''}, or the folder of
            an external SSD.
          </p>
        ) : null}
        {state.kind === 'loading' ? <p className="muted">Reading {state.path}…</p> : null}
        {state.kind === 'error' ? (
          <div className="banner banner-error" role="alert">
            {state.message}
          </div>
        ) : null}
        {state.kind === 'done' ? <VolumeCard info={state.info} /> : null}
      </div>
    </section>
  );
}

function VolumeCard({ info }: { info: VolumeInfo }) {
  const used = info.totalBytes > 0 ? 1 - info.freeBytes / info.totalBytes : 0;
  const rows: [string, string][] = [
    ['File system', info.fsType ?? 'Unknown'],
    ['Mount point', info.mountPoint ?? 'Unknown'],
    ['Device', info.device ?? 'Unknown'],
    ['Block size', `${info.blockSize.toLocaleString()} bytes`],
    [
      'Direct I/O alignment',
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
        <div className="space-figures">
          <div>
            <span className="figure" data-testid="free-bytes">
              {formatBytes(info.availableBytes)}
            </span>
            <span className="figure-label">available</span>
          </div>
          <div>
            <span className="figure">{formatBytes(info.totalBytes)}</span>
            <span className="figure-label">total</span>
          </div>
        </div>
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
