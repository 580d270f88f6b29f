// Variants on the item page (docs/api.md §18). A base whose name hides several priced
// variants (Doppler phases, Ruby, Sapphire, …) gets one panel: every variant's price per
// market in one table — a trader compares phases across markets before anything else —
// and a small chart per variant over the page's window, each on its own price scale
// (a Ruby and a Phase 3 differ fourfold; one shared axis would flatten the cheap ones).
// A variant's own page says which base it belongs to and links its siblings.

import {
  ago,
  change,
  count,
  emptyBox,
  errorBox,
  exactTime,
  fill,
  getJson,
  h,
  skeleton,
  variantChip,
  variantStyles
} from '../../api.js';
import {drawPhaseChart, loadUPlot} from '../../chart.js';
import {money} from '../../money.js';

variantStyles();

/** The details of a base's variants, in the base's order (docs/api.md §18: kVariantNames). */
function loadVariants(base) {
  return Promise.all(base.variants.map(
      (v) => getJson(`/api/v1/items/${v.id}`, `${v.variant}`)
                 .then((detail) => ({...v, detail}))
                 .catch((error) => ({...v, error}))));
}

/** The line under a variant's name: "Ruby of <base>", and its sibling variants as links. */
export function variantOf(item) {
  const siblings =
      h('nav', {class: 'variant-siblings', 'aria-label': 'Other variants of this name'});
  const line =
      h('p', {class: 'variant-of', id: 'variant-of'}, variantChip(item.variant), ' of ',
        h('a', {href: `/items/${item.variant_of}`, 'data-link': '', id: 'variant-base'},
          item.market_hash_name),
        siblings);
  getJson(`/api/v1/items/${item.variant_of}`, 'The base item')
      .then((base) => {
        fill(
            siblings,
            h('a', {href: `/items/${base.id}`, 'data-link': '', class: 'chip'}, 'All variants'),
            (base.variants || [])
                .map(
                    (v) =>
                        (v.id === item.id ? h('span', {'aria-current': 'page', class: 'current'},
                                              variantChip(v.variant)) :
                                            h('a', {href: `/items/${v.id}`, 'data-link': ''},
                                              variantChip(v.variant)))));
      })
      .catch(() => {/* the link to the base above still works */});
  return line;
}

/**
 * The variants panel of a base item. Returns {el, refresh, resize, destroy}: `refresh`
 * reloads the prices (a new cycle), `resize` fits the charts to their cards.
 */
