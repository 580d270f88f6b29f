// The item page's price chart: one line per market from candles of the page's window
// (the reference market first), the Bollinger band of that window when it is the
// reference market's, uPlot loaded on first use.
import {emptyBox, errorBox, fill, getJson} from '../../api.js';
import {drawChart, loadUPlot} from '../../chart.js';

import {emptyChartText, hasBand} from './chart-windows.js';

/** The markets' sources, the reference first, then by name. */
export function chartSources(markets, ref) {
  const sources = markets.map((m) => m.source);
  return sources.sort((a, b) => (a === ref ? -1 : b === ref ? 1 : a.localeCompare(b)));
}

export async function loadChart(page) {
  const {id, win, els} = page;
  try {
    const sources = chartSources(page.markets, page.item.current_price_source);
    const [uPlot, candleSets, band] = await Promise.all([
      loadUPlot(),
      Promise.all(sources.map(
          (s) => getJson(
              `/api/v1/items/${id}/candles?window=${win}&source=${encodeURIComponent(s)}`,
              `Chart (${s})`))),
      !hasBand(win) ? Promise.resolve(null) :
                      getJson(`/api/v1/items/${id}/volatility?window=${win}`, 'Bollinger band')
                          .catch(() => null),
    ]);
    if (!page.alive) return;
    const series = candleSets.filter((c) => c.candles.length)
                       .map((c) => ({source: c.source, candles: c.candles}));
    if (!series.length) {
      showEmpty(page);
      return;
    }
    els.chart.classList.remove('empty');
    fill(els.chartState, '');
    const b = band && band.bollinger && band.samples >= 2 && band.source === series[0].source ?
        band.bollinger :
        null;
    if (page.plot) page.plot.destroy();
    els.chart.replaceChildren();
    page.plot = drawChart(uPlot, els.chart, {series, band: b, window: win});
    els.chart.dataset.points = String(series.reduce((n, s) => n + s.candles.length, 0));
  } catch (err) {
    fill(els.chartState, errorBox(err, () => loadChart(page)));
  }
}

function showEmpty(page) {
  if (page.plot) {
    page.plot.destroy();
    page.plot = null;
  }
  page.els.chart.classList.add('empty');
  fill(
      page.els.chartState,
      emptyBox(
          page.markets.length ?
              emptyChartText(page.win) :
              'No market has priced this item yet, so there is nothing to chart.'));
}
