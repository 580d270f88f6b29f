// Item: header with the current price, the chart per market from candles (1h/24h/7d/30d
// in the URL), metrics per window, the markets table, live updates while open. A base
// with variants adds the variants panel; a variant names its base (js/views/item/variants.js).

import {
  ago,
  change,
  count,
  emptyBox,
  errorBox,
  exactTime,
  fill,
  flash,
  getJson,
  h,
  hasVariants,
  itemImage,
  number,
  pageStyles,
  percent,
  rarityChip,
  setTitle,
  skeleton
} from './api.js';
import {drawChart, loadUPlot} from './chart.js';
import {live} from './live.js';
import {fromUsd, money} from './money.js';
import {navigate} from './router.js';
import {windowTabs} from './views/common/tabs.js';
import {variantOf, variantsPanel} from './views/item/variants.js';

pageStyles('item');

const CHART_WINDOWS = ['1h', '24h', '7d', '30d'];
const METRIC_WINDOWS = ['1h', '24h', '7d'];
const EXPLAIN = {
  sigma: 'Typical distance of a price from the window’s average: how much it swings, in money.',
  change: 'From the price just before the window to the latest one.',
  cv: 'Swing relative to price (σ ÷ mean): compares a $2 case with a $2,000 knife.',
  trend: 'Average drift per hour over the window (least-squares line).',
};

