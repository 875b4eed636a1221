/**
 * An app context for a test: Plumb's data and state folders inside `root` (data/ and state/),
 * so a test works on its own folders without setting PLUMB_DATA_DIR or PLUMB_STATE_DIR; `moved`
 * puts some of them elsewhere. Nothing is made until a store writes; the test removes `root`
 * when it made one.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { createAppContext, type AppContext } from '../../app/core/context.js';
import { plumbFolders, type PlumbFolders } from '../../app/core/paths.js';

export function testContext(
  root: string = path.join(os.tmpdir(), `plumb-context-${randomUUID()}`),
  moved: Partial<PlumbFolders> = {},
): AppContext {
  const folders = plumbFolders({
    PLUMB_DATA_DIR: path.join(root, 'data'),
    PLUMB_STATE_DIR: path.join(root, 'state'),
  });
  return createAppContext({ ...folders, ...moved });
}
