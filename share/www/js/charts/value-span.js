// What the portfolio's value chart shows for the history it has (no DOM: node --test).
//
// Value snapshots start at the first import and come one an hour, so a new portfolio has
// one point, then a few hours of them. A month-wide axis with one dot at its right edge
// reads as "a month of nothing"; instead a single point is stated in words, and a history
// shorter than the chosen window is drawn over the time it covers. A history that fills
// the window keeps the whole window, as before.

/** The narrowest time axis drawn, so a history of two hourly points is not a sliver. */
export const MIN_SPAN_SECONDS = 6 * 3600;

/** How close to the window's start the first point must be for the history to fill it. */
export function coversWindow(first, windowSeconds, now) {
  const slack = Math.max(2 * 3600, windowSeconds * 0.02);
  return first <= now - windowSeconds + slack;
}

/**
 * The plan for `times` (the points' times, seconds, oldest first) in a window of
 * `windowSeconds` ending `now`:
 *   {kind: 'empty'}                      no point yet;
 *   {kind: 'single', first}              one point: say so, no chart;
 *   {kind: 'chart', from, to, fitted, first}  the x range; fitted when it covers only
 *                                        the history (from just before its first point).
 */
export function valueChartPlan(times, windowSeconds, now) {
  if (!times.length) return {kind: 'empty'};
  const first = times[0];
  if (times.length < 2) return {kind: 'single', first};
  const windowStart = now - windowSeconds;
  if (coversWindow(first, windowSeconds, now)) {
    return {kind: 'chart', from: windowStart, to: now, fitted: false, first};
  }
  const span = Math.max(now - first, MIN_SPAN_SECONDS);
  const from = Math.max(windowStart, now - span * 1.05);  // a margin before the first point
  return {kind: 'chart', from, to: now, fitted: true, first};
}
