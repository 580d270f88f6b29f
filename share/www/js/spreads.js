// Spreads: the best cross-market gaps (docs/api.md §12): buy at the cheapest fresh ask,
// sell where the price net of that market's fee is highest. Stale and flagged prices
// never count. Live: refetched after each polling cycle.
import {
  emptyBox,
  errorBox,
  fill,
  getJson,
  h,
  itemName,
  percent,
  setTitle,
  skeleton
} from './api.js';
import {live} from './live.js';
import {money} from './money.js';
import {navigate} from './router.js';

const MIN_SOURCES = [2, 3, 4];

export function render(view, _params, query) {
  setTitle('Spreads');
  const min =
      MIN_SOURCES.includes(Number(query.get('min_sources'))) ? Number(query.get('min_sources')) : 2;
  const body = h('div', {}, skeleton(10));
  const stamp = h('span', {class: 'muted small', id: 'spreads-updated'});
  let alive = true;
  const tabs =
      h('div', {class: 'tabs', role: 'group', 'aria-label': 'Markets quoting the item'},
        MIN_SOURCES.map(
            (n) =>
                h('button', {
                  type: 'button',
                  class: 'tab',
                  'aria-pressed': n === min ? 'true' : 'false',
                  onclick: () => navigate(`/spreads?min_sources=${n}`, {replace: true}),
                },
                  `${n}+ markets`)));
  fill(
      view,
      h('section', {class: 'panel', 'aria-labelledby': 'spreads-h'},
        h('div', {class: 'panel-head'}, h('h1', {id: 'spreads-h'}, 'Cross-market spreads'), tabs),
        h('p', {class: 'hint'},
          'Buy at the cheapest fresh listing, sell where the price after that market’s fee is highest. ',
          'Stale prices and outliers are left out. Spread = (sell − buy) ÷ buy. ', stamp),
        body));

  async function load() {
    try {
      const rows = await getJson(`/api/v1/rankings/spread?limit=100&min_sources=${min}`, 'Spreads');
      if (!alive) return;
      stamp.textContent = `Updated ${new Date().toLocaleTimeString()}.`;
      fill(
          body,
          rows.length ? spreadTable(rows) :
                        emptyBox(`No item has a fresh listing and a fresh price on ${
                            min} or more markets right now.`));
    } catch (err) {
      fill(body, errorBox(err, load));
    }
  }
  let timer = null;
  const onCycle = () => {
    clearTimeout(timer);
    timer = setTimeout(load, 1000);
  };
  live.addEventListener('volatility', onCycle);
  live.addEventListener('prices', onCycle);
  live.watch('*');
  load();
  return () => {
    alive = false;
    clearTimeout(timer);
    live.removeEventListener('volatility', onCycle);
    live.removeEventListener('prices', onCycle);
  };
}

function spreadTable(rows) {
  return h(
      'table', {class: 'table spread-table'},
      h('thead', {},
        h('tr', {}, h('th', {scope: 'col', class: 'hide-narrow'}, '#'),
          h('th', {scope: 'col'}, 'Item'), h('th', {scope: 'col', class: 'num'}, 'Spread'),
          h('th', {scope: 'col'}, 'Buy at'), h('th', {scope: 'col'}, 'Sell at (after fee)'))),
      h('tbody', {},
        rows.map(
            (r, i) =>
                h('tr', {},
                  h('td', {class: 'num muted hide-narrow', 'data-label': '#'}, String(i + 1)),
                  h('td', {'data-label': 'Item'},
                    h('a', {href: `/items/${r.item_id}`, 'data-link': ''}, itemName(r))),
                  h('td', {
                    class: `num chg ${r.spread_percent > 0 ? 'up' : 'down'}`,
                    'data-label': 'Spread'
                  },
                    percent(r.spread_percent)),
                  h('td', {'data-label': 'Buy at'},
                    h('span', {}, h('span', {class: 'num'}, money(r.buy_price)),
                      h('span', {class: 'muted'}, ` on ${r.buy_source}`))),
                  h('td', {'data-label': 'Sell at'},
                    h('span', {}, h('span', {class: 'num'}, money(r.sell_price)),
                      h('span', {class: 'muted'}, ` on ${r.sell_source}`)))))));
}