export function render(view, [idText], query) {
  const id = Number(idText);
  const win = CHART_WINDOWS.includes(query.get('window')) ? query.get('window') : '24h';
  let alive = true;
  let item = null;
  let plot = null;
  let redrawTimer = null;
  let markets = [];
  let variants = null;  // the variants panel of a base (js/views/item/variants.js)

  const head = h('section', {class: 'item-head panel'}, skeleton(3));
  const chartEl =
      h('div', {class: 'chart', id: 'chart', role: 'img', 'aria-label': `Price chart, ${win}`});
  const chartState = h('div', {class: 'chart-state'}, skeleton(4));
  const resetBtn =
      h('button', {
        type: 'button',
        class: 'btn small',
        onclick: () => plot && plot.setScale('x', {
          min: plot.data[0][0],
          max: Math.max(plot.data[0][plot.data[0].length - 1], Date.now() / 1000)
        })
      },
        'Reset zoom');
  const metricsEl = h('div', {class: 'metric-cards'}, skeleton(2));
  const marketsEl = h('div', {}, skeleton(3));
  const copyBtn =
      h('button', {
        type: 'button',
        class: 'btn small',
        onclick: async () => {
          try {
            await navigator.clipboard.writeText(location.href);
            copyBtn.textContent = 'Link copied';
          } catch {
            copyBtn.textContent = 'Copy failed: select the address bar';
          }
        }
      },
        'Copy link');

  const variantsSlot = h('div', {id: 'variants-slot'});
  fill(
      view,
      h('nav', {class: 'crumbs', 'aria-label': 'Breadcrumb'},
        h('a', {href: '/', 'data-link': ''}, 'Market'), ' / ',
        h('span', {id: 'crumb-name'}, `Item ${id}`)),
      head, variantsSlot,
      h('section', {class: 'panel', 'aria-labelledby': 'chart-h'},
        h('div', {class: 'panel-head'}, h('h2', {id: 'chart-h'}, 'Price'),
          windowTabs(
              win, (w) => navigate(`/items/${id}?window=${w}`, {replace: true}), CHART_WINDOWS),
          resetBtn),
        h('p', {class: 'hint'},
          'Drag across the chart to zoom; double-click or “Reset zoom” to go back. ',
          win === '30d' ? 'Volatility metrics cover 1h, 24h and 7d, so the 30d chart has no band.' :
                          'The shaded band is the window’s mean ± 2σ of the reference market.'),
        chartState, chartEl),
      h('div', {class: 'grid-2'},
        h('section', {class: 'panel', 'aria-labelledby': 'metrics-h'},
          h('h2', {id: 'metrics-h'}, 'Volatility by window'), metricsEl),
        h('section', {class: 'panel', 'aria-labelledby': 'markets-h'},
          h('div', {class: 'panel-head'}, h('h2', {id: 'markets-h'}, 'Markets'), copyBtn),
          marketsEl)));

  async function loadItem() {
    try {
      item = await getJson(`/api/v1/items/${id}`, 'Item');
      if (!alive) return;
      setTitle(item.variant ? `${item.market_hash_name} — ${item.variant}` : item.market_hash_name);
      const crumb = document.getElementById('crumb-name');
      if (item.variant)
        fill(
            crumb,
            h('a', {href: `/items/${item.variant_of}`, 'data-link': ''}, item.market_hash_name),
            ' / ', item.variant);
      else
        crumb.textContent = item.market_hash_name;
      markets = (item.latest_prices || []).map((p) => ({...p}));
      renderHead();
      renderMarkets();
      loadChart();
      if (hasVariants(item)) {
        variants = variantsPanel(item, win);
        fill(variantsSlot, variants.el);
        variants.load();
        live.watch([id, ...item.variants.map((v) => v.id)]);
      }
    } catch (err) {
      fill(head, errorBox(err, loadItem));
      fill(chartState, '');
      fill(marketsEl, '');
    }
  }

  async function refreshDetail() {
    try {
      const fresh = await getJson(`/api/v1/items/${id}`, 'Item');
      if (!alive) return;
      item = fresh;
      markets = (item.latest_prices || []).map((p) => ({...p}));
      renderHead();
      renderMarkets();
      if (variants) variants.refresh();
    } catch { /* the next cycle tries again; the shown prices stay */
    }
  }

  let vol24 = null;
  let variantLine = null;  // built once: it fetches the base for the sibling links
  function renderHead() {
    const name = item.market_hash_name;
    const badges = [
      rarityChip(item.rarity), item.stattrak ? h('span', {class: 'chip st'}, 'StatTrak™') : null,
      name.includes('Souvenir') ? h('span', {class: 'chip souvenir'}, 'Souvenir') : null,
      item.weapon_type ? h('span', {class: 'chip'}, item.weapon_type) : null
    ];
    const trusted = markets.filter((m) => !m.stale && !m.outlier).length;
    const flagged = markets.filter((m) => m.outlier).length;
    const stale = markets.filter((m) => m.stale).length;
    fill(
        head, h('div', {class: 'item-img-wrap'}, itemImage(item, 'lg')),
        h('div', {class: 'item-title'}, h('h1', {}, name), h('div', {class: 'badges'}, badges),
          item.variant ? (variantLine ||= variantOf(item)) : null,
          h('div', {class: 'price-line'},
            hasVariants(item) ?
                h('span', {class: 'from', title: 'The cheapest of its variants'}, 'from') :
                null,
            h('span',
              {class: 'big num', id: 'current-price', 'data-cents': item.current_price ?? ''},
              money(item.current_price)),
            h('span', {id: 'change-24h'},
              vol24 && vol24.samples >= 2 ? change(vol24.percent_change) : ''),
            h('span', {class: 'muted'},
              item.current_price_source ? ` on ${item.current_price_source}` : ' no price yet',
              hasVariants(item) ? ' · cheapest variant' : '')),
          markets.length ?
              h('div', {class: 'consensus'},
                h('span', {
                  title:
                      'Median of the fresh listings across markets (of every fresh price when no market lists it); outliers left out'
                },
                  h('span', {class: 'kpi-label'}, 'Consensus'),
                  h('span', {class: 'num', id: 'consensus-price'},
                    money(item.consensus_price ?? null))),
                h('span', {
                  title:
                      'Gap between the cheapest and the dearest of those prices, relative to the cheapest'
                },
                  h('span', {class: 'kpi-label'}, 'Spread'),
                  h('span', {class: 'num', id: 'spread-percent'},
                    item.spread_percent === null || item.spread_percent === undefined ?
                        '—' :
                        `${number(item.spread_percent)} %`)),
                h('span', {}, h('span', {class: 'kpi-label'}, 'Markets'),
                  h('span', {id: 'market-trust'}, `${trusted} of ${markets.length} trusted`,
                    stale ? h('span', {
                      class: 'chip stale',
                      title:
                          'Prices older than three polling intervals of their market (24 h for markets not polled)'
                    },
                              `${stale} stale`) :
                            null,
                    flagged ? h('span', {
                      class: 'chip outlier',
                      title:
                          'Prices far outside what the other markets, or the market’s own previous price, say'
                    },
                                `${flagged} outlier${flagged > 1 ? 's' : ''}`) :
                              null))) :
              null,
          h('p', {class: 'muted'}, 'Updated ',
            item.updated_at ?
                h('time',
                  {datetime: item.updated_at, title: exactTime(item.updated_at), id: 'updated-at'},
                  ago(item.updated_at)) :
                'never'),
          h('p', {},
            h('a',
              {class: 'btn small', id: 'create-alert', href: `/alerts?item=${id}`, 'data-link': ''},
              'Create alert'))));
  }

  // What each price kind of docs/api.md §3 means, as a tooltip on its chip.
  const KIND_TITLES = {
    ask: 'Lowest listing: what it costs to buy now',
    bid: 'Highest buy order: what you get selling now',
    sale: 'A sale, or an average of recent sales',
    reference: 'The market’s suggested price',
  };
  let sortKey = 'price';
  let sortDir = 1;
  function renderMarkets() {
    if (!markets.length) {
      fill(
          marketsEl,
          emptyBox(
              'No market has priced this item yet. Prices appear after the next polling cycle of a source that lists it.'));
      return;
    }
    const rows = [...markets].sort((a, b) => {
      const x = sortKey === 'age' ? -Date.parse(a.time) : a[sortKey];
      const y = sortKey === 'age' ? -Date.parse(b.time) : b[sortKey];
      return (x < y ? -1 : x > y ? 1 : 0) * sortDir;
    });
    const th = (key, label, cls) =>
        h('th', {
          scope: 'col',
          class: cls,
          'aria-sort': sortKey === key ? (sortDir > 0 ? 'ascending' : 'descending') : 'none'
        },
          h('button', {
            type: 'button',
            class: 'sort',
            onclick: () => {
              sortDir = sortKey === key ? -sortDir : 1;
              sortKey = key;
              renderMarkets();
            }
          },
            label));
    fill(
        marketsEl,
        h('table', {class: 'table'},
          h('thead', {},
            h('tr', {}, th('source', 'Market'), th('price', 'Price', 'num'), th('kind', 'Kind'),
              th('listings', 'Listings', 'num'), th('volume', 'Volume', 'num'), th('age', 'Age'))),
          h('tbody', {},
            rows.map(
                (m) => h(
                    'tr',
                    {class: m.outlier ? 'is-outlier' :
                         m.stale      ? 'is-stale' :
                                        undefined},
                    h('td', {'data-label': 'Market'}, m.source,
                      item.current_price_source === m.source ?
                          h('span', {class: 'chip ref'}, 'reference') :
                          null),
                    h('td', {class: 'num price', 'data-label': 'Price', 'data-source': m.source},
                      money(m.price)),
                    h('td', {'data-label': 'Kind'},
                      m.kind ?
                          h('span', {class: 'chip', title: KIND_TITLES[m.kind] || m.kind}, m.kind) :
                          '—'),
                    h('td', {class: 'num', 'data-label': 'Listings'}, count(m.listings)),
                    h('td', {class: 'num', 'data-label': 'Volume'}, count(m.volume)),
                    h('td', {'data-label': 'Age'},
                      h('time', {datetime: m.time, title: exactTime(m.time)}, ago(m.time)),
                      m.stale ? h('span', {
                        class: 'chip stale',
                        title:
                            'Older than three polling intervals of this market: not in the consensus'
                      },
                                  'stale') :
                                null,
                      m.outlier ? h('span', {
                        class: 'chip outlier',
                        title:
                            'Far outside the other markets (or this market’s previous price): kept out of metrics, consensus and valuation'
                      },
                                    'outlier') :
                                  null))))));
  }

  async function loadMetrics() {
    try {
      const all = await Promise.all(METRIC_WINDOWS.map(
          (w) => getJson(`/api/v1/items/${id}/volatility?window=${w}`, `Metrics ${w}`)));
      if (!alive) return;
      vol24 = all[1];
      const chg = document.getElementById('change-24h');
      if (chg) fill(chg, vol24.samples >= 2 ? change(vol24.percent_change) : '');
      fill(
          metricsEl,
          all.map(
              (m, i) => m.samples < 2 ?
                  h('div', {class: 'metric-card'},
                    h('h3', {}, METRIC_WINDOWS[i],
                      h('span', {class: 'muted small'}, ' · not enough prices')),
                    h('p', {class: 'muted small'},
                      `Metrics need two prices from one market within ${METRIC_WINDOWS[i]}.`)) :
                  h('div', {class: 'metric-card'},
                    h('h3', {}, METRIC_WINDOWS[i],
                      h('span', {class: 'muted small'},
                        m.samples ?
                            ` · ${count(m.samples)} prices${m.source ? ' from ' + m.source : ''}` :
                            ' · not enough prices')),
                    h('dl', {},
                      h('div', {title: EXPLAIN.sigma}, h('dt', {}, 'σ (swing)'),
                        h('dd', {class: 'num'}, money(Math.round(m.rolling_stddev)))),
                      h('div', {title: EXPLAIN.change}, h('dt', {}, 'Change'),
                        h('dd', {class: 'num'}, change(m.percent_change))),
                      h('div', {title: EXPLAIN.cv}, h('dt', {}, 'Relative swing'),
                        h('dd', {class: 'num'},
                          `${number((m.coefficient_of_variation || 0) * 100)} %`)),
                      h('div', {title: EXPLAIN.trend}, h('dt', {}, 'Trend / hour'),
                        h('dd', {class: 'num'},
                          `${m.trend_score >= 0 ? '+' : '−'}${
                              money(Math.abs(Math.round(m.trend_score)))}`))))));
      return all;
    } catch (err) {
      fill(metricsEl, errorBox(err, loadMetrics));
      return null;
    }
  }

  let bandFor = null;
  async function loadChart() {
    try {
      const sources = markets.map((m) => m.source);
      const ref = item.current_price_source;
      sources.sort((a, b) => (a === ref ? -1 : b === ref ? 1 : a.localeCompare(b)));
      const [uPlot, candleSets, band] = await Promise.all([
        loadUPlot(),
        Promise.all(sources.map(
            (s) => getJson(
                `/api/v1/items/${id}/candles?window=${win}&source=${encodeURIComponent(s)}`,
                `Chart (${s})`))),
        win === '30d' ? Promise.resolve(null) :
                        getJson(`/api/v1/items/${id}/volatility?window=${win}`, 'Bollinger band')
                            .catch(() => null),
      ]);
      if (!alive) return;
      bandFor = band;
      const series = candleSets.filter((c) => c.candles.length)
                         .map((c) => ({source: c.source, candles: c.candles}));
      if (!series.length) {
        if (plot) {
          plot.destroy();
          plot = null;
        }
        chartEl.classList.add('empty');
        fill(
            chartState,
            emptyBox(
                markets.length ?
                    `No prices in the last ${win}. Try a longer window.` :
                    'No market has priced this item yet, so there is nothing to chart.'));
        return;
      }
      chartEl.classList.remove('empty');
      fill(chartState, '');
      const b = band && band.bollinger && band.samples >= 2 && band.source === series[0].source ?
          band.bollinger :
          null;
      if (plot) plot.destroy();
      chartEl.replaceChildren();
      plot = drawChart(uPlot, chartEl, {series, band: b, window: win});
      chartEl.dataset.points = String(series.reduce((n, s) => n + s.candles.length, 0));
    } catch (err) {
      fill(chartState, errorBox(err, loadChart));
    }
  }

  const onResize = () => {
    if (plot)
      plot.setSize({
        width: Math.max(280, chartEl.clientWidth),
        height: chartEl.clientWidth < 500 ? 260 : 340
      });
    if (variants) variants.resize();
  };
  window.addEventListener('resize', onResize);

  let variantsTimer = null;
  const onPrices = (event) => {
    // A variant's new price: its row in the variants panel, once the cycle has settled.
    if (variants && event.detail.some((p) => item.variants.some((v) => v.id === p.item_id))) {
      clearTimeout(variantsTimer);
      variantsTimer = setTimeout(() => variants.refresh(), 800);
    }
    const mine =
        event.detail.filter((p) => p.item_id === id).map((p) => ({...p, price: fromUsd(p.price)}));
    if (!mine.length || !item) return;
    for (const p of mine) {
      const m = markets.find((x) => x.source === p.source);
      if (m)
        Object.assign(m, p);
      else
        markets.push({...p});
      item.updated_at = p.time;
    }
    // The reference market's newest price is the current price; otherwise keep it unless none.
    const refPoint = mine.find((p) => p.source === item.current_price_source) ||
        (item.current_price === null ? mine[0] : null);
    if (refPoint) {
      const el = document.getElementById('current-price');
      const before = item.current_price;
      item.current_price = refPoint.price;
      if (!item.current_price_source) item.current_price_source = refPoint.source;
      if (el) {
        el.textContent = money(refPoint.price);
        el.dataset.cents = refPoint.price;
        flash(el, refPoint.price >= (before || 0));
      }
    }
    const updated = document.getElementById('updated-at');
    if (updated) {
      updated.textContent = ago(item.updated_at);
      updated.title = exactTime(item.updated_at);
      updated.dateTime = item.updated_at;
    }
    renderMarkets();
    clearTimeout(redrawTimer);
    // The live entries carry no freshness or outlier flag: the detail brings them, with
    // the new consensus.
    redrawTimer = setTimeout(() => {
      refreshDetail();
      loadChart();
      loadMetrics();
    }, 800);
  };
  live.addEventListener('prices', onPrices);
  live.watch([id]);

  loadItem();
  loadMetrics();
  return () => {
    alive = false;
    clearTimeout(redrawTimer);
    clearTimeout(variantsTimer);
    live.removeEventListener('prices', onPrices);
    window.removeEventListener('resize', onResize);
    if (plot) plot.destroy();
    if (variants) variants.destroy();
  };
}

export {number};
