// The item chart: one line per market from candles, the Bollinger band of the window
// shaded around the reference market, volume bars in their own lower band, a "now"
// marker, drag to zoom (double-click resets).
import {minorPerMajor} from '../money.js';

import {axisColours, cssVar, moneyFormats, PALETTE, tooltip} from './common.js';

/** uPlot's columns: times, one price column per market, volume, the band's two lines. */
export function chartData(series, band, perMajor = minorPerMajor()) {
  const times =
      [...new Set(series.flatMap((s) => s.candles.map((c) => Date.parse(c.time) / 1000)))].sort(
          (a, b) => a - b);
  const index = new Map(times.map((t, i) => [t, i]));
  const data = [times];
  for (const s of series) {
    const col = new Array(times.length).fill(null);
    for (const c of s.candles) col[index.get(Date.parse(c.time) / 1000)] = c.close / perMajor;
    data.push(col);
  }
  const vol = new Array(times.length).fill(null);
  if (series.length) {
    for (const c of series[0].candles) vol[index.get(Date.parse(c.time) / 1000)] = c.volume;
  }
  data.push(vol);
  const hasBand = !!band && Number.isFinite(band.upper) && Number.isFinite(band.lower);
  if (hasBand) {
    data.push(times.map(() => band.upper / perMajor));
    data.push(times.map(() => band.lower / perMajor));
  }
  return {times, data, vol, hasBand};
}

/**
 * series: [{source, candles:[{time, close, volume}]}] (first = reference),
 * band: {upper, lower, middle} in cents or null. Returns the uPlot instance.
 */
export function drawChart(uPlot, el, {series, band}) {
  const {times, data, vol, hasBand} = chartData(series, band);
  // Values are major units of the chosen currency (money.js): the series divide by its minor unit.
  const formats = moneyFormats(false);
  const maxVol = Math.max(1, ...vol.filter((v) => v !== null));
  const opts = {
    width: Math.max(280, el.clientWidth),
    height: el.clientWidth < 500 ? 260 : 340,
    cursor: {drag: {x: true, y: false, setScale: true}},
    legend: {live: true},
    scales: priceScales(hasBand ? band : null, maxVol),
    axes: priceAxes(times, formats.axis),
    series: priceSeries(uPlot, series, hasBand, formats.money),
    bands: hasBand ?
        [{series: [series.length + 2, series.length + 3], fill: cssVar('--band', '#0f766e22')}] :
        [],
    plugins: [tooltip(formats.money)],
    hooks: {draw: [nowMarker]},
  };
  if (times.length) {
    const now = Date.now() / 1000;
    opts.scales.x.range = (u, min, max) => [min, Math.max(max, now)];
  }
  return new uPlot(opts, data, el);
}

// Prices keep the upper ~78 % of the plot, volume bars the lower ~18 %: two panes on one
// time axis, so the cursor and zoom stay shared.
function priceScales(band, maxVol) {
  const perMajor = minorPerMajor();
  return {
    x: {time: true},
    y: {
      range: (u, min, max) => {
        const lo = Math.min(min, band ? band.lower / perMajor : min);
        const hi = Math.max(max, band ? band.upper / perMajor : max);
        const span = (hi - lo) || Math.abs(hi) * 0.02 || 1;
        return [lo - span * 0.3, hi + span * 0.06];
      }
    },
    vol: {range: () => [0, maxVol * 5.5]},
  };
}

function priceAxes(times, axisMoney) {
  const colours = axisColours();
  const axisSize = (u, values) => {
    if (!values) return 60;
    const longest = Math.max(...values.map((v) => String(v).length));
    return Math.max(52, longest * 8 + 16);
  };
  return [
    {...colours, values: timeLabels(times), space: 60},
    {...colours, size: axisSize, values: (u, vals) => vals.map((v) => axisMoney(v))},
    {scale: 'vol', show: false},
  ];
}

function priceSeries(uPlot, series, hasBand, money) {
  const value = (u, v) => (v === null ? '—' : money.format(v));
  const bandLine = (label) => ({
    label,
    stroke: cssVar('--band-line', '#0f766e88'),
    dash: [4, 4],
    width: 1,
    points: {show: false},
    value
  });
  return [
    {label: 'Time', value: (u, v) => (v === null ? '—' : new Date(v * 1000).toLocaleString())},
    ...series.map((s, i) => ({
                    label: i === 0 ? `${s.source} (reference)` : s.source,
                    stroke: PALETTE[i % PALETTE.length],
                    width: i === 0 ? 2 : 1.5,
                    spanGaps: true,
                    value,
                  })),
    {
      label: 'Volume',
      scale: 'vol',
      stroke: cssVar('--vol', '#8889'),
      fill: cssVar('--vol', '#8889'),
      paths: uPlot.paths.bars({size: [0.7, 12]}),
      points: {show: false},
      value: (u, v) => (v === null ? '—' : String(v))
    },
    ...(hasBand ? [bandLine('Band upper (+2σ)'), bandLine('Band lower (−2σ)')] : []),
  ];
}

// Time axis: hours within a day, dates beyond; the date under the first tick of each
// day, the year under the first tick and wherever it changes.
function timeLabels(times) {
  const spanYears = times.length &&
      new Date(times[0] * 1000).getFullYear() !==
          new Date(times[times.length - 1] * 1000).getFullYear();
  const dayFmt = new Intl.DateTimeFormat(undefined, {day: 'numeric', month: 'short'});
  const hourFmt = new Intl.DateTimeFormat(undefined, {hour: '2-digit', minute: '2-digit'});
  return (u, splits) => {
    const range = splits.length > 1 ? splits[splits.length - 1] - splits[0] : 0;
    const step = splits.length > 1 ? splits[1] - splits[0] : 86400;
    let lastDay = null;
    let lastYear = null;
    return splits.map((t, i) => {
      const d = new Date(t * 1000);
      const day = d.toDateString();
      const year = d.getFullYear();
      const yearPart = (i === 0 && (spanYears || range > 20 * 86400)) ||
              (lastYear !== null && year !== lastYear) ?
          `\n${year}` :
          '';
      let label;
      if (step >= 86400)
        label = dayFmt.format(d) + yearPart;
      else if (range >= 2 * 86400)
        label = (day !== lastDay ? dayFmt.format(d) : hourFmt.format(d)) + yearPart;
      else
        label = hourFmt.format(d) + (day !== lastDay ? `\n${dayFmt.format(d)}` : '') + yearPart;
      lastDay = day;
      lastYear = year;
      return label;
    });
  };
}

/** The "now" marker at the right edge of the data's time axis. */
function nowMarker(u) {
  const x = u.valToPos(Date.now() / 1000, 'x', true);
  if (x < u.bbox.left || x > u.bbox.left + u.bbox.width + 1) return;
  const ctx = u.ctx;
  ctx.save();
  ctx.strokeStyle = cssVar('--now', '#dc2626');
  ctx.setLineDash([3, 3]);
  ctx.beginPath();
  ctx.moveTo(x, u.bbox.top);
  ctx.lineTo(x, u.bbox.top + u.bbox.height);
  ctx.stroke();
  ctx.fillStyle = cssVar('--now', '#dc2626');
  ctx.font = `${12 * devicePixelRatio}px system-ui, sans-serif`;
  ctx.fillText('now', x - 28 * devicePixelRatio, u.bbox.top + 12 * devicePixelRatio);
  ctx.restore();
}
