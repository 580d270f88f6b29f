// The portfolio value chart's range (share/www/js/charts/value-span.js): no point is
// "empty", one point is flagged (said in words) on a few hours' axis rather than a dot at
// a month's edge, a history shorter than the window is drawn over the time it covers, and
// a history that fills the window keeps the whole window.
import assert from 'node:assert/strict';
import {test} from 'node:test';

import {
  coversWindow,
  MIN_SPAN_SECONDS,
  valueChartPlan
} from '../../share/www/js/charts/value-span.js';

const NOW = 1_800_000_000;
const HOUR = 3600;
const DAY = 86400;
const hourly = (from, count) => Array.from({length: count}, (_, i) => from + i * HOUR);

test('no point yet is empty', () => {
  assert.deepEqual(valueChartPlan([], 30 * DAY, NOW), {kind: 'empty'});
});

test('a single point (the first import) is flagged, on a few hours\' axis, not a month', () => {
  const plan = valueChartPlan([NOW - 300], 30 * DAY, NOW);
  assert.equal(plan.kind, 'chart');
  assert.equal(plan.single, true);
  assert.equal(plan.fitted, true);
  assert.equal(plan.first, NOW - 300);
  assert.ok(plan.from < NOW - 300 && NOW - plan.from < 7 * HOUR, `${NOW - plan.from}`);
  const old = valueChartPlan([NOW - 20 * DAY], 7 * DAY, NOW);
  assert.equal(old.single, true);
  assert.equal(old.from, NOW - 7 * DAY);  // never past the window
});

test('two points an hour apart: at least six hours wide, not a month', () => {
  const plan = valueChartPlan(hourly(NOW - HOUR - 60, 2), 30 * DAY, NOW);
  assert.equal(plan.kind, 'chart');
  assert.equal(plan.fitted, true);
  assert.equal(plan.single, false);
  assert.equal(plan.to, NOW);
  assert.ok(NOW - plan.from >= MIN_SPAN_SECONDS, `${NOW - plan.from}`);
  assert.ok(NOW - plan.from < 7 * HOUR, `${NOW - plan.from}`);
});

test('three days of history in the 30d window: three days and a margin, first point inside', () => {
  const times = hourly(NOW - 3 * DAY, 72);
  const plan = valueChartPlan(times, 30 * DAY, NOW);
  assert.equal(plan.fitted, true);
  assert.ok(plan.from < times[0], 'the first point is inside the axis');
  assert.ok(plan.from > NOW - 4 * DAY, 'not the empty rest of the month');
  assert.equal(plan.first, times[0]);
});

test('a history that fills the window keeps the whole window (as before)', () => {
  for (const days of [7, 30, 365]) {
    const times = hourly(NOW - days * DAY + HOUR, 24);
    const plan = valueChartPlan(times, days * DAY, NOW);
    assert.deepEqual(plan, {
      kind: 'chart',
      from: NOW - days * DAY,
      to: NOW,
      fitted: false,
      first: times[0],
      single: false
    });
  }
});

test('a fitted range never reaches back past the window', () => {
  const plan = valueChartPlan(hourly(NOW - 7 * DAY + 5 * HOUR, 100), 7 * DAY, NOW);
  assert.ok(plan.from >= NOW - 7 * DAY);
});

test('coversWindow allows a little slack (hourly points, a 2 % margin)', () => {
  assert.equal(coversWindow(NOW - 30 * DAY + HOUR, 30 * DAY, NOW), true);
  assert.equal(coversWindow(NOW - 30 * DAY + 0.02 * 30 * DAY, 30 * DAY, NOW), true);
  assert.equal(coversWindow(NOW - 20 * DAY, 30 * DAY, NOW), false);
  assert.equal(coversWindow(NOW - 7 * DAY + 5 * HOUR, 7 * DAY, NOW), false);
});
