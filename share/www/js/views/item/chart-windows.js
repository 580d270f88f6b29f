// The item chart's windows (docs/api.md §10): the candle windows the page offers, which
// of them has a Bollinger band (volatility covers 1h, 24h and 7d only, §3.2), and the
// words the page says about a window. No DOM: node --test checks it (tests/js).

/** The candle windows, shortest first; the page's `?window=`. */
export const CHART_WINDOWS = ['1h', '24h', '7d', '30d', '90d', '1y', 'all'];
/** The windows the volatility endpoint answers, so the chart can draw their band. */
export const BAND_WINDOWS = ['1h', '24h', '7d'];

/** The window of a `?window=` value: a known one, else the default 24h. */
export function chartWindow(value) {
  return CHART_WINDOWS.includes(value) ? value : '24h';
}

/** Whether the chart of `win` shows the reference market's Bollinger band. */
export function hasBand(win) {
  return BAND_WINDOWS.includes(win);
}

/** The hint under the chart's title. */
export function chartHint(win) {
  return hasBand(win) ? 'The shaded band is the window’s mean ± 2σ of the reference market.' :
                        `Volatility metrics cover 1h, 24h and 7d, so the ${win} chart has no band.`;
}

/** What an empty chart of `win` says, when some market has priced the item. */
export function emptyChartText(win) {
  return win === 'all' ? 'No prices stored for this item yet.' :
                         `No prices in the last ${win}. Try a longer window.`;
}
