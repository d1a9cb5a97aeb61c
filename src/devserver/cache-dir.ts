import os from 'node:os';
import path from 'node:path';

/**
 * The per-user cache directory for toolrail's downloads and builds, outside any repository:
 * `$TOOLRAIL_CACHE_DIR`, else `$XDG_CACHE_HOME/toolrail`, else the platform's user cache
 * (`~/.cache/toolrail`, `~/Library/Caches/toolrail`, `%LOCALAPPDATA%\toolrail`).
 */
export function toolrailCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.TOOLRAIL_CACHE_DIR) return env.TOOLRAIL_CACHE_DIR;
  if (env.XDG_CACHE_HOME) return path.join(env.XDG_CACHE_HOME, 'toolrail');
  const home = os.homedir();
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Caches', 'toolrail');
  if (process.platform === 'win32')
    return path.join(env.LOCALAPPDATA ?? path.join(home, 'AppData', 'Local'), 'toolrail');
  return path.join(home, '.cache', 'toolrail');
}
