import os from 'node:os';
import path from 'node:path';
import { dataDir } from '../paths.js';

/** Where results are kept: results/ in Plumb's data folder (paths.ts). */
export function resultsDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = os.homedir(),
): string {
  return (platform === 'win32' ? path.win32 : path).join(dataDir(env, platform, home), 'results');
}
