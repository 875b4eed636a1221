/** The Space view: duplicates into clones, and sparse files, on two tabs that keep their state. */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { AppAbout } from '../../../../app/contract/app.js';
import type { PlumbClient } from '../../client.js';
import { useFolderOfferSerial } from '../../session.js';
import { DuplicatesPanel } from './DuplicatesPanel.js';
import { SparsePanel } from './SparsePanel.js';
import '../../ui/ui.css';
import './space.css';

const tabs = [
  { id: 'duplicates', title: 'Duplicates' },
  { id: 'sparse', title: 'Sparse files' },
] as const;
type TabId = (typeof tabs)[number]['id'];

export function SpaceScreen({ client, about }: { client: PlumbClient; about: AppAbout | null }) {
  const [tab, setTab] = useState<TabId>('duplicates');
  const baseId = useId();
  const tabRefs = useRef<(HTMLButtonElement | null)[]>([]);
  // "Reclaim space here" on Volumes fills the Duplicates folder: show that tab.
  const offered = useFolderOfferSerial('space');
  useEffect(() => {
    if (offered) setTab('duplicates');
  }, [offered]);

  const onKeyDown = (event: KeyboardEvent, index: number) => {
    const step =
      event.key === 'ArrowRight'
        ? 1
        : event.key === 'ArrowLeft'
          ? -1
          : event.key === 'Home'
            ? -index
            : event.key === 'End'
              ? tabs.length - 1 - index
              : 0;
    if (!step) return;
    event.preventDefault();
    const next = (index + step + tabs.length) % tabs.length;
    setTab(tabs[next]!.id);
    tabRefs.current[next]?.focus();
  };

  return (
    <section className="screen space-screen" aria-labelledby="space-title">
      <h1 id="space-title">Reclaim space</h1>
      <p className="lede">
        Identical copies can share their storage as clones, so each is still a whole file but the
        data is stored once. Plumb shows what that would really free — not the sum of file sizes. On
        disks that can clone, no file is deleted. On disks that cannot, the copies you choose go to
        the Trash, and are deleted for good only when you confirm that as a second step.
      </p>
      <div className="space-tabs" role="tablist" aria-label="Space tools">
        {tabs.map((t, index) => (
          <button
            key={t.id}
            ref={(el) => {
              tabRefs.current[index] = el;
            }}
            type="button"
            role="tab"
            id={`${baseId}-tab-${t.id}`}
            aria-controls={`${baseId}-panel-${t.id}`}
            aria-selected={tab === t.id}
            tabIndex={tab === t.id ? 0 : -1}
            className="space-tab"
            onClick={() => setTab(t.id)}
            onKeyDown={(event) => onKeyDown(event, index)}
          >
            {t.title}
          </button>
        ))}
      </div>
      {tabs.map((t) => (
        <div
          key={t.id}
          role="tabpanel"
          id={`${baseId}-panel-${t.id}`}
          aria-labelledby={`${baseId}-tab-${t.id}`}
          hidden={tab !== t.id}
        >
          {t.id === 'duplicates' ? (
            <DuplicatesPanel client={client} about={about} />
          ) : (
            <SparsePanel client={client} about={about} />
          )}
        </div>
      ))}
    </section>
  );
}
