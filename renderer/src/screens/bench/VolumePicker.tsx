/** The target: one of the mounted volumes, or any folder typed (or picked, in the desktop app). */
import { useEffect, useId, useState, type FormEvent } from 'react';
import type { AppAbout } from '../../../../app/contract/app.js';
import type { VolumeInfo } from '../../../../app/contract/volume.js';
import type { MountedVolume } from '../../../../app/contract/volumes.js';
import type { PlumbClient } from '../../client.js';
import { hasFolderOffer, lastFolder, useFolderOffer } from '../../session.js';
import { folderFor, mediumText } from '../../ui/volume-text.js';
import { freeSpaceText } from '../../ui/free-space.js';
import { useRefreshTick } from '../../ui/use-refresh-tick.js';

/** A folder to test and what the system says about its volume. */
export interface Target {
  path: string;
  info: VolumeInfo;
}

export function VolumePicker({
  client,
  about,
  volumes,
  volumesError,
  target,
  onTarget,
  onTargetRead,
}: {
  client: PlumbClient;
  about: AppAbout | null;
  volumes: MountedVolume[] | null;
  volumesError: string | null;
  target: Target | null;
  onTarget: (target: Target | null) => void;
  /** The chosen folder's volume read again (its free space): no new choice, nothing reset. */
  onTargetRead: (target: Target) => void;
}) {
  const [folder, setFolder] = useState('');
  const [checking, setChecking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const folderId = useId();
  const mounts = (volumes ?? []).map((v) => v.mountPoint).filter((m): m is string => m !== null);

  const useFolder = async (path: string, quiet = false) => {
    const trimmed = path.trim();
    if (!trimmed) {
      setError('Type the path of a folder on the disk you want to test.');
      onTarget(null);
      return;
    }
    setChecking(true);
    try {
      // The folder typed, picked or offered here is one the user chose: the server answers for
      // no other.
      await client.call('session.choosePath', { path: trimmed });
      const info = await client.call('volume.info', { path: trimmed });
      if (info.readOnly)
        throw new Error(`${info.path} is on a read-only volume: Plumb needs to write there.`);
      onTarget({ path: info.path, info });
      setFolder(info.path);
      setError(null);
    } catch (cause) {
      if (!quiet) {
        setError((cause as Error).message);
        // The folder asked for is not usable: no test may start on the one chosen before it.
        onTarget(null);
      }
    } finally {
      setChecking(false);
    }
  };

  // The chosen disk's free space is read again whenever it may have changed (see
  // useRefreshTick): the fit advice and estimates must not use space since freed or filled.
  const tick = useRefreshTick();
  const targetPath = target?.path ?? null;
  useEffect(() => {
    if (tick === 0 || targetPath === null) return;
    let live = true;
    client.call('volume.info', { path: targetPath }).then(
      (info) => live && onTargetRead({ path: targetPath, info }),
      () => undefined, // a folder gone since is said when the test starts
    );
    return () => {
      live = false;
    };
    // onTargetRead is the parent's setter; the tick and the folder decide when to read again.
  }, [client, tick, targetPath]);

  // "Test this disk" on Volumes hands its folder here; otherwise the last folder tested, if any.
  useFolderOffer('bench', (path) => {
    setFolder(path);
    void useFolder(path);
  });
  useEffect(() => {
    const last = hasFolderOffer('bench') || target ? null : lastFolder();
    if (last) {
      setFolder(last);
      void useFolder(last, true);
    }
    // Once, when the section opens: later changes are the user's.
  }, []);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void useFolder(folder);
  };

  const choose = async () => {
    const { path } = await client.call('dialog.chooseFolder', {
      title: 'Choose a folder to test in',
    });
    if (path) {
      setFolder(path);
      void useFolder(path);
    }
  };

  return (
    <div className="volume-picker">
      {volumes === null ? <p className="muted volumes-loading">Looking for disks…</p> : null}
      {volumesError ? <p className="inline-error">{volumesError}</p> : null}
      {volumes && volumes.length > 0 ? (
        <div className="choice-grid volume-grid" role="radiogroup" aria-label="Volume">
          {volumes.map((volume) => {
            const used = volume.totalBytes > 0 ? 1 - volume.availableBytes / volume.totalBytes : 0;
            const selected = target !== null && target.info.mountPoint === volume.mountPoint;
            return (
              <label key={volume.mountPoint ?? volume.path} className="choice volume-choice">
                <input
                  type="radio"
                  name="volume"
                  className="visually-hidden"
                  checked={selected}
                  disabled={volume.readOnly === true}
                  onChange={() => {
                    const path = folderFor(volume, about?.homeDir, mounts);
                    setFolder(path);
                    setError(null);
                    onTarget({ path, info: volume });
                  }}
                />
                <span className="choice-body">
                  <span className="volume-top">
                    <span className="choice-title">{volume.name}</span>
                    <span className="fs-badge">{volume.fsType ?? '?'}</span>
                  </span>
                  <span className="choice-detail mono">{volume.mountPoint}</span>
                  <span className="choice-text">{mediumText(volume)}</span>
                  <span className="mini-meter" aria-hidden="true">
                    <span
                      className="mini-meter-fill"
                      style={{ width: `${Math.min(100, used * 100)}%` }}
                    />
                  </span>
                  <span className="choice-detail">{freeSpaceText(volume)}</span>
                </span>
              </label>
            );
          })}
        </div>
      ) : null}
      <div className="folder-row">
        <label htmlFor={folderId} className="folder-label">
          Test files go in
        </label>
        <input
          id={folderId}
          className="path-input"
          type="text"
          spellCheck={false}
          autoComplete="off"
          placeholder={about ? `${about.homeDir} or any folder` : '/path/to/folder'}
          value={folder}
          onChange={(event) => setFolder(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') onSubmit(event);
          }}
        />
        {client.transport === 'electron' ? (
          <button type="button" className="button" onClick={() => void choose()}>
            Choose…
          </button>
        ) : null}
        <button
          type="button"
          className="button"
          disabled={checking}
          onClick={() => void useFolder(folder)}
        >
          Use this folder
        </button>
      </div>
      {error ? (
        <p className="inline-error" role="alert">
          {error}
        </p>
      ) : target ? (
        <p className="target-note muted">
          Plumb writes into a new folder inside <code>{target.path}</code> and removes it when the
          test ends.
        </p>
      ) : (
        <p className="target-note muted">
          Pick a disk above, or type a folder and choose “Use this folder”.
        </p>
      )}
    </div>
  );
}
