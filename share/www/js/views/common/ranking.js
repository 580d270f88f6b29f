// The volatility ranking table (docs/api.md §3.2): the Market page's top 10, the
// Rankings page's top 100. `cells` (a PriceCells) makes the prices follow live updates.
import {change, h, itemName, number} from '../../api.js';
import {money} from '../../money.js';

export function rankingTable(rows, cells) {
  return h(
      'table', {class: 'table compact ranking-table'},
      h('thead', {},
        h('tr', {}, h('th', {scope: 'col', class: 'hide-narrow'}, '#'),
          h('th', {scope: 'col'}, 'Item'),
          h('th', {scope: 'col', class: 'num hide-narrow'}, 'Score'),
          h('th', {scope: 'col', class: 'num'}, 'Change'),
          h('th', {scope: 'col', class: 'num'}, 'Price'))),
      h('tbody', {}, rows.map((r, i) => rankingRow(r, i, cells))));
}

function rankingRow(r, i, cells) {
  const p = h('td', {class: 'num price', 'data-label': 'Price'}, money(r.current_price));
  if (cells) cells.track(r.item_id, p, r.current_price);
  return h(
      'tr', {}, h('td', {class: 'num muted hide-narrow', 'data-label': '#'}, String(i + 1)),
      h('td', {'data-label': 'Item'},
        h('a', {href: `/items/${r.item_id}`, 'data-link': ''}, itemName(r))),
      h('td', {
        class: 'num hide-narrow',
        'data-label': 'Score',
        title: 'Coefficient of variation × 100: how far prices swing around their mean'
      },
        number(r.volatility_score)),
      h('td', {class: 'num', 'data-label': 'Change'}, change(r.percent_change)), p);
}
