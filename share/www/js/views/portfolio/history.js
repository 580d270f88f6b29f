// The Portfolio page's value history: total value and what was paid, one point an hour,
// over 7d, 30d or 1y (the choice kept in the browser), drawn with uPlot on first use.
import {emptyBox, errorBox, fill, getJson, h, skeleton} from '../../api.js';
import {drawValueChart, loadUPlot} from '../../chart.js';
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
        'What you paid (holdings with a price entered) · one point per hour'),
      state, chartEl);
  try {
    const points =
        await getJson(`/api/v1/portfolio/history?window=${page.historyWindow}`, 'Value history');
    if (!page.alive) return;
    if (page.plot) {
      page.plot.destroy();
      page.plot = null;
    }
    if (!points.length) {
      chartEl.classList.add('empty');
      fill(
          state,
          emptyBox(
              'No value history yet: it starts with your first import and grows by one point an hour.'));
      return;
    }
    const uPlot = await loadUPlot();
    if (!page.alive) return;
    fill(state, '');
    page.plot = drawValueChart(uPlot, chartEl, points, WINDOW_SECONDS[page.historyWindow]);
    chartEl.dataset.points = String(points.length);
  } catch (err) {
    fill(state, errorBox(err, () => loadHistory(page)));
  }
}
