/**
 * Scenarios as documents: open a saved scenario or an example, save, duplicate and delete, and
 * import or export the JSON file `plumb plan` reads (the core parses and writes it; this only
 * reads the picked file's text and offers the exported text as a download).
 */
import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import type { ExampleScenario, SavedScenario, Scenario } from '../../../../app/contract/planner.js';
import type { PlumbClient } from '../../client.js';

export interface ScenarioFilesProps {
  client: PlumbClient;
  /** The scenario on screen, with the user's devices its options use. */
  scenario: Scenario;
  /** The saved scenario on screen, if it came from or went to the list. */
  currentId: string | null;
  /** Whether what is on screen differs from what was last saved or opened. */
  dirty: boolean;
  onOpen: (scenario: Scenario, id: string | null) => void;
  onSaved: (id: string | null) => void;
  onRename: (name: string) => void;
}

export function ScenarioFiles({
  client,
  scenario,
  currentId,
  dirty,
  onOpen,
  onSaved,
  onRename,
}: ScenarioFilesProps) {
  const [saved, setSaved] = useState<SavedScenario[]>([]);
  const [examples, setExamples] = useState<ExampleScenario[]>([]);
  const [status, setStatus] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [working, setWorking] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const openId = useId();
  const nameId = useId();
  const nameProblem = scenario.name.trim() === '' ? 'Give the scenario a name to save it.' : null;
  const titleId = useId();

  useEffect(() => {
    let cancelled = false;
    client.call('planner.scenarios.list', {}).then(
      (list) => {
        if (cancelled) return;
        setSaved(list.saved);
        setExamples(list.examples);
      },
      (caught: Error) => !cancelled && setFailure(caught.message),
    );
    return () => {
      cancelled = true;
    };
  }, [client]);

  /** Runs one action, shows its sentence or its error. */
  const act = async (work: () => Promise<string>) => {
    setWorking(true);
    setFailure(null);
    try {
      setStatus(await work());
    } catch (caught) {
      setStatus(null);
      setFailure((caught as Error).message);
    } finally {
      setWorking(false);
    }
  };

  const open = (value: string) =>
    act(async () => {
      const [from, id] = value.split(':', 2) as ['saved' | 'example', string];
      const reply = await client.call('planner.scenarios.open', { from, id });
      onOpen(reply.scenario, from === 'saved' ? id : null);
      return `Opened ${reply.scenario.name}.`;
    });
  /** Saves over the open scenario, or as a new one (`asNew`, or when none is open). */
  const save = (asNew: boolean) =>
    act(async () => {
      const over = !asNew && currentId && saved.some((s) => s.id === currentId);
      const reply = await client.call('planner.scenarios.save', {
        ...(over ? { id: currentId } : {}),
        scenario,
      });
      setSaved(reply.saved);
      onSaved(reply.entry.id);
      // The line below names the saved scenario; this only says what was done.
      return over ? 'Changes saved.' : 'Saved as a new scenario.';
    });
  const duplicate = (id: string) =>
    act(async () => {
      const reply = await client.call('planner.scenarios.duplicate', { id });
      setSaved(reply.saved);
      const { scenario: copy } = await client.call('planner.scenarios.open', {
        from: 'saved',
        id: reply.entry.id,
      });
      onOpen(copy, reply.entry.id);
      return `Saved a copy: ${reply.entry.name}.`;
    });
  const remove = (id: string) =>
    act(async () => {
      const name = saved.find((s) => s.id === id)?.name ?? id;
      const reply = await client.call('planner.scenarios.delete', { id });
      setSaved(reply.saved);
      onSaved(null);
      return `Deleted ${name}. What is on screen stays until you open another.`;
    });
  const importFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    void act(async () => {
      const reply = await client.call('planner.scenarios.import', {
        text: await file.text(),
        fileName: file.name,
      });
      setSaved(reply.saved);
      onOpen(reply.scenario, reply.entry.id);
      return `Imported ${file.name} as ${reply.entry.name}.`;
    });
  };
  const exportFile = () =>
    act(async () => {
      const reply = await client.call('planner.scenarios.export', { scenario });
      const url = URL.createObjectURL(new Blob([reply.text], { type: 'application/json' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = reply.fileName;
      link.click();
      // The download has started by now; the URL is no longer needed.
      window.setTimeout(() => URL.revokeObjectURL(url), 1000);
      return `Exported ${reply.fileName}: open it with plumb plan ${reply.fileName}.`;
    });

  const current = saved.find((s) => s.id === currentId);
  return (
    <section className="plan-files" aria-labelledby={titleId}>
      <h2 id={titleId} className="visually-hidden">
        Scenarios
      </h2>
      <div className="plan-files-row">
        <label htmlFor={openId}>Open</label>
        <select
          id={openId}
          value=""
          disabled={working}
          onChange={(event) => event.target.value && void open(event.target.value)}
        >
          <option value="">Choose a scenario…</option>
          {saved.length > 0 ? (
            <optgroup label="Saved">
              {saved.map((s) => (
                <option key={s.id} value={`saved:${s.id}`}>
                  {s.name}
                </option>
              ))}
            </optgroup>
          ) : null}
          <optgroup label="Examples">
            {examples.map((e) => (
              <option key={e.id} value={`example:${e.id}`}>
                {e.name}
              </option>
            ))}
          </optgroup>
        </select>
        <label htmlFor={nameId}>Name</label>
        <input
          id={nameId}
          type="text"
          className="plan-files-name"
          value={scenario.name}
          maxLength={120}
          aria-invalid={nameProblem ? true : undefined}
          onChange={(event) => onRename(event.target.value)}
        />
        <button
          type="button"
          className="button"
          disabled={working || nameProblem !== null || (current !== undefined && !dirty)}
          onClick={() => void save(false)}
        >
          Save
        </button>
        {current ? (
          <button
            type="button"
            className="button"
            disabled={working || nameProblem !== null}
            onClick={() => void save(true)}
          >
            Save as new
          </button>
        ) : null}
        <button
          type="button"
          className="button"
          disabled={working || !current}
          onClick={() => current && void duplicate(current.id)}
        >
          Duplicate
        </button>
        <button
          type="button"
          className="button plan-remove"
          disabled={working || !current}
          onClick={() => current && void remove(current.id)}
        >
          Delete
        </button>
        <button
          type="button"
          className="button"
          disabled={working}
          onClick={() => fileInput.current?.click()}
        >
          Import file…
        </button>
        <input
          ref={fileInput}
          type="file"
          accept=".json,application/json"
          hidden
          aria-label="Scenario file to import"
          onChange={importFile}
        />
        <button
          type="button"
          className="button"
          disabled={working}
          onClick={() => void exportFile()}
        >
          Export file
        </button>
      </div>
      <p className="muted plan-files-status" role="status" data-testid="plan-current">
        {current
          ? `Open: ${current.name}${dirty ? ', with unsaved changes' : ', saved'}.`
          : 'Not saved yet.'}
        {status ? ` ${status}` : ''}
        {nameProblem ? ` ${nameProblem}` : ''}
      </p>
      {failure ? (
        <div className="banner banner-error" role="alert">
          {failure}
        </div>
      ) : null}
    </section>
  );
}
