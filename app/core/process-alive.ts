/** True when a process with this id runs on this machine, this one included. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * True when another process with this id runs: what this process left behind (a journal, a lock)
 * it tracks itself, so its own id counts as not running.
 */
export function otherProcessAlive(pid: number): boolean {
  return pid !== process.pid && processAlive(pid);
}
