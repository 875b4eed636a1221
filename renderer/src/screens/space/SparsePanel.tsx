/** Sparse files: list them with their data/hole map; create one; punch zeros (opt-in); copy with holes. */
import { useRef, useState } from 'react';
import type { AppAbout } from '../../../../app/contract/app.js';
import type { PlumbClient } from '../../client.js';
import { sparseProgressFigures } from './duplicates-view.js';
import { SparseCandidates } from './SparseCandidates.js';
import { FolderField } from './FolderField.js';
import { ProgressCard } from './ProgressCard.js';
import { CopyForm } from './sparse/CopyForm.js';
import { CreateForm } from './sparse/CreateForm.js';
import { PunchForm } from './sparse/PunchForm.js';
import { SparseList } from './sparse/SparseList.js';
import { useSparseListing } from './sparse/use-sparse-listing.js';

export function SparsePanel({ client, about }: { client: PlumbClient; about: AppAbout | null }) {
  const { list, load, cancel, reload } = useSparseListing(client);
  const [punchPath, setPunchPath] = useState('');
  const [copyFrom, setCopyFrom] = useState('');
  const punchTool = useRef<HTMLDivElement>(null);
  const copyTool = useRef<HTMLDivElement>(null);
  /**
   * A file's "Punch…" or "Copy…" fills its tool further down: the tool is brought into view and its
   * first button takes the focus, so the user sees where the file went and what to press next.
   */
  const offer = (tool: typeof punchTool, fill: (path: string) => void) => (path: string) => {
    fill(path);
    window.requestAnimationFrame(() => {
      tool.current?.scrollIntoView({ block: 'center', behavior: 'smooth' });
      tool.current?.querySelector<HTMLButtonElement>('button[type="submit"]')?.focus({
        preventScroll: true,
      });
    });
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
        {list.kind === 'done' && list.result.length === 0 ? (
          <p className="empty-state">
            No sparse files in {list.path}. Create one below, or punch the zeros of a large file
            into holes.
          </p>
        ) : null}
      </div>
      {list.kind === 'done' && list.result.length > 0 ? (
        <SparseList
          path={list.path}
          files={list.result}
          onPunch={offer(punchTool, setPunchPath)}
          onCopy={offer(copyTool, setCopyFrom)}
        />
      ) : null}
      {list.kind === 'done' ? (
        <SparseCandidates
          client={client}
          folder={list.path}
          onPunch={offer(punchTool, setPunchPath)}
        />
      ) : null}
      <div className="sparse-tools">
        <CreateForm client={client} onDone={reload} />
        <div ref={punchTool} className="sparse-tool-slot">
          <PunchForm client={client} path={punchPath} onPath={setPunchPath} onDone={reload} />
        </div>
        <div ref={copyTool} className="sparse-tool-slot">
          <CopyForm client={client} from={copyFrom} onFrom={setCopyFrom} onDone={reload} />
        </div>
      </div>
    </div>
  );
}
