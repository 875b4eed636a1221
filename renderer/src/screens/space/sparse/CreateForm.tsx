/** Creates a sparse file of a given length. */
import { useState } from 'react';
import type { PlumbClient } from '../../../client.js';
import { formatBytes } from '../../../../../app/common/format.js';
import { parseSizeInput } from '../../../../../app/common/units.js';
import { ToolCard, ToolField, useToolAction } from './tool-card.js';

export function CreateForm({ client, onDone }: { client: PlumbClient; onDone: () => void }) {
  const [path, setPath] = useState('');
  const [size, setSize] = useState('1 GB');
  const { busy, text, error, fail, act } = useToolAction();

  const submit = () => {
    const bytes = parseSizeInput(size);
    if (!path.trim()) return fail('Give the path of the new file.');
    if (bytes === null) return fail('Give a size such as 10 GB or 512 MiB.');
    void act(async () => {
      await client.call('session.choosePath', { path: path.trim() });
      const file = await client.call('space.sparse.create', { path: path.trim(), bytes });
      onDone();
      return `Created ${file.path}: ${formatBytes(file.logicalBytes)} long, ${formatBytes(file.allocatedBytes)} on disk.${file.warning ? ` ${file.warning}` : ''}`;
    });
  };

  return (
    <ToolCard
      title="Create a sparse file"
      description="A file of the given length that takes almost no space until written."
      onSubmit={submit}
      text={text}
      error={error}
    >
      <ToolField label="New file" placeholder="/path/to/disk.img" value={path} onChange={setPath} />
      <ToolField label="Length" path={false} value={size} onChange={setSize} />
      <button type="submit" className="button" disabled={busy}>
        Create
      </button>
    </ToolCard>
  );
}
