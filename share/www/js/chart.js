// The item chart: uPlot (vendored, loaded on first use), one line per market from
// candles, the Bollinger band of the window shaded around the reference market, volume
// bars in their own lower band, a "now" marker, drag to zoom (double-click resets).

import {pageStyles} from './api.js';
import {currency, minorPerMajor} from './money.js';

pageStyles('chart');

let loading = null;
/** Loads share/www/vendor/uplot once; resolves to the uPlot constructor. */
export function loadUPlot() {
  if (window.uPlot) return Promise.resolve(window.uPlot);
  if (!loading) {
    loading = new Promise((resolve, reject) => {
      const css = document.createElement('link');
      css.rel = 'stylesheet';
      css.href = '/assets/vendor/uplot/uPlot.min.css';
      document.head.append(css);
      const script = document.createElement('script');
      script.src = '/assets/vendor/uplot/uPlot.iife.min.js';
      script.onload = () => resolve(window.uPlot);
      script.onerror = () => {
        loading = null;
        reject(new Error('the chart library could not be loaded'));
      };
      document.head.append(script);
    });
  }
  return loading;
}

const PALETTE = ['#0f766e', '#b45309', '#7c3aed', '#be123c', '#1d4ed8', '#4d7c0f'];

function cssVar(name, fallback) {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

/**
 * series: [{source, candles:[{time, close, volume}]}] (first = reference),
 * band: {upper, lower, middle} in cents or null. Returns the uPlot instance.
 */
export function drawChart(uPlot, el, {series, band, window: win}) {
  const times =
      [...new Set(series.flatMap((s) => s.candles.map((c) => Date.parse(c.time) / 1000)))].sort(
          (a, b) => a - b);
  const index = new Map(times.map((t, i) => [t, i]));
  const data = [times];
  for (const s of series) {
    const col = new Array(times.length).fill(null);
    for (const c of s.candles)
      col[index.get(Date.parse(c.time) / 1000)] = c.close / minorPerMajor();
    data.push(col);
  }
  const vol = new Array(times.length).fill(null);
  if (series.length)
    for (const c of series[0].candles) vol[index.get(Date.parse(c.time) / 1000)] = c.volume;
  data.push(vol);
  const hasBand = band && Number.isFinite(band.upper) && Number.isFinite(band.lower);
  if (hasBand) {
    data.push(times.map(() => band.upper / minorPerMajor()));
    data.push(times.map(() => band.lower / minorPerMajor()));
  }
  const text = cssVar('--text-2', '#555');
  const grid = cssVar('--grid', '#8883');
  // Values are major units of the chosen currency (money.js): the series divide by its minor unit.
  const code = currency().code;
  const money = new Intl.NumberFormat(undefined, {style: 'currency', currency: code});
  const spanYears = times.length &&
      new Date(times[0] * 1000).getFullYear() !==
          new Date(times[times.length - 1] * 1000).getFullYear();
  const maxVol = Math.max(1, ...vol.filter((v) => v !== null));
  // Time axis: hours within a day, dates beyond; the date under the first tick of each
  // day, the year under the first tick and wherever it changes.
  const dayFmt = new Intl.DateTimeFormat(undefined, {day: 'numeric', month: 'short'});
  const hourFmt = new Intl.DateTimeFormat(undefined, {hour: '2-digit', minute: '2-digit'});
  const timeLabels = (u, splits) => {
    const range = splits.length > 1 ? splits[splits.length - 1] - splits[0] : 0;
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
      const step = splits.length > 1 ? splits[1] - splits[0] : 86400;
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
  // Axis labels: whole units from 100 up, so "$2,100" fits beside a 375 px chart.
  const whole = new Intl.NumberFormat(
      undefined, {style: 'currency', currency: code, maximumFractionDigits: 0});
  const axisMoney = (v) => (Math.abs(v) >= 100 ? whole.format(v) : money.format(v));
  const axisSize = (u, values) => {
    if (!values) return 60;
    const longest = Math.max(...values.map((v) => String(v).length));
    return Math.max(52, longest * 8 + 16);
  };
  const opts = {
    width: Math.max(280, el.clientWidth),
    height: el.clientWidth < 500 ? 260 : 340,
    cursor: {drag: {x: true, y: false, setScale: true}},
    legend: {live: true},
    // Prices keep the upper ~78 % of the plot, volume bars the lower ~18 %: two panes
    // on one time axis, so the cursor and zoom stay shared.
    scales: {
      x: {time: true},
      y: {
        range: (u, min, max) => {
          const lo = Math.min(min, hasBand ? band.lower / minorPerMajor() : min);
          const hi = Math.max(max, hasBand ? band.upper / minorPerMajor() : max);
          const span = (hi - lo) || Math.abs(hi) * 0.02 || 1;
          return [lo - span * 0.3, hi + span * 0.06];
        }
      },
      vol: {range: () => [0, maxVol * 5.5]},
    },
    axes: [
      {stroke: text, grid: {stroke: grid}, values: timeLabels, space: 60},
      {
        stroke: text,
        grid: {stroke: grid},
        size: axisSize,
        values: (u, vals) => vals.map((v) => axisMoney(v))
      },
      {scale: 'vol', show: false},
    ],
    series: [
      {label: 'Time', value: (u, v) => v === null ? '—' : new Date(v * 1000).toLocaleString()},
      ...series.map((s, i) => ({
                      label: i === 0 ? `${s.source} (reference)` : s.source,
                      stroke: PALETTE[i % PALETTE.length],
                      width: i === 0 ? 2 : 1.5,
                      spanGaps: true,
                      value: (u, v) => v === null ? '—' : money.format(v),
                    })),
      {
        label: 'Volume',
        scale: 'vol',
        stroke: cssVar('--vol', '#8889'),
        fill: cssVar('--vol', '#8889'),
        paths: uPlot.paths.bars({size: [0.7, 12]}),
        points: {show: false},
        value: (u, v) => v === null ? '—' : String(v)
      },
      ...(hasBand ?
              [
                {
                  label: 'Band upper (+2σ)',
                  stroke: cssVar('--band-line', '#0f766e88'),
                  dash: [4, 4],
                  width: 1,
                  points: {show: false},
                  value: (u, v) => v === null ? '—' : money.format(v)
                },
                {
                  label: 'Band lower (−2σ)',
                  stroke: cssVar('--band-line', '#0f766e88'),
                  dash: [4, 4],
                  width: 1,
                  points: {show: false},
                  value: (u, v) => v === null ? '—' : money.format(v)
                },
              ] :
              []),
    ],
    bands: hasBand ?
        [{series: [series.length + 2, series.length + 3], fill: cssVar('--band', '#0f766e22')}] :
        [],
    plugins: [tooltip(money)],
    hooks: {
      draw: [(u) => {
        // "now" marker at the right edge of the data's time axis.
        const now = Date.now() / 1000;
        const x = u.valToPos(now, 'x', true);
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
      }],
    },
  };
  if (times.length) {
    const now = Date.now() / 1000;
    opts.scales.x.range = (u, min, max) => [min, Math.max(max, now)];
  }
  const plot = new uPlot(opts, data, el);
  return plot;
}

/** A crosshair tooltip listing every market's price (and the volume) at the cursor. */
function tooltip(money) {
  let box;
  const when = new Intl.DateTimeFormat(undefined, {dateStyle: 'medium', timeStyle: 'short'});
  return {
    hooks: {
      init: (u) => {
        box = document.createElement('div');
        box.className = 'chart-tip';
        box.hidden = true;
        u.over.append(box);
        u.over.addEventListener('mouseleave', () => {
          box.hidden = true;
        });
      },
      setCursor: (u) => {
        const i = u.cursor.idx;
        if (i === null || i === undefined || u.cursor.left < 0) {
          box.hidden = true;
          return;
        }
        box.replaceChildren();
        const head = document.createElement('strong');
        head.textContent = when.format(new Date(u.data[0][i] * 1000));
        box.append(head);
        u.series.forEach((s, k) => {
          if (k === 0 || !s.show || s.label.startsWith('Band')) return;
          const v = u.data[k][i];
          if (v === null || v === undefined) return;
          const row = document.createElement('div');
          row.textContent =
              `${s.label.replace(' (reference)', '')}: ${s.scale === 'vol' ? v : money.format(v)}`;
          box.append(row);
        });
        box.hidden = false;
        const left = u.cursor.left + 12;
        const flip = left + box.offsetWidth > u.over.clientWidth;
        box.style.left = `${flip ? u.cursor.left - box.offsetWidth - 12 : left}px`;
        box.style.top = `${Math.max(0, u.cursor.top - box.offsetHeight - 8)}px`;
      },
    },
  };
}

/**
 * The portfolio's value history: points [{time, total_value, cost_total}] (cents), two
 * lines — total value, and what was paid (dashed) — on one money axis, the time axis
 * spanning the whole window (`seconds` back from now) even when the history is shorter.
 * Returns the uPlot instance.
 */
export function drawValueChart(uPlot, el, points, seconds) {
  // The history arrives in minor units of the chosen currency (api.js adds currency=).
  const {code, exponent} = currency();
  const money = new Intl.NumberFormat(undefined, {
    style: 'currency',
    currency: code,
    minimumFractionDigits: exponent,
    maximumFractionDigits: exponent
  });
  const whole = new Intl.NumberFormat(
      undefined, {style: 'currency', currency: code, maximumFractionDigits: 0});
  const text = cssVar('--text-2', '#555');
  const grid = cssVar('--grid', '#8883');
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
      x: {time: true, range: () => [Date.now() / 1000 - seconds, Date.now() / 1000]},
      y: {
        range: (u, min, max) => {
          const span = (max - min) || Math.abs(max) * 0.1 || 1;
          return [Math.max(0, min - span * 0.1), max + span * 0.1];
        }
      }
    },
    axes: [
      {stroke: text, grid: {stroke: grid}, space: narrow ? 70 : 60},
      {
        stroke: text,
        grid: {stroke: grid},
        size: narrow ? 64 : 80,
        values: (u, vals) =>
            vals.map((v) => (Math.abs(v) >= 100 ? whole.format(v) : money.format(v)))
      },
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

/**
 * One variant's small chart (js/views/item/variants.js): candles [{time, close}] in minor units of the
 * chosen currency as one line in `colour`, its own price scale, no legend (the card names
 * it), the crosshair tooltip. Returns the uPlot instance.
 */
export function drawPhaseChart(uPlot, el, candles, {label, colour}) {
  const {code, exponent} = currency();
  const money = new Intl.NumberFormat(undefined, {
    style: 'currency',
    currency: code,
    minimumFractionDigits: exponent,
    maximumFractionDigits: exponent
  });
  const whole = new Intl.NumberFormat(
      undefined, {style: 'currency', currency: code, maximumFractionDigits: 0});
  const text = cssVar('--text-2', '#555');
  const grid = cssVar('--grid', '#8883');
  const stroke = colour || cssVar('--accent', PALETTE[0]);
  const data = [
    candles.map((c) => Date.parse(c.time) / 1000), candles.map((c) => c.close / minorPerMajor())
  ];
  const font = '11px system-ui, sans-serif';
  // One line per tick label: hours within two days, dates beyond.
  const span = data[0].length ? data[0][data[0].length - 1] - data[0][0] : 0;
  const tickFmt = new Intl.DateTimeFormat(
      undefined,
      span > 2 * 86400 ? {day: 'numeric', month: 'short'} : {hour: '2-digit', minute: '2-digit'});
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
        axes: [
          {
            stroke: text,
            grid: {stroke: grid},
            ticks: {size: 3},
            space: 64,
            size: 24,
            font,
            values: (u, splits) => splits.map((t) => tickFmt.format(new Date(t * 1000)))
          },
          {
            show: !narrow,
            stroke: text,
            grid: {stroke: grid},
            ticks: {size: 3},
            size: 62,
            font,
            space: 30,
            values: (u, vals) =>
                vals.map((v) => (Math.abs(v) >= 100 ? whole.format(v) : money.format(v)))
          },
        ],
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
