// The Portfolio page's summary KPIs and holdings table: sortable with value and share of
// the total, what was paid per holding (paid.js) with the P&L it gives, the 24h change,
// the CSV export in the chosen currency. Applied stickers and charms (applied.js) add
// chips, a column and the percent input; several accounts (accounts.js) add a filter and
// an account column; both appear only when there is something to show, so a single
// account without stickers sees the table it always had.
import {
  ago,
  change,
  count,
  emptyBox,
  fill,
  h,
  hasVariants,
  itemImage,
  itemName,
  percent,
  variantStyles
} from '../../api.js';
import {itemDetail} from '../../items.js';
import {money, withCurrency} from '../../money.js';
import {accountName, exportPath, hasApplied} from '../../portfolio-data.js';

import {accountFilter} from './accounts.js';
import {pl} from './amounts.js';
import {appliedChips, appliedPercentControl} from './applied.js';
import {paidCell} from './paid.js';

function kv(label, value, id, note) {
  return h(
      'div', {class: 'kpi'}, h('span', {class: 'kpi-label'}, label),
      h('span', {class: 'kpi-value', id}, value), note ? h('span', {class: 'kpi-note'}, note) : '');
}

function summaryKpis(data, costed) {
  const extra = [];
  if (hasApplied(data))
    extra.push(
        kv('Stickers & charms', money(data.applied_value || 0), 'applied-total',
           `counted at ${data.applied_value_percent ?? 0} % in the total`));
  if ((data.left_holdings || []).length)
    extra.push(
        kv('Realised P&L', pl(data.realised_pl), 'total-realised',
           data.realised_pl === null ? 'Enter sale prices below' : ''));
  return [
    kv('Total value', money(data.total_value || 0), 'total-value'),
    kv('Paid', costed ? money(data.cost_total) : '—', 'cost-total',
       costed && costed < data.holdings.length ?
           `for ${count(costed)} of ${count(data.holdings.length)} holdings` :
           ''),
    kv('Unrealised P&L', pl(data.unrealised_pl), 'total-pl',
       costed ? '' : 'Enter what you paid to see it'),
    kv('24h', change(data.change_24h_percent), 'total-change'),
    kv('Items', count(data.item_count)),
    kv('Last import', data.last_imported_at ? ago(data.last_imported_at) : 'never'),
    ...extra,
  ];
}

/** What the table shows beyond the old columns: {applied, accounts} (booleans). */
function extras(page) {
  return {
    applied: hasApplied(page.data),
    accounts: (page.accounts || []).length > 1 && !page.account,
  };
}

/** Fills the summary and the holdings panel from page.data; page.sort {key, dir}. */
export function renderHoldings(page) {
  const {data} = page;
  const total = data.total_value || 0;
  const costed = data.holdings.filter((x) => x.cost_basis !== null).length;
  fill(page.els.summary, ...summaryKpis(data, costed));
  const head = panelHead(page);
  if (!data.holdings.length) {
    fill(
        page.els.holdings, head,
        emptyBox(
            page.account ?
                'This account holds no item of the catalogue (or was not imported yet).' :
                data.last_imported_at ?
                'Your last import found no item of the catalogue.' :
                'Nothing imported yet: link your game account, then press “Import inventory”.'));
    return;
  }
  const show = extras(page);
  fill(
      page.els.holdings, head,
      show.applied ? appliedPercentControl(data.applied_value_percent, page.percentChanged) : null,
      h('p', {class: 'hint'},
        'Press “Paid” to enter what you paid per unit; P&L is (price − paid) × quantity.'),
      h('div', {class: 'table-scroll'},
        h('table', {class: 'table', id: 'holdings'}, tableHead(page, show),
          h('tbody', {}, sortedRows(page, total).map((x, i) => holdingRow(x, i, page, show))),
          tableFoot(data, total, costed, show))));
}

function panelHead(page) {
  return h(
      'div', {class: 'panel-head'}, h('h2', {id: 'hold-h'}, 'Holdings'),
      accountFilter(page, page.accountPicked),
      h('a', {
        class: 'btn small',
        id: 'export-csv',
        href: withCurrency(exportPath(page.account)),
        download: 'portfolio.csv'
      },
        'Export CSV'));
}

