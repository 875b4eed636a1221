/** A folder typed (browser) or picked with the system dialog (desktop), then acted on. */
import { useId, useState, type FormEvent } from 'react';
import type { PlumbClient } from '../../client.js';
import { useFolderOffer, type FolderTarget } from '../../session.js';

export function FolderField({
  client,
  label,
  placeholder,
  actionLabel,
  busy,
  dialogTitle,
  offered,
  onSubmit,
}: {
  client: PlumbClient;
  label: string;
  placeholder: string;
  actionLabel: string;
  busy: boolean;
  dialogTitle: string;
  /** A folder handed over from another section: fills the field (the user still presses the action). */
  offered?: FolderTarget;
  onSubmit: (path: string) => void;
}) {
  const [path, setPath] = useState('');
  const inputId = useId();
  useFolderOffer(offered ?? null, setPath);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(path.trim());
  };

  const choose = async () => {
    const { path: chosen } = await client.call('dialog.chooseFolder', { title: dialogTitle });
    if (chosen) {
      setPath(chosen);
      onSubmit(chosen);
    }
  };

  return (
    <form className="space-folder" onSubmit={submit}>
      <label htmlFor={inputId} className="space-folder-label">
        {label}
      </label>
      <div className="path-form">
        <input
          id={inputId}
          className="path-input"
          type="text"
          spellCheck={false}
          autoComplete="off"
          placeholder={placeholder}
          value={path}
          onChange={(event) => setPath(event.target.value)}
        />
        {client.transport === 'electron' ? (
          <button type="button" className="button" onClick={() => void choose()} disabled={busy}>
            Choose…
          </button>
        ) : null}
        <button type="submit" className="button button-primary" disabled={busy}>
          {actionLabel}
        </button>
      </div>
    </form>
  );
}
