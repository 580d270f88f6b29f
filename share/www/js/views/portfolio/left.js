// The Portfolio page's "Sold / left" panel (docs/api.md §23.4): holdings an import no
// longer found, newest first, with the day they left, their last value, what was paid,
// what they sold for (entered here, sale.js) and the realised P&L it gives; "Not sold"
// removes an entry (an item given away or moved for good is no sale).
import {count, exactTime, fill, h, itemName} from '../../api.js';
import {money} from '../../money.js';
import {accountName, forgetDeparture} from '../../portfolio-data.js';

import {pl} from './amounts.js';
import {appliedChips} from './applied.js';
import {saleCell} from './sale.js';

/** Fills page.els.left from page.data.left_holdings; hidden while there are none. */
export function renderLeft(page) {
  const panel = page.els.left;
  const left = page.data.left_holdings || [];
  panel.hidden = !left.length;
  if (!left.length) {
    fill(panel);
    return;
  }
  const message = h('p', {class: 'muted', id: 'left-message', role: 'status'});
  fill(
      panel,
      h('div', {class: 'panel-head'}, h('h2', {id: 'left-h'}, 'Sold / left'),
        h('span', {class: 'muted'}, `Realised P&L `,
          h('strong', {id: 'realised-pl'}, pl(page.data.realised_pl)))),
      h('p', {class: 'hint'},
        'Items an import no longer found. Enter what one unit sold for to see the realised P&L ',
        '(sold − paid) × quantity; an item that comes back before you enter a price is taken ',
        'off this list by the next import.'),
      message, leftTable(page, left, message));
}

function leftTable(page, left, message) {
  const several = (page.accounts || []).length > 1;
  const columns = [
    ['Item'], several ? ['Account'] : null, ['Qty', 'num'], ['Left on'], ['Last value', 'num'],
    ['Paid each', 'num'], ['Sold each', 'num'], ['Realised P&L', 'num'], ['']
  ].filter(Boolean);
  return h(
      'table', {class: 'table', id: 'left-table'},
      h('thead', {},
        h('tr', {}, columns.map(([label, cls]) => h('th', {scope: 'col', class: cls}, label)))),
      h('tbody', {}, left.map((x) => leftRow(page, x, several, message))));
}

const day = new Intl.DateTimeFormat(undefined, {dateStyle: 'medium'});
/** "28 Nov 2026", the exact time on hover: a departure is noticed by an import, by day. */
function leftOn(iso) {
  return h('time', {datetime: iso, title: exactTime(iso)}, day.format(new Date(iso)));
}

function leftRow(page, x, several, message) {
  const names = page.accountNames || ((a) => accountName(a));
  const notSold = async (event) => {
    if (!window.confirm(
            `Remove “${x.market_hash_name}” from the sold list? Say so when it was not sold.`))
      return;
    event.target.disabled = true;
    try {
      await forgetDeparture(x.departure_id);
      page.saved();
    } catch (err) {
      event.target.disabled = false;
      message.textContent = err.message;
    }
  };
  return h(
      'tr', {dataset: {departure: String(x.departure_id), item: String(x.item_id)}},
      h('td', {'data-label': 'Item', class: 'holding-name'},
        h('a', {href: `/items/${x.item_id}`, 'data-link': ''}, itemName(x)), appliedChips(x)),
      several ? h('td', {'data-label': 'Account', class: 'account'}, names(x.account)) : null,
      h('td', {class: 'num', 'data-label': 'Qty'}, count(x.quantity)),
      h('td', {'data-label': 'Left on', class: 'date'}, leftOn(x.left_at)),
      h('td', {class: 'num', 'data-label': 'Last value'}, money(x.last_value)),
      h('td', {class: 'num', 'data-label': 'Paid each'},
        x.cost_basis === null ? '—' : money(x.cost_basis)),
      saleCell(x, page.saved),
      h('td', {class: 'num pl', 'data-label': 'Realised P&L'}, pl(x.realised_pl)),
      h('td', {class: 'actions'},
        h('button', {type: 'button', class: 'btn small not-sold', onclick: notSold}, 'Not sold')));
}
