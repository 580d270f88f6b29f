// The Portfolio page's value history: total value and what was paid, one point an hour,
// over 7d, 30d or 1y (the choice kept in the browser), drawn with uPlot on first use.
// A new portfolio's history is short: it is drawn over the hours it covers (at least a
// few, charts/value-span.js), never as a dot at a month's edge, and a single point is
// also said in words above the chart.
import {emptyBox, errorBox, fill, getJson, h, skeleton} from '../../api.js';
import {drawValueChart, loadUPlot, valueChartPlan} from '../../chart.js';
import {money} from '../../money.js';
import {windowTabs} from '../common/tabs.js';

export const HISTORY_WINDOWS = ['7d', '30d', '1y'];
const WINDOW_SECONDS = {
  '7d': 7 * 86400,
  '30d': 30 * 86400,
  '1y': 365 * 86400
};
export const HISTORY_KEY = 'skinpulse.portfolioWindow';

/** Loads page.historyWindow into page.els.valuePanel; keeps the chart as page.plot. */
export async function loadHistory(page) {
  const chartEl = h('div', {
    class: 'chart value-chart',
    id: 'value-chart',
    role: 'img',
    'aria-label': `Portfolio value, ${page.historyWindow}`
  });
  const state = h('div', {class: 'chart-state'}, skeleton(3));
  const panel = page.els.valuePanel;
  panel.hidden = false;
  const pick = (w) => {
    page.historyWindow = w;
    localStorage.setItem(HISTORY_KEY, w);
    loadHistory(page);
  };
  fill(
      panel,
      h('div', {class: 'panel-head'}, h('h2', {id: 'value-h'}, 'Value over time'),
        windowTabs(page.historyWindow, pick, HISTORY_WINDOWS)),
      h('p', {class: 'hint'}, h('span', {class: 'legend-swatch value'}), 'Total value ',
        h('span', {class: 'legend-swatch cost'}),
        'What you paid (holdings with a price entered) · one point per hour',
        // The history is the user's, not an account's: said while the holdings are filtered.
        page.account ? ' · every account together' : ''),
      state, chartEl);
  try {
    const points =
        await getJson(`/api/v1/portfolio/history?window=${page.historyWindow}`, 'Value history');
    if (!page.alive) return;
    if (page.plot) {
      page.plot.destroy();
      page.plot = null;
    }
    const times = points.map((p) => Date.parse(p.time) / 1000);
    const plan = valueChartPlan(times, WINDOW_SECONDS[page.historyWindow], Date.now() / 1000);
    if (plan.kind === 'empty') {
      chartEl.classList.add('empty');
      fill(state, emptyBox(NO_HISTORY));
      return;
    }
    const uPlot = await loadUPlot();
    if (!page.alive) return;
    fill(state, historyNote(plan, points[0], page.historyWindow));
    page.plot = drawValueChart(uPlot, chartEl, points, plan);
    chartEl.dataset.points = String(points.length);
  } catch (err) {
    fill(state, errorBox(err, () => loadHistory(page)));
  }
}

const NO_HISTORY =
    'No value history yet: it starts with your first import and grows by one point an hour.';
const pointTime = new Intl.DateTimeFormat(undefined, {dateStyle: 'medium', timeStyle: 'short'});

/**
 * What is said above the chart: a single point in words, or since when a short history
 * runs; nothing for a history that fills the window.
 */
function historyNote(plan, first, window) {
  if (plan.single) return firstPointNote(first);
  return plan.fitted ? shortHistoryNote(first, window) : '';
}

/** One point so far: its time and values in words (a chart of one dot says little). */
function firstPointNote(point) {
  const paid = point.cost_total > 0 ? ` (paid ${money(point.cost_total)})` : '';
  return h(
      'p', {class: 'value-note', id: 'value-first-point'},
      'Value is recorded hourly from your first import — first point ',
      h('time', {datetime: point.time}, pointTime.format(new Date(point.time))), ': ',
      h('strong', {}, money(point.total_value)), paid,
      '. The line starts with the next hourly point.');
}

/** The history is shorter than the window: the axis covers the history, and says so. */
function shortHistoryNote(point, window) {
  return h(
      'p', {class: 'hint value-since', id: 'value-since'}, 'Since your first import, ',
      h('time', {datetime: point.time}, pointTime.format(new Date(point.time))),
      ` — the ${window} view fills in as hourly points arrive.`);
}
