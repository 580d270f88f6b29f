// The item chart's windows (share/www/js/views/item/chart-windows.js): every candle window
// of docs/api.md §10 is offered in order, an unknown `?window=` falls back to 24h, only the
// windows the volatility endpoint answers get a band, and the words fit each window.
import assert from 'node:assert/strict';
import {test} from 'node:test';

import {
  BAND_WINDOWS,
  CHART_WINDOWS,
  chartHint,
  chartWindow,
  emptyChartText,
  hasBand
} from '../../share/www/js/views/item/chart-windows.js';

test('the chart offers every candle window, shortest first', () => {
  assert.deepEqual(CHART_WINDOWS, ['1h', '24h', '7d', '30d', '90d', '1y', 'all']);
});

test('a known ?window= is kept, anything else is 24h', () => {
  for (const w of CHART_WINDOWS) assert.equal(chartWindow(w), w);
  for (const w of [null, '', '2y', '1w', 'ALL', '30D']) assert.equal(chartWindow(w), '24h');
});

test('only the volatility windows have a band, and the hint says so', () => {
  assert.deepEqual(CHART_WINDOWS.filter(hasBand), BAND_WINDOWS);
  assert.deepEqual(BAND_WINDOWS, ['1h', '24h', '7d']);
  assert.match(chartHint('24h'), /mean ± 2σ/);
  for (const w of ['30d', '90d', '1y', 'all']) {
    assert.equal(
        chartHint(w), `Volatility metrics cover 1h, 24h and 7d, so the ${w} chart has no band.`);
  }
});

test('an empty chart suggests a longer window, except for all', () => {
  assert.equal(emptyChartText('1y'), 'No prices in the last 1y. Try a longer window.');
  assert.equal(emptyChartText('all'), 'No prices stored for this item yet.');
});
