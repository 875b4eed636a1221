/** Moved to app/common (the renderer thins the same way); kept here for core's imports. */
export { decimateMinMax, type CurvePoints } from '../../common/decimate.js';
