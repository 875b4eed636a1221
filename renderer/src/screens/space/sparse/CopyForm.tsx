/** Copies a file keeping its holes. */
import { useState } from 'react';
import type { PlumbClient } from '../../../client.js';
import { formatBytes } from '../../../../../app/common/format.js';
import { ToolCard, ToolField, useToolAction } from './tool-card.js';

export function CopyForm({
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
  const { busy, text, error, fail, act } = useToolAction();

  const submit = () => {
    if (!from.trim() || !to.trim()) return fail('Give the file to copy and where the copy goes.');
    void act(async () => {
      // Pressing Copy confirms both paths shown: the server acts only on chosen paths.
      await client.call('session.choosePath', { path: from.trim() });
      await client.call('session.choosePath', { path: to.trim() });
      const copy = await client.call('space.sparse.copy', { from: from.trim(), to: to.trim() });
      onDone();
      return `Copied to ${copy.path}: ${formatBytes(copy.logicalBytes)} long, ${formatBytes(copy.allocatedBytes)} on disk.`;
    });
  };

  return (
    <ToolCard
      title="Copy keeping holes"
      description="Copies only the data; the holes stay holes in the copy."
      onSubmit={submit}
      text={text}
      error={error}
    >
      <ToolField label="From" placeholder="/path/to/file" value={from} onChange={onFrom} />
      <ToolField label="To" placeholder="/path/to/copy" value={to} onChange={setTo} />
      <button type="submit" className="button" disabled={busy}>
        Copy
      </button>
    </ToolCard>
  );
}
