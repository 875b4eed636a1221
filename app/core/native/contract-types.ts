/**
 * native/index.d.ts declares the addon's own result types (native sits below app and imports
 * nothing from it); here the app checks, at compile time, that what the addon hands over is what
 * the contract promises. A field added, renamed or retyped on one side only fails `tsc` here.
 */
import type {
  NativeBlockFinding,
  NativeScanProgress,
  NativeScanResult,
} from '../../../native/index.js';
import type { VerifySection } from '../../contract/bench-result.js';
import type { ScanProgress, ScanResult } from '../../contract/space.js';

/** Compiles only when `Actual` can be used where `Expected` is required. */
type Assignable<Actual extends Expected, Expected> = Actual;

export type NativeScanTypesMatchContract = [
  Assignable<NativeScanResult, ScanResult>,
  Assignable<NativeScanProgress, ScanProgress>,
];

export type NativeVerifyTypesMatchContract = Assignable<
  NativeBlockFinding,
  NonNullable<VerifySection['firstBad']>['found']['kind']
>;
