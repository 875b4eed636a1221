import { serve } from '../../web/server.js';
import { openInBrowser } from '../open-browser.js';
import { parseCommandArgs } from '../args.js';
import { exitCode, UsageError, type Command } from '../command.js';

/** How long the link handed to the browser launcher stays good (it is also spent on first use). */
export const openLinkLifetimeMs = 60_000;

export const serveCommand: Command = {
  name: 'serve',
  usage: 'plumb serve [--port N] [--open]',
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(
      args,
      { port: { type: 'string', short: 'p' }, open: { type: 'boolean' } },
      'serve',
    );
    if (values.help) {
      io.stdout.write(
        `Usage: ${this.usage}\n  --port N  listen on port N (default: a free port)\n  --open    open the default browser\n`,
      );
      return exitCode.ok;
    }
    if (positionals.length > 0)
      throw new UsageError(`Unexpected argument "${positionals[0]}". See \`plumb serve --help\`.`);
    const port = values.port === undefined ? 0 : Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      throw new UsageError(`--port must be a whole number from 0 to 65535, not "${values.port}".`);
    }
    const server = await serve({ port, context: await io.context() });
    // Each printed link signs in one browser once; when it is used, the next one is printed.
    const nextLink = (): string => server.signInUrl({ onUsed: printNextLink });
    const printNextLink = () =>
      io.stdout.write(`A browser signed in. To sign in another, open ${nextLink()}\n`);
    io.stdout.write(`Plumb is running at ${nextLink()}\nPress Ctrl-C to stop.\n`);
    // The launcher's command line is visible to every local user (ps), so it gets a link of its
    // own that works once and only for a minute.
    if (values.open)
      openInBrowser(server.signInUrl({ expiresInMs: openLinkLifetimeMs }), io.stderr);
    await new Promise<void>((resolve) =>
      io.signal.addEventListener('abort', () => resolve(), { once: true }),
    );
    await server.close();
    return exitCode.ok;
  },
};
