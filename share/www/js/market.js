// Market: KPIs, top movers, the volatility ranking and the catalogue search with filters
// and paging kept in the URL. Prices flash as live updates arrive. The page composes the
// views of views/market/ and keeps their shared state: the price cells and the timers.

import {emptyBox, errorBox, fill, getJson, h, setTitle, skeleton} from './api.js';
import {live} from './live.js';
import {navigate} from './router.js';
import {PriceCells} from './views/common/prices.js';
import {rankingTable} from './views/common/ranking.js';
import {WINDOWS, windowTabs} from './views/common/tabs.js';
import {filtersForm} from './views/market/filters.js';
import {kpiSection, loadKpis, showKpiMovers} from './views/market/kpis.js';
import {moverCards} from './views/market/movers.js';
import {loadResults} from './views/market/results.js';

export function render(view, _params, query) {
  setTitle('Market');
  // With no search or filter, browse one popular weapon rather than the catalogue's
  // first ids (cases and capsules); "Any" type shows everything.
  const browsing = !['q', 'weapon_type', 'rarity', 'stattrak', 'page'].some((k) => query.has(k));
  if (browsing) query.set('weapon_type', 'AK-47');
  const moverWindow = WINDOWS.includes(query.get('movers')) ? query.get('movers') : '24h';
  let alive = true;
  const page = {query, moverWindow, cells: new PriceCells(), live, alive: () => alive};
  const parts = layout(view, page, browsing);
  const stopKpis = loadKpis();
  const loadRanking = () => showRanking(parts, page);
  const onPrices = (event) => page.cells.update(event.detail);
  let rankTimer = null;
  const onVol = () => {
    clearTimeout(rankTimer);
    rankTimer = setTimeout(loadRanking, 1000);
  };
  live.addEventListener('prices', onPrices);
  live.addEventListener('volatility', onVol);
  loadRanking();
  loadResults(parts.results, page);
  return () => {
    alive = false;
    clearTimeout(rankTimer);
    stopKpis();
    live.removeEventListener('prices', onPrices);
    live.removeEventListener('volatility', onVol);
  };
}

/** The page's frame; returns the slots the loaders fill. */
function layout(view, page, browsing) {
  const {query, moverWindow} = page;
  const parts = {
    movers: h('div', {class: 'movers'}, skeleton(2)),
    ranking: h('div', {class: 'ranking'}, skeleton(6)),
    results: h('div', {id: 'results'}, skeleton(6)),
  };
  const moversTabs = windowTabs(moverWindow, (w) => {
    const q = new URLSearchParams(location.search);
    q.set('movers', w);
    navigate(`/?${q}`, {replace: true});
  });
  const q = query.get('q') || '';
  fill(
      view, h('h1', {class: 'sr-only'}, 'Market'), kpiSection(),
      h('div', {class: 'grid-2'},
        h('section', {class: 'panel', 'aria-labelledby': 'movers-h'},
          h('div', {class: 'panel-head'}, h('h2', {id: 'movers-h'}, 'Top movers'), moversTabs),
          h('p', {class: 'hint'},
            'Largest price changes among the 100 most volatile items priced $1 or more.'),
          parts.movers),
        h('section', {class: 'panel', 'aria-labelledby': 'vol-h'},
          h('div', {class: 'panel-head'}, h('h2', {id: 'vol-h'}, `Most volatile (${moverWindow})`),
            h('a', {href: `/rankings?window=${moverWindow}`, 'data-link': ''}, 'All rankings')),
          parts.ranking)),
      h('section', {class: 'panel', 'aria-labelledby': 'search-h'},
        h('div', {class: 'panel-head'},
          h('h2', {id: 'search-h'},
            q ? `Results for “${q}”` :
                browsing ? 'Browse the catalogue: AK-47' :
                           'Catalogue')),
        filtersForm(query), parts.results));
  const searchInput = document.getElementById('search');
  if (searchInput && document.activeElement !== searchInput) searchInput.value = q;
  return parts;
}

/** Movers and ranking of the page's window; the KPI movers always from the 24h one. */
async function showRanking(parts, page) {
  const {moverWindow} = page;
  try {
    const ranked =
        await getJson(`/api/v1/rankings/volatile?limit=100&window=${moverWindow}`, 'Rankings');
    if (!page.alive()) return;
    fill(
        parts.ranking,
        ranked.length ?
            rankingTable(ranked.slice(0, 10), page.cells) :
            emptyBox(
                'No item has two prices from one market in this window yet. Rankings appear after a few polling cycles.'));
    fill(parts.movers, moverCards(ranked, moverWindow, page.cells));
    if (moverWindow === '24h')
      showKpiMovers(ranked);
    else
      getJson('/api/v1/rankings/volatile?limit=100&window=24h', 'Rankings')
          .then(showKpiMovers)
          .catch(() => {});
  } catch (err) {
    fill(parts.ranking, errorBox(err, () => showRanking(parts, page)));
    fill(parts.movers, errorBox(err, () => showRanking(parts, page)));
  }
}
