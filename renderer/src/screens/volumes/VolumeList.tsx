/** The disks the user has, one card each: size, free space, bus, file system, and what to do. */
import type { MountedVolume } from '../../../../app/contract/volumes.js';
import { folderFor, mediumText } from '../../ui/volume-text.js';
import { VolumeActions } from './VolumeActions.js';
import { freeSpaceText } from '../../ui/free-space.js';
import { sharedSpaceText, spaceSiblings } from './shared-space.js';

export function VolumeList({
  volumes,
  homeDir,
}: {
  volumes: MountedVolume[];
  homeDir: string | undefined;
}) {
  const mounts = volumes.map((v) => v.mountPoint).filter((m): m is string => m !== null);
  const siblings = spaceSiblings(volumes);
  return (
    <ul className="volume-list" aria-label="Your disks">
      {volumes.map((volume, index) => {
        const used = volume.totalBytes > 0 ? 1 - volume.availableBytes / volume.totalBytes : 0;
        const shared = sharedSpaceText(siblings[index]!);
        return (
          <li key={volume.mountPoint ?? volume.path} className="card volume-item">
            <div className="volume-top">
              <h2 className="choice-title">{volume.name}</h2>
              <span className="fs-badge" title="File system">
                {volume.fsType ?? 'unknown'}
              </span>
            </div>
            <span className="choice-detail mono">{volume.mountPoint ?? volume.path}</span>
            <span className="choice-text">{mediumText(volume)}</span>
            <span className="mini-meter" aria-hidden="true">
              <span
                className="mini-meter-fill"
                style={{ width: `${Math.min(100, used * 100)}%` }}
              />
            </span>
            <span className="choice-detail" data-testid="volume-space">
              {freeSpaceText(volume)}
            </span>
            {shared ? (
              <span className="choice-detail" data-testid="volume-shared-space">
                {shared}
              </span>
            ) : null}
            {volume.readOnly ? (
              <span className="choice-detail">Read-only: Plumb cannot test or change it.</span>
            ) : (
              <VolumeActions name={volume.name} folder={folderFor(volume, homeDir, mounts)} />
            )}
          </li>
        );
      })}
    </ul>
  );
}
