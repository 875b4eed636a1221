/** The two things to do with a disk, from the Volumes home: test it, or free space on it. */
import { openWithFolder } from '../../session.js';

export function VolumeActions({ name, folder }: { name: string; folder: string }) {
  return (
    <div className="volume-actions">
      <button
        type="button"
        className="button button-primary"
        aria-label={`Test this disk: ${name}`}
        onClick={() => openWithFolder('bench', folder)}
      >
        Test this disk
      </button>
      <button
        type="button"
        className="button"
        aria-label={`Reclaim space here: ${name}`}
        onClick={() => openWithFolder('space', folder)}
      >
        Reclaim space here
      </button>
    </div>
  );
}