export function variantsPanel(base, win) {
  const tableEl = h('div', {id: 'variants-table'}, skeleton(4));
  const chartsEl = h('div', {class: 'phase-charts', id: 'variant-charts'});
  const el = h(
      'section', {class: 'panel', id: 'variants', 'aria-labelledby': 'variants-h'},
      h('div', {class: 'panel-head'},
        h('h2', {id: 'variants-h'}, `Variants · ${count(base.variants.length)}`)),
      h('p', {class: 'hint'}, 'One name, several priced variants: each has its own price. ',
        'The price above is the cheapest variant on each market; in green, the cheapest market for each variant. Press a variant for its full chart, markets and metrics.'),
      tableEl, h('h3', {class: 'phase-charts-h'}, `Each variant over ${win}`), chartsEl);
  let alive = true;
  let plots = [];
  let rows = [];

  async function refresh() {
    try {
      rows = await loadVariants(base);
      if (!alive) return;
      renderTable();
    } catch (err) {
      fill(tableEl, errorBox(err, refresh));
    }
  }

  function renderTable() {
    const priced = rows.filter(
        (r) => r.detail && r.detail.current_price !== null && r.detail.current_price !== undefined);
    const cheapest = priced.length ? Math.min(...priced.map((r) => r.detail.current_price)) : null;
    const markets = [
      ...new Set(
          rows.flatMap((r) => (r.detail ? r.detail.latest_prices || [] : []).map((p) => p.source)))
    ].sort();
    const premium = (cents) =>
        (cheapest && cents !== null && cents !== undefined ?
             `+${Math.round((cents / cheapest - 1) * 100)} %` :
             '—');
    fill(
        tableEl,
        h('table', {class: 'table variants-table'},
          h('thead', {},
            h('tr', {}, h('th', {scope: 'col'}, 'Variant'),
              h('th', {scope: 'col', class: 'num'}, 'Price'),
              h('th', {scope: 'col', class: 'num', title: 'Above the cheapest variant'},
                'vs cheapest'),
              markets.map((m) => h('th', {scope: 'col', class: 'num'}, m)),
              h('th', {scope: 'col'}, 'Updated'))),
          h('tbody', {}, rows.map((r) => {
            const link = h('a', {href: `/items/${r.id}`, 'data-link': ''}, variantChip(r.variant));
            if (r.error) {
              return h(
                  'tr', {'data-variant': r.variant},
                  h('td', {'data-label': 'Variant', class: 'variant-name'}, link),
                  h('td', {class: 'error-text', colspan: String(markets.length + 3)},
                    r.error.message));
            }
            const d = r.detail;
            const byMarket = new Map((d.latest_prices || []).map((p) => [p.source, p]));
            const low = Math.min(...[...byMarket.values()]
                                     .filter((p) => !p.stale && !p.outlier)
                                     .map((p) => p.price));
            return h(
                'tr', {'data-variant': r.variant, 'data-item': String(r.id)},
                h('td', {'data-label': 'Variant', class: 'variant-name'}, link),
                h('td', {
                  class: 'num variant-price',
                  'data-label': 'Price',
                  title: d.current_price_source ? `on ${d.current_price_source}` : 'no price yet'
                },
                  d.current_price === null ? h('span', {class: 'muted'}, 'no price') :
                                             money(d.current_price)),
                h('td', {class: 'num muted', 'data-label': 'vs cheapest'},
                  d.current_price === cheapest ? 'cheapest' : premium(d.current_price)),
                markets.map((m) => {
                  const p = byMarket.get(m);
                  const flags = p ?
                      [
                        p.stale ? 'stale' : null, p.outlier ? 'outlier' : null,
                        p.price === low ? 'best' : null
                      ].filter(Boolean) :
                      [];
                  return h(
                      'td', {
                        class: `num market-price ${flags.join(' ')}`,
                        'data-label': m,
                        'data-source': m,
                        title: p ? `${p.kind || 'price'} · ${exactTime(p.time)}${
                                       p.stale ? ' · stale' : ''}${p.outlier ? ' · outlier' : ''}` :
                                   `${m} has no price for this variant`
                      },
                      p ? money(p.price) : '—');
                }),
                h('td', {'data-label': 'Updated', class: 'updated'},
                  d.updated_at ? h('time', {datetime: d.updated_at, title: exactTime(d.updated_at)},
                                   ago(d.updated_at)) :
                                 'never'));
          }))));
  }

  async function loadCharts() {
    for (const p of plots) p.destroy();
    plots = [];
    if (!rows.length) await refresh();
    if (!alive) return;
    const cards = rows.map((r) => {
      const chart =
          h('div', {class: 'phase-chart', role: 'img', 'aria-label': `${r.variant} price, ${win}`});
      const state = h('div', {class: 'chart-state'}, skeleton(2));
      const figure = h(
          'figure', {class: 'phase-card', 'data-variant': r.variant},
          h('figcaption', {},
            h('a', {href: `/items/${r.id}?window=${win}`, 'data-link': ''}, variantChip(r.variant)),
            h('span', {class: 'num'}, r.detail ? money(r.detail.current_price) : '—'),
            h('span', {class: 'phase-change'})),
          state, chart);
      return {r, chart, state, figure};
    });
    fill(chartsEl, cards.map((c) => c.figure));
    let uPlot;
    try {
      uPlot = await loadUPlot();
    } catch (err) {
      fill(chartsEl, errorBox(err, loadCharts));
      return;
    }
    await Promise.all(cards.map(async ({r, chart, state, figure}) => {
      const source = r.detail && r.detail.current_price_source;
      if (!source) {
        fill(state, emptyBox('No price yet.'));
        return;
      }
      try {
        const c = await getJson(
            `/api/v1/items/${r.id}/candles?window=${win}&source=${encodeURIComponent(source)}`,
            `${r.variant} chart`);
        if (!alive) return;
        if (!c.candles.length) {
          fill(state, emptyBox(`No prices in the last ${win}.`));
          return;
        }
        fill(state, '');
        const first = c.candles[0].close;
        const last = c.candles[c.candles.length - 1].close;
        fill(figure.querySelector('.phase-change'), first ? change((last / first - 1) * 100) : '');
        // The finish's colour for Ruby, Sapphire, …; the accent for the phases (their chip grey
        // reads as "disabled" on a chart).
        const colour = r.variant.startsWith('Phase') ?
            '' :
            getComputedStyle(figure.querySelector('.chip.variant')).getPropertyValue('--v').trim();
        plots.push(
            drawPhaseChart(uPlot, chart, c.candles, {label: `${r.variant} on ${source}`, colour}));
        chart.dataset.points = String(c.candles.length);
      } catch (err) {
        fill(state, errorBox(err));
      }
    }));
  }

  function resize() {
    for (const p of plots)
      p.setSize({width: Math.max(140, p.root.parentElement.clientWidth), height: p.height});
  }

  return {
    el,
    load: async () => {
      await refresh();
      await loadCharts();
    },
    refresh,
    resize,
    destroy: () => {
      alive = false;
      for (const p of plots) p.destroy();
      plots = [];
    },
  };
}
