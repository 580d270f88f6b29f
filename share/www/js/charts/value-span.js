// What the portfolio's value chart shows for the history it has (no DOM: node --test).
//
// Value snapshots start at the first import and come one an hour, so a new portfolio has
// one point, then a few hours of them. A month-wide axis with one dot at its right edge
// reads as "a month of nothing"; instead a history shorter than the chosen window is drawn
// over the time it covers (a few hours at least), and a single point is also said in
// words. A history that fills the window keeps the whole window, as before.

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
 *   {kind: 'empty'}                             no point yet;
 *   {kind: 'chart', from, to, fitted, first, single}  the x range (seconds): the whole
 *       window for a history that fills it, else `fitted` to the time the history covers
 *       (from just before its first point, at least MIN_SPAN_SECONDS wide); `single` when
 *       there is one point, which the page says in words.
 */
export function valueChartPlan(times, windowSeconds, now) {
  if (!times.length) return {kind: 'empty'};
  const first = times[0];
  const single = times.length < 2;
  const windowStart = now - windowSeconds;
  if (!single && coversWindow(first, windowSeconds, now)) {
    return {kind: 'chart', from: windowStart, to: now, fitted: false, first, single};
  }
  const span = Math.max(now - first, MIN_SPAN_SECONDS);
  const from = Math.max(windowStart, now - span * 1.05);  // a margin before the first point
  return {kind: 'chart', from, to: now, fitted: true, first, single};
}
