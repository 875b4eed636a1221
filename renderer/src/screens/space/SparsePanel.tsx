/** Sparse files: list them with their data/hole map; create one; punch zeros (opt-in); copy with holes. */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { AppAbout } from '../../../../app/contract/app.js';
import type {
  PunchReport,
  SparseFile,
  SparseListProgress,
} from '../../../../app/contract/space.js';
import type { PlumbClient } from '../../client.js';
import { formatBytes } from '../../format.js';
import { parseSizeInput } from '../bench/measure-format.js';
import { sparseProgressFigures } from './duplicates-view.js';
import { SparseCandidates } from './SparseCandidates.js';
import { FolderField } from './FolderField.js';
import { holeMapLabel, holeMapSegments, sparseSaving } from './hole-map.js';
import { ProgressCard } from './ProgressCard.js';

type ListState =
  | { kind: 'idle' }
  | { kind: 'loading'; path: string; listId: string; progress: SparseListProgress | null }
  | { kind: 'done'; path: string; files: SparseFile[] }
  | { kind: 'cancelled'; path: string }
  | { kind: 'error'; message: string };

/** An id for a listing, so its progress can be told apart and it can be cancelled. */
function newListId(): string {
  return (
    globalThis.crypto?.randomUUID?.() ?? `${Date.now()}-${Math.random().toString(36).slice(2)}`
  );
}

