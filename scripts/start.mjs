// `npm start`: the desktop app where Electron is installed; otherwise web mode in the default
// browser (the URL is printed too, for machines without one).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

function electronBinary() {
  try {
    const binary = require('electron');
    return typeof binary === 'string' ? binary : undefined;
  } catch {
    return undefined;
  }
}

const binary = electronBinary();
const [command, args] = binary
  ? [binary, [root]]
  : [
      process.execPath,
      [path.join(root, 'bin', 'plumb.js'), 'serve', '--open', ...process.argv.slice(2)],
    ];
if (!binary) console.log('Electron is not installed here, so Plumb opens in your browser instead.');
const child = spawn(command, args, { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
