// The portfolio's value history chart.
import {minorPerMajor} from '../money.js';

import {axisColours, moneyFormats, PALETTE, tooltip} from './common.js';

/**
 * The portfolio's value history: points [{time, total_value, cost_total}] (cents), two
 * lines — total value, and what was paid (dashed) — on one money axis, the time axis
 * from `range.from` to `range.to` (seconds; valueChartPlan in value-span.js: the whole
 * window for a history that fills it, else the time the history covers).
 * Returns the uPlot instance.
 */
export function drawValueChart(uPlot, el, points, range) {
  // The history arrives in minor units of the chosen currency (api.js adds currency=).
  const {money, axis} = moneyFormats();
  const colours = axisColours();
  const data = [
    points.map((p) => Date.parse(p.time) / 1000),
    points.map((p) => p.total_value / minorPerMajor()),
    points.map((p) => p.cost_total / minorPerMajor()),
  ];
  const narrow = el.clientWidth < 500;
  const opts = {
    width: Math.max(280, el.clientWidth),
    height: narrow ? 220 : 300,
    cursor: {drag: {x: true, y: false, setScale: true}},
    legend: {show: false},  // the page draws its own key; the tooltip has the values
    scales: {
      x: {time: true, range: () => [range.from, range.to]},
      y: {
        range: (u, min, max) => {
          const span = (max - min) || Math.abs(max) * 0.1 || 1;
          return [Math.max(0, min - span * 0.1), max + span * 0.1];
        }
      },
    },
    axes: [
      {...colours, space: narrow ? 70 : 60},
      {...colours, size: narrow ? 64 : 80, values: (u, vals) => vals.map(axis)},
    ],
    series: [
      {label: 'Time'},
      {
        label: 'Total value',
        stroke: PALETTE[0],
        width: 2,
        fill: `${PALETTE[0]}1a`,
        spanGaps: true,
        points: {show: points.length < 60}
      },
      {
        label: 'Cost total',
        stroke: PALETTE[1],
        width: 1.5,
        dash: [6, 4],
        spanGaps: true,
        points: {show: points.length < 60}
      },
    ],
    plugins: [tooltip(money)],
  };
  return new uPlot(opts, data, el);
}
