// Item: header with the current price, the chart per market from candles (1h/24h/7d/30d/
// 90d/1y/all in the URL), metrics per window, the markets table, live updates while open. A base
// with variants adds the variants panel; a variant names its base
// (js/views/item/variants.js). The page keeps the state its views share (`page`).

import {errorBox, fill, getJson, h, hasVariants, pageStyles, setTitle} from './api.js';
import {live} from './live.js';
import {chartWindow} from './views/item/chart-windows.js';
import {renderHead} from './views/item/head.js';
import {layout} from './views/item/layout.js';
import {applyLivePrices} from './views/item/live-prices.js';
import {renderMarkets} from './views/item/markets.js';
import {loadMetrics} from './views/item/metrics.js';
import {loadChart} from './views/item/price-chart.js';
import {variantsPanel} from './views/item/variants.js';

pageStyles('item');

export function render(view, [idText], query) {
  const id = Number(idText);
  const win = chartWindow(query.get('window'));
  const page = {
    id,
    win,
    alive: true,
    item: null,
    markets: [],
    plot: null,
    variants: null,
    vol24: null,
    sort: {key: 'price', dir: 1},
    timers: {}
  };
  page.els = layout(view, page);
  const onResize = () => {
    const el = page.els.chart;
    if (page.plot)
      page.plot.setSize(
          {width: Math.max(280, el.clientWidth), height: el.clientWidth < 500 ? 260 : 340});
    if (page.variants) page.variants.resize();
  };
  const onPrices = (event) => livePrices(page, event.detail);
  window.addEventListener('resize', onResize);
  live.addEventListener('prices', onPrices);
  live.watch([id]);
  loadItem(page);
  loadMetrics(page);
  return () => {
    page.alive = false;
    clearTimeout(page.timers.redraw);
    clearTimeout(page.timers.variants);
    live.removeEventListener('prices', onPrices);
    window.removeEventListener('resize', onResize);
    if (page.plot) page.plot.destroy();
    if (page.variants) page.variants.destroy();
  };
}

async function loadItem(page) {
  try {
    const item = await getJson(`/api/v1/items/${page.id}`, 'Item');
    if (!page.alive) return;
    showItem(page, item);
    setTitle(item.variant ? `${item.market_hash_name} — ${item.variant}` : item.market_hash_name);
    const crumb = document.getElementById('crumb-name');
    if (item.variant)
      fill(
          crumb,
          h('a', {href: `/items/${item.variant_of}`, 'data-link': ''}, item.market_hash_name),
          ' / ', item.variant);
    else
      crumb.textContent = item.market_hash_name;
    loadChart(page);
    if (hasVariants(item)) {
      page.variants = variantsPanel(item, page.win);
      fill(page.els.variants, page.variants.el);
      page.variants.load();
      live.watch([page.id, ...item.variants.map((v) => v.id)]);
    }
  } catch (err) {
    fill(page.els.head, errorBox(err, () => loadItem(page)));
    fill(page.els.chartState, '');
    fill(page.els.markets, '');
  }
}

function showItem(page, item) {
  page.item = item;
  page.markets = (item.latest_prices || []).map((p) => ({...p}));
  renderHead(page);
  renderMarkets(page);
}

async function refreshDetail(page) {
  try {
    const fresh = await getJson(`/api/v1/items/${page.id}`, 'Item');
    if (!page.alive) return;
    showItem(page, fresh);
    if (page.variants) page.variants.refresh();
  } catch { /* the next cycle tries again; the shown prices stay */
  }
}

function livePrices(page, rows) {
  // A variant's new price: its row in the variants panel, once the cycle has settled.
  if (page.variants && rows.some((p) => page.item.variants.some((v) => v.id === p.item_id))) {
    clearTimeout(page.timers.variants);
    page.timers.variants = setTimeout(() => page.variants.refresh(), 800);
  }
  if (!applyLivePrices(page, rows)) return;
  renderMarkets(page);
  clearTimeout(page.timers.redraw);
  // The live entries carry no freshness or outlier flag: the detail brings them, with
  // the new consensus.
  page.timers.redraw = setTimeout(() => {
    refreshDetail(page);
    loadChart(page);
    loadMetrics(page);
  }, 800);
}
