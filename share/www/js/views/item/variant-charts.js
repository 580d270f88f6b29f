// The variants panel's small charts: one per variant over the page's window, each on its
// own price scale (a Ruby and a Phase 3 differ fourfold; one shared axis would flatten
// the cheap ones), captioned with the price and the window's change.
import {change, emptyBox, errorBox, fill, getJson, h, skeleton, variantChip} from '../../api.js';
import {drawPhaseChart, loadUPlot} from '../../chart.js';
import {money} from '../../money.js';

/**
 * Draws a card per variant of `rows` into `chartsEl`, handing each chart drawn to
 *  `page.keep` at once (so a page that goes away destroys it); resolves to the error
 *  when the chart library could not be loaded, else null.
 */
export async function drawVariantCharts(chartsEl, rows, win, page) {
  const cards = rows.map((r) => phaseCard(r, win));
  fill(chartsEl, cards.map((c) => c.figure));
  let uPlot;
  try {
    uPlot = await loadUPlot();
  } catch (err) {
    return err;
  }
  await Promise.all(cards.map(async (card) => {
    const plot = await drawCard(uPlot, card, win, page.alive);
    if (plot) page.keep(plot);
  }));
  return null;
}

function phaseCard(r, win) {
  const chart =
      h('div', {class: 'phase-chart', role: 'img', 'aria-label': `${r.variant} price, ${win}`});
  const state = h('div', {class: 'chart-state'}, skeleton(2));
  const figure =
      h('figure', {class: 'phase-card', 'data-variant': r.variant},
        h('figcaption', {},
          h('a', {href: `/items/${r.id}?window=${win}`, 'data-link': ''}, variantChip(r.variant)),
          h('span', {class: 'num'}, r.detail ? money(r.detail.current_price) : '—'),
          h('span', {class: 'phase-change'})),
        state, chart);
  return {r, chart, state, figure};
}

async function drawCard(uPlot, {r, chart, state, figure}, win, alive) {
  const source = r.detail && r.detail.current_price_source;
  if (!source) {
    fill(state, emptyBox('No price yet.'));
    return null;
  }
  try {
    const c = await getJson(
        `/api/v1/items/${r.id}/candles?window=${win}&source=${encodeURIComponent(source)}`,
        `${r.variant} chart`);
    if (!alive()) return null;
    if (!c.candles.length) {
      fill(state, emptyBox(`No prices in the last ${win}.`));
      return null;
    }
    fill(state, '');
    const first = c.candles[0].close;
    const last = c.candles[c.candles.length - 1].close;
    fill(figure.querySelector('.phase-change'), first ? change((last / first - 1) * 100) : '');
    // The finish's colour for Ruby, Sapphire, …; the accent for the phases (their chip grey reads
    // as "disabled" on a chart).
    const colour = r.variant.startsWith('Phase') ?
        '' :
        getComputedStyle(figure.querySelector('.chip.variant')).getPropertyValue('--v').trim();
    const plot =
        drawPhaseChart(uPlot, chart, c.candles, {label: `${r.variant} on ${source}`, colour});
    chart.dataset.points = String(c.candles.length);
    return plot;
  } catch (err) {
    fill(state, errorBox(err));
    return null;
  }
}
