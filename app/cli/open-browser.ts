import { spawn } from 'node:child_process';

/** Opens a URL in the default browser, if the system has a way to; says so when it has none. */
export function openInBrowser(url: string, stderr: NodeJS.WritableStream): void {
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url]]
        : ['xdg-open', [url]];
  const child = spawn(command, args, { stdio: 'ignore', detached: true });
  child.on('error', () => stderr.write('No default browser found: open the URL above yourself.\n'));
  child.unref();
}