function sortedRows(page, total) {
  const {sort} = page;
  const value = (x, key) => (x[key] === null || x[key] === undefined ? -Infinity : x[key]);
  return [...page.data.holdings]
      .map((x) => ({...x, share: total ? x.total_value / total : 0}))
      .sort(
          (a, b) => (value(a, sort.key) < value(b, sort.key)     ? -1 :
                         value(a, sort.key) > value(b, sort.key) ? 1 :
                                                                   0) *
              sort.dir);
}

function tableHead(page, show) {
  const {sort} = page;
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
            sort.dir = sort.key === key ? -sort.dir : (key === 'market_hash_name' ? 1 : -1);
            sort.key = key;
            renderHoldings(page);
          }
        },
          label));
  return h(
      'thead', {},
      h('tr', {}, h('th', {scope: 'col'}, h('span', {class: 'sr-only'}, 'Image')),
        th('market_hash_name', 'Item'), show.accounts ? th('account', 'Account') : null,
        th('quantity', 'Qty', 'num'), th('current_price', 'Price', 'num'),
        show.applied ? th('applied_value', 'Applied', 'num applied-head') : null,
        th('total_value', 'Value', 'num'), th('cost_basis', 'Paid', 'num'),
        th('unrealised_pl', 'P&L', 'num'), th('change_24h_percent', '24h', 'num'),
        th('share', 'Share', 'num')));
}

function holdingRow(x, i, page, show) {
  const img = h('td', {class: 'img-cell'});
  const note = h('span', {class: 'muted small variant-unknown'});
  if (i < 60) {
    itemDetail(x.item_id)
        .then((d) => {
          fill(img, itemImage(d, 'sm'));
          // The import could not tell this asset's variant: it is valued as the base.
          if (hasVariants(d) && !x.variant) {
            variantStyles();
            note.textContent = 'Variant unknown: valued as the cheapest variant';
          }
        })
        .catch(() => {});
  }
  const names = page.accountNames || ((a) => accountName(a));
  return h(
      'tr', {dataset: {item: String(x.item_id), holding: String(x.holding_id ?? '')}}, img,
      // A holding whose variant the import told (docs/api.md §18) names it; what is
      // applied to it (§23.1) follows as chips.
      h('td', {'data-label': 'Item', class: 'holding-name'},
        h('span', {}, h('a', {href: `/items/${x.item_id}`, 'data-link': ''}, itemName(x)), note),
        appliedChips(x)),
      show.accounts ? h('td', {'data-label': 'Account', class: 'account'}, names(x.account)) : null,
      h('td', {class: 'num', 'data-label': 'Qty'}, count(x.quantity)),
      h('td', {class: 'num', 'data-label': 'Price'},
        x.current_price ?
            money(x.current_price) :
            h('span', {class: 'muted', title: 'No market has priced this item yet'}, 'no price')),
      show.applied ?
          h('td', {class: 'num applied-value', 'data-label': 'Applied'},
            x.applied_value ? money(x.applied_value) : h('span', {class: 'muted'}, '—')) :
          null,
      h('td', {class: 'num', 'data-label': 'Value'}, money(x.total_value)), paidCell(x, page.saved),
      h('td', {class: 'num pl', 'data-label': 'P&L'}, pl(x.unrealised_pl)),
      h('td', {class: 'num', 'data-label': '24h'}, change(x.change_24h_percent)),
      h('td', {class: 'num', 'data-label': 'Share'}, percent(x.share * 100).replace('+', '')));
}

function tableFoot(data, total, costed, show) {
  // Labelled like the rows: on a phone the total is a card too (app.css).
  const cell = (label, value) => h('td', {class: 'num', 'data-label': label}, value);
  return h(
      'tfoot', {},
      h('tr', {}, h('td', {}), h('th', {scope: 'row'}, 'Total'), show.accounts ? h('td', {}) : null,
        h('td', {}), h('td', {}),
        show.applied ? cell('Applied', money(data.applied_value || 0)) : null,
        cell('Value', money(total)), cell('Paid', costed ? money(data.cost_total) : ''),
        cell('P&L', pl(data.unrealised_pl)), cell('24h', change(data.change_24h_percent)),
        cell('Share', '100 %')));
}
