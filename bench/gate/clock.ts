// Client clock: CLOCK_REALTIME in ms with sub-ms resolution, performance.now() plus an offset
// re-anchored on the edge of a Date.now() millisecond, so it compares with the servers' clocks.
let clockOffset = Date.now() - performance.now();

/** Re-anchors performance.now() on the edge of a Date.now() millisecond (busy-waits up to 1 ms). */
export function calibrate(): void {
  const start = Date.now();
  let edge = start;
  while (edge === start) edge = Date.now();
  clockOffset = edge - performance.now();
}

export const wallMs = (): number => clockOffset + performance.now();

calibrate();
