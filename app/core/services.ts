/**
 * The handlers behind every contract operation. Front doors create one set per connection (so
 * events go back to the caller) and call it through `createDispatcher`.
 */
import type { AppAbout } from '../contract/app.js';
import { PlumbError } from '../contract/errors.js';
import { about } from './about.js';
import type { AppContext } from './context.js';
import { benchHandlers } from './bench/service.js';
import type { Handlers } from './dispatch.js';
import { measuredProfiles } from './planner/measured.js';
import { jobHandlers } from './jobs/service.js';
import { plannerHandlers } from './planner/service.js';
import { reportHandlers, reportSources } from './report/service.js';
import { spaceHandlers } from './space/service.js';
import { guardHandlers, UserChoices } from './user-choices.js';
import { volumeInfo } from './volume.js';
import { listVolumes } from './volumes.js';

/** Handlers a front door supplies itself, because only it can (a native dialog, say). */
export type FrontDoorHandlers = Partial<
  Pick<Handlers, 'dialog.chooseFolder' | 'dialog.revealPath' | 'report.savePdf'>
>;

/**
 * Every handler, on the front door's app context, guarded by what the user chose in this session
 * (one `choices` per Electron app or per browser session; a fresh one, with nothing chosen, when
 * not given).
 */
export function createHandlers(
  context: AppContext,
  transport: AppAbout['transport'],
  frontDoor: FrontDoorHandlers = {},
  choices: UserChoices = new UserChoices(),
): Handlers {
  return guardHandlers(
    createUnguardedHandlers(context, transport, frontDoor),
    choices,
    context.folders.spaceScans,
  );
}

function createUnguardedHandlers(
  context: AppContext,
  transport: AppAbout['transport'],
  frontDoor: FrontDoorHandlers,
): Omit<Handlers, 'session.choosePath'> {
  return {
    'app.about': async () => about(transport, context.os),
    ...benchHandlers(context.results),
    ...jobHandlers(),
    ...plannerHandlers({
      measured: () => measuredProfiles(context.results),
      devices: context.devices,
      scenarios: context.scenarios,
    }),
    ...reportHandlers(() => reportSources(context)),
    ...spaceHandlers(context.folders),
    'volume.info': async ({ path }) => volumeInfo(path),
    'volumes.list': async () => ({ volumes: await listVolumes() }),
    'dialog.chooseFolder': async () => {
      throw new PlumbError(
        'ENOTSUP',
        'The folder picker is in the desktop app; in a browser, type the folder path.',
      );
    },
    'dialog.revealPath': async () => {
      throw new PlumbError(
        'ENOTSUP',
        'Showing a file in the file manager is in the desktop app; in a browser, copy its path.',
      );
    },
    ...frontDoor,
  };
}
