import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './command.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * node:util parseArgs, with its errors turned into one-line usage errors. Empty values and NUL
 * bytes are refused here for every command: '' would mean the working folder to the file system
 * (`bench ''` ran there) and a NUL cannot be in any path or name.
 */
export function parseCommandArgs<O extends Options>(args: string[], options: O, command: string) {
  const see = `See \`plumb ${command} --help\`.`;
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    const ambiguous = /^Option '(-\w, )?(--[\w-]+)[^']*' argument is ambiguous/.exec(
      (error as Error).message,
    );
    if (ambiguous) {
      // A value starting with a dash, e.g. a negative number: parseArgs explains on three lines.
      const name = ambiguous[2]!;
      throw new UsageError(
        `${name} needs a value; to give one starting with "-", write ${name}=VALUE. ${see}`,
      );
    }
    const message = (error as Error).message
      .replace(/\. To specify.*$/s, '.')
      .replace(/\s*\n\s*/g, ' ');
    throw new UsageError(`${message} ${see}`);
  }
  const values = Object.entries(parsed.values).flatMap(([name, value]) =>
    typeof value === 'string' ? [[`--${name}`, value] as const] : [],
  );
  for (const [name, value] of [
    ...values,
    ...parsed.positionals.map((p) => ['an argument', p] as const),
  ]) {
    if (value === '') throw new UsageError(`${name} is empty; give a path or value. ${see}`);
    if (value.includes('\0')) {
      throw new UsageError(`${name} contains a NUL byte, which no path or name can hold. ${see}`);
    }
  }
  return parsed;
}
