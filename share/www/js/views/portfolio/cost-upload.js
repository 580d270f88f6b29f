// The Portfolio page's "What you paid, from a file" panel (docs/api.md §23.3): a CSV
// chosen here is sent as a dry run first; the preview shows each row's match or refusal
// and the cost basis each item gets; "Apply N rows" saves the matched ones in one go and
// the holdings reload. The export (Export CSV) uploads back unchanged.
import {count, emptyBox, errorBox, fill, h} from '../../api.js';
import {currencies, money} from '../../money.js';
import {csvFileProblem, REFUSALS, reportSummary, sendCostCsv} from '../../portfolio-data.js';

const USD = {
  code: 'USD',
  exponent: 2
};

/** Fills page.els.costs (once per page); page.saved() reloads the holdings. */
export function renderCostUpload(page) {
  const panel = page.els.costs;
  panel.hidden = false;
  const input =
      h('input',
        {type: 'file', id: 'cost-file', accept: '.csv,text/csv', 'aria-describedby': 'cost-hint'});
  const result = h('div', {id: 'cost-result', 'aria-live': 'polite'});
  input.addEventListener('change', () => preview(page, input, result));
  fill(
      panel, h('h2', {id: 'costs-h'}, 'What you paid, from a file'),
      h('p', {class: 'hint', id: 'cost-hint'}, 'A CSV with a header row: ',
        h('code', {}, 'market_hash_name, quantity, cost_each, currency, acquired_at'),
        ' (currency empty = USD, date YYYY-MM-DD, at most 1 MiB). The Export CSV file ',
        'uploads back as it is. You see every row before anything is saved.'),
      h('label', {class: 'btn', for: 'cost-file'}, 'Choose a CSV file…'), input, result);
}

async function preview(page, input, result) {
    const file = input.files && input.files[0];
    const problem = csvFileProblem(file);
    if (problem) {
      fill(result, h('p', {class: 'panel-state error', role: 'alert'}, problem));
      return;
    }
    fill(result, h('p', {class: 'muted'}, `Checking ${file.name}…`));
    let text;
    try {
      text = await file.text();
      const report = await sendCostCsv(text, true);
      if (!page.alive) return;
      drawReport(page, result, report, text, file.name);
    } catch (err) {
      fill(result, errorBox(err));
    } finally {
      input.value = '';  // the same file may be chosen again after an edit
    }
}

function drawReport(page, result, report, text, name) {
    const summary = reportSummary(report);
    const apply =
        h('button',
          {type: 'button', class: 'btn primary', id: 'cost-apply', disabled: !report.matched_rows},
          summary.apply);
    const cancel =
        h('button', {type: 'button', class: 'btn', onclick: () => fill(result)}, 'Cancel');
    apply.addEventListener('click', () => applyFile(page, result, text, apply));
    fill(
        result,
        h('p', {id: 'cost-summary'}, h('strong', {}, name), ': ', summary.line,
          report.refused_rows ? ' — refused rows are skipped.' : '.'),
        rowsTable(report.rows),
        report.items.length ? itemsTable(report.items) : emptyBox('No row matches a holding.'),
        h('div', {class: 'buttons'}, apply, cancel));
}

function rowsTable(rows) {
    return [
      h('h3', {class: 'table-title'}, 'Rows of the file'),
      h('table', {class: 'table', id: 'cost-preview'},
        h('thead', {},
          h('tr', {},
            [['Line'], ['Item'], ['Qty', 'num'], ['Cost each', 'num'], ['Bought'], ['Result']].map(
                ([t, cls]) => h('th', {scope: 'col', class: cls}, t)))),
        h('tbody', {}, rows.map(rowLine)))
    ];
}

function rowLine(r) {
    const refused = r.status !== 'matched';
    return h(
        'tr', {class: refused ? 'refused' : 'matched', dataset: {line: String(r.line)}},
        h('td', {'data-label': 'Line'}, String(r.line)),
        h('td', {'data-label': 'Item', class: 'holding-name'}, r.market_hash_name || '—'),
        h('td', {class: 'num', 'data-label': 'Qty'}, r.quantity === null ? '—' : count(r.quantity)),
        h('td', {class: 'num', 'data-label': 'Cost each'}, rowMoney(r.cost_each, r.currency)),
        h('td', {'data-label': 'Bought', class: 'date'},
          r.acquired_at ? r.acquired_at.slice(0, 10) : '—'),
        h('td', {'data-label': 'Result', class: 'row-result'},
          refused ? h('span', {class: 'status error', title: r.detail || ''}, '✗ ',
                      REFUSALS[r.code] || r.detail || r.code) :
                    h('span', {class: 'status ok'}, '✓ matched')));
}

// A row's cost is in minor units of the row's own currency, whatever the page shows.
function rowMoney(minor, code) {
    if (minor === null || minor === undefined) return '—';
    const info = currencies().find((c) => c.code === code) || {code: code || 'USD', exponent: 2};
    try {
      return money(minor, info);
    } catch {
      return `${minor} ${code}`;  // a code Intl does not know: never a broken preview
    }
}

function itemsTable(items) {
    return [
      h('h3', {class: 'table-title'}, 'What each item gets (per unit, in USD)'),
      h('table', {class: 'table', id: 'cost-items'},
        h('thead', {},
          h('tr', {},
            [['Item'], ['Qty', 'num'], ['Paid now', 'num'], ['New', 'num'], ['Bought']].map(
                ([t, cls]) => h('th', {scope: 'col', class: cls}, t)))),
        h('tbody', {}, items.map(itemLine)))
    ];
}

function itemLine(x) {
    return h(
        'tr', {dataset: {item: String(x.item_id)}},
        h('td', {'data-label': 'Item', class: 'holding-name'}, x.market_hash_name),
        h('td', {class: 'num', 'data-label': 'Qty'}, count(x.quantity)),
        h('td', {class: 'num', 'data-label': 'Paid now'}, money(x.previous_cost_basis, USD)),
        h('td', {class: 'num', 'data-label': 'New'}, money(x.cost_basis, USD)),
        h('td', {'data-label': 'Bought', class: 'date'},
          x.acquired_at ? x.acquired_at.slice(0, 10) : '—'));
}

async function applyFile(page, result, text, button) {
    button.disabled = true;
    button.textContent = 'Saving…';
    try {
      const report = await sendCostCsv(text, false);
      fill(
          result,
          h('p', {class: 'panel-state ok', id: 'cost-applied'},
            `Saved what you paid for ${count(report.items.length)} ${
                report.items.length === 1 ? 'item' : 'items'} (${reportSummary(report).line}).`));
      await page.saved();
    } catch (err) {
      button.disabled = false;
      button.textContent = 'Try again';
      fill(result, errorBox(err));
    }
}
