/**
 * A number that changes whenever figures read from the disks may have gone stale: the window comes
 * back into view or focus, the user moves to another section, or ten seconds pass while it is
 * shown. Screens kept mounted read free space again on it, so space freed by a Reclaim (or by
 * anything else) shows without a reload.
 */
import { useEffect, useState } from 'react';

const intervalMs = 10_000;

export function useRefreshTick(): number {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const bump = () => {
      if (document.visibilityState === 'visible') setTick((n) => n + 1);
    };
    window.addEventListener('focus', bump);
    window.addEventListener('hashchange', bump);
    document.addEventListener('visibilitychange', bump);
    const timer = window.setInterval(bump, intervalMs);
    return () => {
      window.removeEventListener('focus', bump);
      window.removeEventListener('hashchange', bump);
      document.removeEventListener('visibilitychange', bump);
      window.clearInterval(timer);
    };
  }, []);
  return tick;
}
