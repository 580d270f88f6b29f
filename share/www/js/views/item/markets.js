// The item page's markets table: one row per market's latest price, sortable, the
// reference market marked, stale and outlier prices flagged with why.
import {ago, count, emptyBox, exactTime, fill, h} from '../../api.js';
import {money} from '../../money.js';

// What each price kind of docs/api.md §3 means, as a tooltip on its chip.
const KIND_TITLES = {
  ask: 'Lowest listing: what it costs to buy now',
  bid: 'Highest buy order: what you get selling now',
  sale: 'A sale, or an average of recent sales',
  reference: 'The market’s suggested price',
};

/** Fills page.els.markets; page.sort {key, dir} is kept across live re-renders. */
export function renderMarkets(page) {
  const {markets, sort} = page;
  if (!markets.length) {
    fill(
        page.els.markets,
        emptyBox(
            'No market has priced this item yet. Prices appear after the next polling cycle of a source that lists it.'));
    return;
  }
  const rows = [...markets].sort((a, b) => {
    const x = sort.key === 'age' ? -Date.parse(a.time) : a[sort.key];
    const y = sort.key === 'age' ? -Date.parse(b.time) : b[sort.key];
    return (x < y ? -1 : x > y ? 1 : 0) * sort.dir;
  });
  const th = (key, label, cls) =>
      h('th', {
        scope: 'col',
        class: cls,
        'aria-sort': sort.key === key ? (sort.dir > 0 ? 'ascending' : 'descending') : 'none'
      },
        h('button', {
          type: 'button',
          class: 'sort',
          onclick: () => {
            sort.dir = sort.key === key ? -sort.dir : 1;
            sort.key = key;
            renderMarkets(page);
          }
        },
          label));
  fill(
      page.els.markets,
      h('table', {class: 'table'},
        h('thead', {},
          h('tr', {}, th('source', 'Market'), th('price', 'Price', 'num'), th('kind', 'Kind'),
            th('listings', 'Listings', 'num'), th('volume', 'Volume', 'num'), th('age', 'Age'))),
        h('tbody', {}, rows.map((m) => marketRow(m, page.item)))));
}

function marketRow(m, item) {
  return h(
      'tr',
      {class: m.outlier ? 'is-outlier' :
           m.stale      ? 'is-stale' :
                          undefined},
      h('td', {'data-label': 'Market'}, m.source,
        item.current_price_source === m.source ? h('span', {class: 'chip ref'}, 'reference') :
                                                 null),
      h('td', {class: 'num price', 'data-label': 'Price', 'data-source': m.source}, money(m.price)),
      h('td', {'data-label': 'Kind'},
        m.kind ? h('span', {class: 'chip', title: KIND_TITLES[m.kind] || m.kind}, m.kind) : '—'),
      h('td', {class: 'num', 'data-label': 'Listings'}, count(m.listings)),
      h('td', {class: 'num', 'data-label': 'Volume'}, count(m.volume)),
      h('td', {'data-label': 'Age'},
        h('time', {datetime: m.time, title: exactTime(m.time)}, ago(m.time)),
        m.stale ? h('span', {
          class: 'chip stale',
          title: 'Older than three polling intervals of this market: not in the consensus'
        },
                    'stale') :
                  null,
        m.outlier ? h('span', {
          class: 'chip outlier',
          title:
              'Far outside the other markets (or this market’s previous price): kept out of metrics, consensus and valuation'
        },
                      'outlier') :
                    null));
}
