// The item page's volatility cards, one per window (1h, 24h, 7d): σ, change, relative
// swing and trend of the reference market, each explained on hover.
import {change, count, errorBox, fill, getJson, h, number} from '../../api.js';
import {money} from '../../money.js';

export const METRIC_WINDOWS = ['1h', '24h', '7d'];
const EXPLAIN = {
  sigma: 'Typical distance of a price from the window’s average: how much it swings, in money.',
  change: 'From the price just before the window to the latest one.',
  cv: 'Swing relative to price (σ ÷ mean): compares a $2 case with a $2,000 knife.',
  trend: 'Average drift per hour over the window (least-squares line).',
};

/** Loads the three windows into page.els.metrics; keeps the 24h one as page.vol24. */
export async function loadMetrics(page) {
  try {
    const all = await Promise.all(METRIC_WINDOWS.map(
        (w) => getJson(`/api/v1/items/${page.id}/volatility?window=${w}`, `Metrics ${w}`)));
    if (!page.alive) return null;
    page.vol24 = all[1];
    const chg = document.getElementById('change-24h');
    if (chg) fill(chg, page.vol24.samples >= 2 ? change(page.vol24.percent_change) : '');
    fill(page.els.metrics, all.map((m, i) => metricCard(m, METRIC_WINDOWS[i])));
    return all;
  } catch (err) {
    fill(page.els.metrics, errorBox(err, () => loadMetrics(page)));
    return null;
  }
}

function metricCard(m, win) {
  if (m.samples < 2) {
    return h(
        'div', {class: 'metric-card'},
        h('h3', {}, win, h('span', {class: 'muted small'}, ' · not enough prices')),
        h('p', {class: 'muted small'}, `Metrics need two prices from one market within ${win}.`));
  }
  const entry = (title, label, value) =>
      h('div', {title}, h('dt', {}, label), h('dd', {class: 'num'}, value));
  return h(
      'div', {class: 'metric-card'},
      h('h3', {}, win,
        h('span', {class: 'muted small'},
          m.samples ? ` · ${count(m.samples)} prices${m.source ? ' from ' + m.source : ''}` :
                      ' · not enough prices')),
      h('dl', {}, entry(EXPLAIN.sigma, 'σ (swing)', money(Math.round(m.rolling_stddev))),
        entry(EXPLAIN.change, 'Change', change(m.percent_change)),
        entry(EXPLAIN.cv, 'Relative swing', `${number((m.coefficient_of_variation || 0) * 100)} %`),
        entry(
            EXPLAIN.trend, 'Trend / hour',
            `${m.trend_score >= 0 ? '+' : '−'}${money(Math.abs(Math.round(m.trend_score)))}`)));
}
