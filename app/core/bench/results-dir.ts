import os from 'node:os';
import path from 'node:path';

/**
 * Where results are kept: $PLUMB_DATA_DIR/results when set (tests, portable use), else the OS
 * user-data folder: ~/Library/Application Support/Plumb, %APPDATA%/Plumb, $XDG_DATA_HOME/plumb or
 * ~/.local/share/plumb, each with results/ inside.
 */
export function resultsDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = os.homedir(),
): string {
  if (env.PLUMB_DATA_DIR) return path.join(env.PLUMB_DATA_DIR, 'results');
  if (platform === 'darwin')
    return path.join(home, 'Library', 'Application Support', 'Plumb', 'results');
  if (platform === 'win32') {
    return path.win32.join(
      env.APPDATA ?? path.win32.join(home, 'AppData', 'Roaming'),
      'Plumb',
      'results',
    );
  }
  const dataHome =
    env.XDG_DATA_HOME && path.isAbsolute(env.XDG_DATA_HOME)
      ? env.XDG_DATA_HOME
      : path.join(home, '.local', 'share');
  return path.join(dataHome, 'plumb', 'results');
}
