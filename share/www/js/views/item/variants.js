// Variants on the item page (docs/api.md §18). A base whose name hides several priced
// variants (Doppler phases, Ruby, Sapphire, …) gets one panel: every variant's price per
// market in one table (variants-table.js) and a small chart per variant over the page's
// window (variant-charts.js). A variant's own page says which base it belongs to and
// links its siblings.

import {
  count,
  errorBox,
  fill,
  getJson,
  h,
  skeleton,
  variantChip,
  variantStyles
} from '../../api.js';

import {drawVariantCharts} from './variant-charts.js';
import {variantsTable} from './variants-table.js';

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

function panelFrame(base, win) {
  const tableEl = h('div', {id: 'variants-table'}, skeleton(4));
  const chartsEl = h('div', {class: 'phase-charts', id: 'variant-charts'});
  const el = h(
      'section', {class: 'panel', id: 'variants', 'aria-labelledby': 'variants-h'},
      h('div', {class: 'panel-head'},
        h('h2', {id: 'variants-h'}, `Variants · ${count(base.variants.length)}`)),
      h('p', {class: 'hint'}, 'One name, several priced variants: each has its own price. ',
        'The price above is the cheapest variant on each market; in green, the cheapest market for each variant. Press a variant for its full chart, markets and metrics.'),
      tableEl, h('h3', {class: 'phase-charts-h'}, `Each variant over ${win}`), chartsEl);
  return {el, tableEl, chartsEl};
}

/**
 * The variants panel of a base item. Returns {el, load, refresh, resize, destroy}:
 * `refresh` reloads the prices (a new cycle), `resize` fits the charts to their cards.
 */
export function variantsPanel(base, win) {
  const {el, tableEl, chartsEl} = panelFrame(base, win);
  let alive = true;
  let plots = [];
  let rows = [];
  const refresh = async () => {
    try {
      rows = await loadVariants(base);
      if (!alive) return;
      fill(tableEl, variantsTable(rows));
    } catch (err) {
      fill(tableEl, errorBox(err, refresh));
    }
  };
  const loadCharts = async () => {
    for (const p of plots) p.destroy();
    plots = [];
    if (!rows.length) await refresh();
    if (!alive) return;
    const error = await drawVariantCharts(
        chartsEl, rows, win, {alive: () => alive, keep: (p) => plots.push(p)});
    if (error) fill(chartsEl, errorBox(error, loadCharts));
  };
  const resize = () => {
    for (const p of plots)
      p.setSize({width: Math.max(140, p.root.parentElement.clientWidth), height: p.height});
  };
  const destroy = () => {
    alive = false;
    for (const p of plots) p.destroy();
    plots = [];
  };
  const load = async () => {
    await refresh();
    await loadCharts();
  };
  return {el, load, refresh, resize, destroy};
}
