// The catalogue search's results: cards or a table, a page of 24, the pager; prices are
// filled from the item details (six at a time) and then follow the live updates.
import {
  count,
  emptyBox,
  errorBox,
  fill,
  h,
  hasVariants,
  itemImage,
  rarityChip,
  request
} from '../../api.js';
import {itemDetail, pool} from '../../items.js';
import {showPrice} from '../common/prices.js';

export const PAGE = 24;

/** The search's query parameters from the page's address ("any" type is no filter). */
export function searchParams(query) {
  const params = new URLSearchParams();
  for (const key of ['q', 'weapon_type', 'rarity', 'stattrak']) {
    if (query.get(key) && query.get(key) !== 'any') params.set(key, query.get(key));
  }
  const page = Math.max(0, Number(query.get('page') || 0) | 0);
  params.set('limit', PAGE);
  params.set('offset', page * PAGE);
  return {params, page};
}

/** Loads and shows the results into `results`; page: {query, cells, live, alive()}. */
export async function loadResults(results, page) {
  const {params, page: number} = searchParams(page.query);
  try {
    const {data: items, response} = await request(`/api/v1/items?${params}`, {what: 'Search'});
    if (!page.alive()) return;
    const total = Number(response.headers.get('X-Total-Count') || items.length);
    if (!items.length) {
      fill(
          results,
          emptyBox(
              page.query.get('q') || params.size > 2 ?
                  'No item matches these filters. Try fewer words or clear a filter.' :
                  'The catalogue is empty.'));
      return;
    }
    const list = page.query.get('view') === 'table' ? resultsTable(items, page.cells) :
                                                      resultsGrid(items, page.cells);
    fill(
        results,
        h('p', {class: 'muted', id: 'result-count'},
          `${count(total)} items · page ${number + 1} of ${
              count(Math.max(1, Math.ceil(total / PAGE)))}`),
        list, pager(page.query, number, total));
    page.live.watch([...new Set([...page.cells.ids(), ...items.map((i) => i.id)])]);
    await pool(items, 6, (item) => fillPrice(item, page.cells));
  } catch (err) {
    fill(results, errorBox(err, () => loadResults(results, page)));
  }
}

async function fillPrice(item, cells) {
  try {
    const d = await itemDetail(item.id);
    for (const el of cells.of(item.id)) {
      if (!el.dataset.pending) continue;
      if (hasVariants(d)) el.dataset.from = '1';
      showPrice(el, d.current_price);
      delete el.dataset.pending;
    }
  } catch (err) {
    for (const el of cells.of(item.id)) {
      if (el.dataset.pending) {
        el.textContent = 'error';
        el.title = err.message;
      }
    }
  }
}

function resultsGrid(items, cells) {
  return h('ul', {class: 'cards'}, items.map((item) => {
    const p =
        h('span',
          {class: 'num price', 'data-pending': '1', 'data-from': hasVariants(item) ? '1' : null},
          '…');
    cells.track(item.id, p, null);
    return h(
        'li', {},
        h('a', {class: 'card item-card', href: `/items/${item.id}`, 'data-link': ''},
          itemImage(item), h('span', {class: 'name'}, item.market_hash_name),
          h('span', {class: 'row'}, rarityChip(item.rarity),
            item.stattrak ? h('span', {class: 'chip st'}, 'StatTrak™') : null),
          p));
  }));
}

function resultsTable(items, cells) {
  return h(
      'table', {class: 'table'},
      h('thead', {},
        h('tr', {}, h('th', {scope: 'col'}, 'Item'), h('th', {scope: 'col'}, 'Type'),
          h('th', {scope: 'col'}, 'Rarity'), h('th', {scope: 'col', class: 'num'}, 'Price'))),
      h('tbody', {}, items.map((item) => {
        const p =
            h('td', {
              class: 'num price',
              'data-pending': '1',
              'data-label': 'Price',
              'data-from': hasVariants(item) ? '1' : null
            },
              '…');
        cells.track(item.id, p, null);
        return h(
            'tr', {},
            h('td', {'data-label': 'Item'},
              h('a', {href: `/items/${item.id}`, 'data-link': ''}, item.market_hash_name)),
            h('td', {'data-label': 'Type'}, item.weapon_type || '—'),
            h('td', {'data-label': 'Rarity'}, rarityChip(item.rarity) || '—'), p);
      })));
}

function pager(query, page, total) {
  const pages = Math.ceil(total / PAGE);
  const link = (p, text, label) => {
    const qq = new URLSearchParams(query);  // includes the browsing default
    if (p)
      qq.set('page', p);
    else
      qq.delete('page');
    const s = qq.toString();
    return h(
        'a', {class: 'btn small', href: s ? `/?${s}` : '/', 'data-link': '', 'aria-label': label},
        text);
  };
  const off = (text) => h('span', {class: 'btn small disabled', 'aria-disabled': 'true'}, text);
  return h(
      'nav', {class: 'pager', 'aria-label': 'Pages'},
      page > 0 ? link(page - 1, '← Previous', 'Previous page') : off('← Previous'),
      h('span', {class: 'muted'}, `${page + 1} / ${pages}`),
      page + 1 < pages ? link(page + 1, 'Next →', 'Next page') : off('Next →'));
}
