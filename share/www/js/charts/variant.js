// One variant's small chart on the item page's variants panel (views/item/variants.js).
import {minorPerMajor} from '../money.js';

import {axisColours, cssVar, moneyFormats, PALETTE, tooltip} from './common.js';

/**
 * One variant's small chart: candles [{time, close}] in minor units of the chosen
 * currency as one line in `colour`, its own price scale, no legend (the card names it),
 * the crosshair tooltip. Returns the uPlot instance.
 */
export function drawPhaseChart(uPlot, el, candles, {label, colour}) {
  const {money, axis} = moneyFormats();
  const stroke = colour || cssVar('--accent', PALETTE[0]);
  const data = [
    candles.map((c) => Date.parse(c.time) / 1000), candles.map((c) => c.close / minorPerMajor())
  ];
  // Two cards a row on a phone: the caption carries the price, the tooltip each value.
  const narrow = el.clientWidth < 240;
  return new uPlot(
      {
        width: Math.max(140, el.clientWidth),
        height: narrow ? 110 : 150,
        legend: {show: false},
        cursor: {drag: {x: false, y: false}},
        scales: {
          x: {time: true},
          y: {
            range: (u, min, max) => {
              const span = (max - min) || Math.abs(max) * 0.02 || 1;
              return [min - span * 0.15, max + span * 0.15];
            }
          }
        },
        axes: phaseAxes(data[0], narrow, axis),
        series: [
          {label: 'Time'},
          {
            label,
            stroke,
            width: 1.5,
            fill: `${stroke}1f`,
            spanGaps: true,
            points: {show: candles.length < 40}
          },
        ],
        plugins: [tooltip(money)],
      },
      data, el);
}

function phaseAxes(times, narrow, axis) {
  const colours = axisColours();
  const font = '11px system-ui, sans-serif';
  // One line per tick label: hours within two days, dates beyond.
  const span = times.length ? times[times.length - 1] - times[0] : 0;
  const tickFmt = new Intl.DateTimeFormat(
      undefined,
      span > 2 * 86400 ? {day: 'numeric', month: 'short'} : {hour: '2-digit', minute: '2-digit'});
  return [
    {
      ...colours,
      ticks: {size: 3},
      space: 64,
      size: 24,
      font,
      values: (u, splits) => splits.map((t) => tickFmt.format(new Date(t * 1000)))
    },
    {
      show: !narrow,
      ...colours,
      ticks: {size: 3},
      size: 62,
      font,
      space: 30,
      values: (u, vals) => vals.map(axis)
    },
  ];
}
