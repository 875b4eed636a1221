/** One saved result: its verdict, with rename, export and delete. */
import { useEffect, useId, useState, type FormEvent } from 'react';
import type { ResultDocument } from '../../../../app/contract/bench-result.js';
import type { Plan } from '../../../../app/contract/plan.js';
import { QuickRunBanner } from './QuickRunBanner.js';
import type { PlumbClient } from '../../client.js';
import { ExportPdfButton } from '../../report/ExportPdfButton.js';
import { resultTitle } from '../../ui/result/compare.js';
import { saveTextFile } from '../../ui/download.js';
import { gridTestOf } from '../../ui/result/grid-copy.js';
import { GridSourceContext } from '../../ui/result/PresetsGridView.js';
import { Verdict } from '../../ui/result/Verdict.js';

type Load =
  | { kind: 'loading' }
  | { kind: 'ready'; document: ResultDocument }
  | { kind: 'error'; message: string };

export function ResultActions({
  client,
  document,
  onRenamed,
  onDeleted,
}: {
  client: PlumbClient;
  document: ResultDocument;
  onRenamed: (name: string) => void;
  onDeleted: () => void;
}) {
  const [mode, setMode] = useState<'idle' | 'rename' | 'delete'>('idle');
  const [name, setName] = useState(document.name ?? '');
  const [error, setError] = useState<string | null>(null);
  const nameId = useId();

  const rename = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const item = await client.call('results.rename', { id: document.id, name });
      onRenamed(item.name ?? name);
      setMode('idle');
      setError(null);
    } catch (cause) {
      setError((cause as Error).message);
    }
  };
  const remove = async () => {
    try {
      await client.call('results.delete', { id: document.id });
      onDeleted();
    } catch (cause) {
      setError((cause as Error).message);
    }
  };
  const exportCsv = async () => {
    try {
      const { fileName, csv } = await client.call('results.exportCsv', { id: document.id });
      saveTextFile(fileName, csv, 'text/csv');
    } catch (cause) {
      setError((cause as Error).message);
    }
  };

  return (
    <div className="action-bar">
      {mode === 'rename' ? (
        <form className="inline-form" onSubmit={(event) => void rename(event)}>
          <label htmlFor={nameId} className="visually-hidden">
            Name of this result
          </label>
          <input
            id={nameId}
            className="text-input"
            value={name}
            placeholder={resultTitle({ ...document, name: undefined })}
            onChange={(event) => setName(event.target.value)}
            autoFocus
            maxLength={200}
          />
          <button
            type="submit"
            className="button button-primary button-small"
            disabled={!name.trim()}
          >
            Save name
          </button>
          <button type="button" className="button button-small" onClick={() => setMode('idle')}>
            Cancel
          </button>
        </form>
      ) : mode === 'delete' ? (
        <div className="inline-form" role="group" aria-label="Confirm delete">
          <span className="confirm-text">Delete this result for good?</span>
          <button
            type="button"
            className="button button-danger button-small"
            onClick={() => void remove()}
          >
            Delete
          </button>
          <button type="button" className="button button-small" onClick={() => setMode('idle')}>
            Keep
          </button>
        </div>
      ) : (
        <>
          <button type="button" className="button button-small" onClick={() => setMode('rename')}>
            Rename
          </button>
          <button
            type="button"
            className="button button-small"
            onClick={() =>
              saveTextFile(
                `plumb-${document.id}.json`,
                `${JSON.stringify(document, null, 2)}\n`,
                'application/json',
              )
            }
          >
            Export JSON
          </button>
          <button type="button" className="button button-small" onClick={() => void exportCsv()}>
            Export CSV
          </button>
          <ExportPdfButton client={client} request={{ kind: 'result', id: document.id }} />
          <button
            type="button"
            className="button button-small button-quiet-danger"
            onClick={() => setMode('delete')}
          >
            Delete…
          </button>
        </>
      )}
      {error ? (
        <p className="inline-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function ResultDetail({
  client,
  id,
  onBack,
  onDeleted,
}: {
  client: PlumbClient;
  id: string;
  onBack: () => void;
  onDeleted: () => void;
}) {
  const [load, setLoad] = useState<Load>({ kind: 'loading' });
  useEffect(() => {
    let live = true;
    client.call('results.get', { id }).then(
      (document) => live && setLoad({ kind: 'ready', document }),
      (error: Error) => live && setLoad({ kind: 'error', message: error.message }),
    );
    return () => {
      live = false;
    };
  }, [client, id]);

  return (
    <div className="result-detail">
      <button type="button" className="back-link" onClick={onBack}>
        ← All results
      </button>
      {load.kind === 'loading' ? <p className="muted">Opening the result…</p> : null}
      {load.kind === 'error' ? (
        <div className="banner banner-error" role="alert">
          {load.message}
        </div>
      ) : null}
      {load.kind === 'ready' ? <QuickRunBanner document={load.document} /> : null}
      {load.kind === 'ready' ? (
        <GridSourceContext.Provider
          value={{
            volume: load.document.environment.volume.path,
            startedAt: load.document.startedAt,
            test: gridTestOf(load.document.plan as Plan | null),
          }}
        >
          <Verdict
            document={load.document}
            actions={
              <ResultActions
                client={client}
                document={load.document}
                onRenamed={(name) =>
                  setLoad({ kind: 'ready', document: { ...load.document, name } })
                }
                onDeleted={onDeleted}
              />
            }
          />
        </GridSourceContext.Provider>
      ) : null}
    </div>
  );
}
