/** Moved to app/common (the live chart windows rates the same way); kept here for core's imports. */
export {
  rateWindowSeconds,
  rateWindowShare,
  rateWindowIntervals,
  sampleRates,
  SampleRateCurve,
  type RateCurve,
} from '../../common/sample-rates.js';
