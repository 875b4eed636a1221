import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './command.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/** node:util parseArgs, with its errors turned into one-line usage errors. */
export function parseCommandArgs<O extends Options>(args: string[], options: O, command: string) {
  try {
    return parseArgs({
      args,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    const message = (error as Error).message.replace(/\. To specify.*$/s, '.');
    throw new UsageError(`${message} See \`plumb ${command} --help\`.`);
  }
}
