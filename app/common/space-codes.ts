/**
 * Codes a space apply gives an action that is not an error, shared by the engine that sets them
 * and the front ends that say them apart from skips and failures.
 */

/**
 * A copy a dedupe leaves alone because it already shares all its storage with the kept file:
 * nothing is wrong with it, and it frees nothing.
 */
export const alreadySharedCode = 'ESHARED';
