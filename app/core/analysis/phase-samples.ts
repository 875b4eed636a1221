/** Moved to app/common (the renderer draws the same samples); kept here for core's imports. */
export {
  sampleIntervals,
  type PhaseSamples,
  type SampleIntervals,
} from '../../common/phase-samples.js';
