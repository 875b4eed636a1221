import { volumeInfo } from '../../core/volume.js';
import { formatBytes } from '../../common/format.js';
import { parseCommandArgs } from '../args.js';
import { exitCode, UsageError, type Command } from '../command.js';

function show(value: string | number | boolean | null): string {
  if (value === null) return 'unknown';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return String(value);
}

export const infoCommand: Command = {
  name: 'info',
  usage: 'plumb info DIR [--json]',
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, { json: { type: 'boolean' } }, 'info');
    if (values.help) {
      io.stdout.write(`Usage: ${this.usage}\n`);
      return exitCode.ok;
    }
    if (positionals.length !== 1) throw new UsageError('Give one folder: plumb info DIR');
    const info = await volumeInfo(positionals[0]!);
    if (values.json) {
      io.stdout.write(`${JSON.stringify(info, null, 2)}\n`);
      return exitCode.ok;
    }
    const rows: [string, string][] = [
      ['Folder', info.path],
      ['File system', show(info.fsType)],
      ['Mount point', show(info.mountPoint)],
      ['Device', show(info.device)],
      ['Total', formatBytes(info.totalBytes)],
      ['Free', formatBytes(info.freeBytes)],
      ['Available', formatBytes(info.availableBytes)],
      ['Block size', `${info.blockSize} B`],
      [
        'Uncached I/O block',
        info.directIoAlignment === null ? 'unknown' : `${info.directIoAlignment} B`,
      ],
      ['Bus', show(info.bus)],
      ['Medium', show(info.medium)],
      ['Rotational', show(info.rotational)],
      ['Internal', show(info.internal)],
      ['Clones', show(info.supportsClones)],
      ['Sparse files', show(info.supportsSparse)],
      ['Read-only', show(info.readOnly)],
    ];
    const width = Math.max(...rows.map(([label]) => label.length));
    for (const [label, value] of rows) io.stdout.write(`${label.padEnd(width)}  ${value}\n`);
    return exitCode.ok;
  },
};
