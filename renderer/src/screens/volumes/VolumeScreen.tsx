/**
 * The first screen: the disks the user has, each with what to do next, and any other folder
 * typed (or, in the desktop app, picked) to see its volume.
 */
import { useEffect, useId, useState, type FormEvent } from 'react';
import type { AppAbout } from '../../../../app/contract/app.js';
import type { VolumeInfo } from '../../../../app/contract/volume.js';
import type { MountedVolume } from '../../../../app/contract/volumes.js';
import type { PlumbClient } from '../../client.js';
import { useRefreshTick } from '../../ui/use-refresh-tick.js';
import { VolumeCard } from './VolumeCard.js';
import { VolumeList } from './VolumeList.js';
import '../../ui/ui.css';
import './volumes.css';

type Inspect =
  | { kind: 'idle' }
  | { kind: 'loading'; path: string }
  | { kind: 'done'; info: VolumeInfo }
  | { kind: 'error'; message: string };

type Listing =
  | { kind: 'loading' }
  | { kind: 'done'; volumes: MountedVolume[] }
  | { kind: 'error'; message: string };

export function VolumeScreen({ client, about }: { client: PlumbClient; about: AppAbout | null }) {
  const [listing, setListing] = useState<Listing>({ kind: 'loading' });
  const [path, setPath] = useState('');
  const [inspect, setInspect] = useState<Inspect>({ kind: 'idle' });
  const inputId = useId();

  // Read again whenever free space may have changed (see useRefreshTick), not only once.
  const tick = useRefreshTick();
  useEffect(() => {
    client.call('volumes.list', {}).then(
      ({ volumes }) => setListing({ kind: 'done', volumes }),
      (error: Error) => setListing({ kind: 'error', message: error.message }),
    );
  }, [client, tick]);

  const look = async (target: string) => {
    const trimmed = target.trim();
    if (!trimmed) {
      setInspect({
        kind: 'error',
        message: 'Type the path of a folder, for example your home folder.',
      });
      return;
    }
    setInspect({ kind: 'loading', path: trimmed });
    try {
      // The folder typed (or picked) here is one the user chose: the server answers for no other.
      await client.call('session.choosePath', { path: trimmed });
      setInspect({ kind: 'done', info: await client.call('volume.info', { path: trimmed }) });
    } catch (error) {
      setInspect({ kind: 'error', message: (error as Error).message });
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void look(path);
  };

  const choose = async () => {
    const { path: chosen } = await client.call('dialog.chooseFolder', {
      title: 'Choose a folder on the disk',
    });
    if (chosen) {
      setPath(chosen);
      void look(chosen);
    }
  };

  return (
    <section className="screen" aria-labelledby="volume-title">
      <h1 id="volume-title">Your disks</h1>
      <p className="lede">
        Choose a disk to measure what it really does, or to find space you can get back. Nothing is
        written until you start a test.
      </p>
      {listing.kind === 'loading' ? <p className="muted">Looking for disks…</p> : null}
      {listing.kind === 'error' ? (
        <div className="banner banner-error" role="alert">
          {listing.message}
        </div>
      ) : null}
      {listing.kind === 'done' && listing.volumes.length === 0 ? (
        <p className="empty-state">
          The system listed no disk Plumb can use. Type a folder below to use its disk.
        </p>
      ) : null}
      {listing.kind === 'done' ? (
        <VolumeList volumes={listing.volumes} homeDir={about?.homeDir} />
      ) : null}
      <h2 className="section-title">Another folder</h2>
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
        <button type="submit" className="button" disabled={inspect.kind === 'loading'}>
          Inspect
        </button>
      </form>
      <div className="result-area" aria-live="polite">
        {inspect.kind === 'loading' ? <p className="muted">Reading {inspect.path}…</p> : null}
        {inspect.kind === 'error' ? (
          <div className="banner banner-error" role="alert">
            {inspect.message}
          </div>
        ) : null}
        {inspect.kind === 'done' ? <VolumeCard info={inspect.info} /> : null}
      </div>
    </section>
  );
}