export function SparsePanel({ client, about }: { client: PlumbClient; about: AppAbout | null }) {
  const [list, setList] = useState<ListState>({ kind: 'idle' });
  const [punchPath, setPunchPath] = useState('');
  const [copyFrom, setCopyFrom] = useState('');
  const listIdRef = useRef<string | null>(null);

  useEffect(
    () =>
      client.on('space.sparse.progress', (progress) => {
        if (progress.listId !== listIdRef.current) return;
        setList((s) =>
          s.kind === 'loading' && s.listId === progress.listId ? { ...s, progress } : s,
        );
      }),
    [client],
  );
  // Leaving the tab stops a listing nobody will see.
  useEffect(
    () => () => {
      const listId = listIdRef.current;
      if (listId) client.call('space.sparse.cancel', { listId }).catch(() => undefined);
    },
    [client],
  );

  const load = async (path: string) => {
    if (!path) {
      setList({ kind: 'error', message: 'Type the path of a folder to list its sparse files.' });
      return;
    }
    const listId = newListId();
    listIdRef.current = listId;
    setList({ kind: 'loading', path, listId, progress: null });
    // Only the latest listing may change what is shown.
    const settle = (next: ListState) => {
      if (listIdRef.current !== listId) return;
      listIdRef.current = null;
      setList(next);
    };
    try {
      const files = await client.call('space.sparse.list', { path, listId });
      settle({ kind: 'done', path, files });
    } catch (error) {
      const { code, message } = error as Error & { code?: string };
      settle(code === 'ECANCELED' ? { kind: 'cancelled', path } : { kind: 'error', message });
    }
  };
  const cancel = async () => {
    if (list.kind !== 'loading') return;
    await client.call('space.sparse.cancel', { listId: list.listId });
  };
  const reload = () => {
    if (list.kind === 'done') void load(list.path);
  };

  return (
    <div className="space-panel">
      <FolderField
        client={client}
        label="Folder to list sparse files in"
        placeholder={about ? about.homeDir : '/path/to/folder'}
        actionLabel="List sparse files"
        busy={list.kind === 'loading'}
        dialogTitle="Choose a folder to list sparse files in"
        onSubmit={(path) => void load(path)}
      />
      <div aria-live="polite">
        {list.kind === 'idle' ? (
          <div className="empty-panel space-empty">
            <h2 className="empty-title">Files with holes</h2>
            <p>
              A sparse file stores only its data: runs it never wrote (holes) take no space. Disk
              images, virtual machines and databases are often sparse. List a folder to see each
              file’s logical size beside what it really takes on disk, or create one below.
            </p>
          </div>
        ) : null}
        {list.kind === 'loading' ? (
          <ProgressCard
            title="Looking for sparse files in"
            path={list.path}
            figures={sparseProgressFigures(list.progress)}
            barLabel="Sparse-file search progress"
            bytesLabel="Looked at"
            cancelLabel="Cancel"
            canCancel
            onCancel={() => void cancel()}
            testIdPrefix="sparse"
          />
        ) : null}
        {list.kind === 'cancelled' ? (
          <p className="empty-state" role="status">
            Stopped looking in {list.path}. Nothing was changed; list it again when you are ready.
          </p>
        ) : null}
        {list.kind === 'error' ? (
          <div className="banner banner-error" role="alert">
            {list.message}
          </div>
        ) : null}
        {list.kind === 'done' && list.files.length === 0 ? (
          <p className="empty-state">
            No sparse files in {list.path}. Create one below, or punch the zeros of a large file
            into holes.
          </p>
        ) : null}
      </div>
      {list.kind === 'done' && list.files.length > 0 ? (
        <section aria-labelledby="sparse-title">
          <h2 id="sparse-title" className="section-title">
            {list.files.length} sparse {list.files.length === 1 ? 'file' : 'files'} in{' '}
            <span className="section-path mono">{list.path}</span>
          </h2>
          <ul className="sparse-list" aria-label="Sparse files">
            {list.files.map((file) => (
              <SparseRow
                key={file.path}
                file={file}
                onPunch={() => setPunchPath(file.path)}
                onCopy={() => setCopyFrom(file.path)}
              />
            ))}
          </ul>
        </section>
      ) : null}
      {list.kind === 'done' ? (
        <SparseCandidates client={client} folder={list.path} onPunch={setPunchPath} />
      ) : null}
      <div className="sparse-tools">
        <CreateForm client={client} onDone={reload} />
        <PunchForm client={client} path={punchPath} onPath={setPunchPath} onDone={reload} />
        <CopyForm client={client} from={copyFrom} onFrom={setCopyFrom} onDone={reload} />
      </div>
    </div>
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

export function HoleMap({ file }: { file: SparseFile }) {
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

function Result({ text, error }: { text: string | null; error: string | null }) {
  if (error)
    return (
      <p className="inline-error" role="alert">
        {error}
      </p>
    );
  return text ? (
    <p className="sparse-result" role="status">
      {text}
    </p>
  ) : null;
}

function CreateForm({ client, onDone }: { client: PlumbClient; onDone: () => void }) {
  const [path, setPath] = useState('');
  const [size, setSize] = useState('1 GB');
  const [busy, setBusy] = useState(false);
  const [text, setText] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const pathId = useId();
  const sizeId = useId();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const bytes = parseSizeInput(size);
    if (!path.trim()) return setError('Give the path of the new file.');
    if (bytes === null) return setError('Give a size such as 10 GB or 512 MiB.');
    setBusy(true);
    setError(null);
    try {
      const file = await client.call('space.sparse.create', { path: path.trim(), bytes });
      setText(
        `Created ${file.path}: ${formatBytes(file.logicalBytes)} long, ${formatBytes(file.allocatedBytes)} on disk.`,
      );
      onDone();
    } catch (cause) {
      setError((cause as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="card sparse-tool"
      onSubmit={(e) => void submit(e)}
      aria-label="Create a sparse file"
    >
      <h3 className="sparse-tool-title">Create a sparse file</h3>
      <p className="muted">A file of the given length that takes almost no space until written.</p>
      <label htmlFor={pathId}>New file</label>
      <input
        id={pathId}
        className="path-input"
        spellCheck={false}
        autoComplete="off"
        placeholder="/path/to/disk.img"
        value={path}
        onChange={(e) => setPath(e.target.value)}
      />
      <label htmlFor={sizeId}>Length</label>
      <input
        id={sizeId}
        className="path-input"
        value={size}
        onChange={(e) => setSize(e.target.value)}
      />
      <button type="submit" className="button" disabled={busy}>
        Create
      </button>
      <Result text={text} error={error} />
    </form>
  );
}

function PunchForm({
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
  const [busy, setBusy] = useState(false);
  const [text, setText] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const pathId = useId();
  const agreeId = useId();

  const run = async (apply: boolean) => {
    if (!path.trim()) return setError('Give the path of a file.');
    setBusy(true);
    setError(null);
    try {
      const report = await client.call('space.sparse.punch', { path: path.trim(), apply });
      if (apply) {
        setText(
          `Done: ${report.path} now takes ${formatBytes(report.allocatedAfter)} on disk (was ${formatBytes(report.allocatedBefore)}).`,
        );
        setCheck(null);
        setUnderstood(false);
        onDone();
      } else {
        setCheck(report);
        setText(null);
      }
    } catch (cause) {
      setError((cause as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="card sparse-tool"
      onSubmit={(e) => {
        e.preventDefault();
        void run(false);
      }}
      aria-label="Punch zeros into holes"
    >
      <h3 className="sparse-tool-title">Punch zeros into holes</h3>
      <p className="muted">Finds whole blocks of zeros and frees them. Checking changes nothing.</p>
      <label htmlFor={pathId}>File</label>
      <input
        id={pathId}
        className="path-input"
        spellCheck={false}
        autoComplete="off"
        placeholder="/path/to/file"
        value={path}
        onChange={(e) => {
          onPath(e.target.value);
          setCheck(null);
          setUnderstood(false);
        }}
      />
      <button type="submit" className="button" disabled={busy}>
        Check for zeros
      </button>
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
            onClick={() => void run(true)}
          >
            Punch holes
          </button>
        </div>
      ) : null}
      <Result text={text} error={error} />
    </form>
  );
}

function CopyForm({
  client,
  from,
  onFrom,
  onDone,
}: {
  client: PlumbClient;
  from: string;
  onFrom: (path: string) => void;
  onDone: () => void;
}) {
  const [to, setTo] = useState('');
  const [busy, setBusy] = useState(false);
  const [text, setText] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const fromId = useId();
  const toId = useId();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!from.trim() || !to.trim())
      return setError('Give the file to copy and where the copy goes.');
    setBusy(true);
    setError(null);
    try {
      const copy = await client.call('space.sparse.copy', { from: from.trim(), to: to.trim() });
      setText(
        `Copied to ${copy.path}: ${formatBytes(copy.logicalBytes)} long, ${formatBytes(copy.allocatedBytes)} on disk.`,
      );
      onDone();
    } catch (cause) {
      setError((cause as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="card sparse-tool"
      onSubmit={(e) => void submit(e)}
      aria-label="Copy keeping holes"
    >
      <h3 className="sparse-tool-title">Copy keeping holes</h3>
      <p className="muted">Copies only the data; the holes stay holes in the copy.</p>
      <label htmlFor={fromId}>From</label>
      <input
        id={fromId}
        className="path-input"
        spellCheck={false}
        autoComplete="off"
        placeholder="/path/to/file"
        value={from}
        onChange={(e) => onFrom(e.target.value)}
      />
      <label htmlFor={toId}>To</label>
      <input
        id={toId}
        className="path-input"
        spellCheck={false}
        autoComplete="off"
        placeholder="/path/to/copy"
        value={to}
        onChange={(e) => setTo(e.target.value)}
      />
      <button type="submit" className="button" disabled={busy}>
        Copy
      </button>
      <Result text={text} error={error} />
    </form>
  );
}
