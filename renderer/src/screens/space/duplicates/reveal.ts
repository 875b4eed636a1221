/** Showing a file: the desktop app opens the file manager at it; a browser cannot, so it copies the path. */
import type { AppAbout } from '../../../../../app/contract/app.js';
import type { PlumbClient } from '../../../client.js';

export function fileRevealer(
  client: PlumbClient,
  about: AppAbout | null,
  onError: (message: string) => void,
) {
  const label =
    client.transport === 'electron'
      ? about?.platform === 'darwin'
        ? 'Show in Finder'
        : about?.platform === 'win32'
          ? 'Show in Explorer'
          : 'Show in Files'
      : 'Copy path';
  const reveal = async (file: string) => {
    try {
      if (client.transport === 'electron') await client.call('dialog.revealPath', { path: file });
      else await navigator.clipboard.writeText(file);
    } catch (error) {
      onError((error as Error).message);
    }
  };
  return { label, reveal };
}
