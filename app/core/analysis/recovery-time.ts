/** One probe burst written after the drive was left idle. */
export interface RecoveryProbe {
  /** Seconds since the sustained writing stopped, when the probe started. */
  idleSeconds: number;
  /** Rate of the probe burst, bytes/s. */
  rate: number;
}

/**
 * Cache recovery time: the idle seconds before the first probe whose rate is back to at least
 * `fraction` (default 0.9) of the rate before the cliff. Null when no probe got there.
 */
export function recoveryTime(
  probes: readonly RecoveryProbe[],
  beforeRate: number,
  fraction = 0.9,
): number | null {
  const recovered = probes.find((probe) => probe.rate >= fraction * beforeRate);
  return recovered ? recovered.idleSeconds : null;
}
