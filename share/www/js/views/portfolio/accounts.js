// Several game accounts on the Portfolio page (docs/api.md §23.2): the linked accounts
// with their own totals and last import, each imported on its own (its own cooldown,
// counted down here), named (a label) or unlinked; "Link another account" runs the
// platform's sign-in again; and the filter over the holdings (All / each account).
import {ago, count, exactTime, fill, h} from '../../api.js';
import {money} from '../../money.js';
import {
  accountName,
  clock,
  cooldownsOf,
  importInventory,
  importSummary,
  labelAccount,
  labelProblem,
  linkedAccounts,
  unlinkAccount
} from '../../portfolio-data.js';
import {windowTabs} from '../common/tabs.js';

const COOLDOWN_PREFIX = 'skinpulse.importUntil.';

/** Keeps each cooling-down account's end (ms) for this tab: a reload keeps counting. */
export function rememberCooldowns(data) {
  for (const {account, until} of cooldownsOf(data))
    sessionStorage.setItem(COOLDOWN_PREFIX + account, String(until));
}

function cooldownOf(account) {
  const until = Number(sessionStorage.getItem(COOLDOWN_PREFIX + account) || 0);
  return until > Date.now() ? until : 0;
}

/**
 * The filter over the holdings: "All accounts" and one tab per account; null with one
 * account. `picked(account)` reloads the portfolio ('' = all).
 */
export function accountFilter(page, picked) {
  if ((page.accounts || []).length < 2) return null;
  const names = new Map([['', 'All accounts']]);
  for (const a of page.accounts) names.set(a.account, accountName(a.account, a.label));
  const tabs = windowTabs(names.get(page.account) || 'All accounts', (name) => {
    const account = [...names].find(([, n]) => n === name)[0];
    picked(account);
  }, [...names.values()]);
  tabs.id = 'account-filter';
  tabs.setAttribute('aria-label', 'Show the holdings of');
  return tabs;
}

/**
 * Fills page.els.accounts: hidden until an account is linked (or, on a daemon without
 * several accounts, always); with one account only the way to link another, so a single
 * account's page stays as it was; with several the table.
 */
export function renderAccounts(page, linkPath) {
  const panel = page.els.accounts;
  const accounts = page.accounts || [];
  const several = Array.isArray(page.me && page.me.gameids);
  panel.hidden = !accounts.length || !several;
  if (panel.hidden) return;
  const message = h('p', {class: 'muted', id: 'accounts-message', role: 'status'});
  const link = linkPath ? h('a', {
    class: 'btn small',
    href: linkPath,
    id: 'link-another',
    onclick: () => sessionStorage.setItem('skinpulse.return', '/portfolio')
  },
                            'Link another account') :
                          null;
  const head = h('div', {class: 'panel-head'}, h('h2', {id: 'accounts-h'}, 'Game accounts'), link);
  if (accounts.length === 1) {
    fill(
        panel, head,
        h('p', {class: 'hint'},
          'A storage or second account? Link it too: the holdings show your accounts together ',
          'and one at a time.'),
        message);
    return;
  }
  fill(
      panel, head,
      h('p', {class: 'hint'},
        'Each account is imported on its own and has its own cooldown; the holdings show ',
        'them together or one at a time.'),
      message, accountsTable(page, accounts, message));
  tickCooldowns(page);
}

function accountsTable(page, accounts, message) {
  return h(
      'table', {class: 'table', id: 'accounts-table'},
      h('thead', {},
        h('tr', {},
          [['Account'], ['Items', 'num'], ['Value', 'num'], ['Last import'], ['']].map(
              ([t, cls]) => h('th', {scope: 'col', class: cls}, t)))),
      h('tbody', {}, accounts.map((a) => accountRow(page, a, message))));
}

function accountRow(page, a, message) {
  const importBtn =
      h('button', {type: 'button', class: 'btn small import-one', dataset: {account: a.account}},
        'Import');
  const wait = h('span', {class: 'muted small cooldown', 'aria-live': 'polite'});
  importBtn.addEventListener('click', () => importOne(page, a, importBtn, message));
  const nameCell = h('td', {'data-label': 'Account', class: 'account-name'});
  showName(page, nameCell, a, message);
  return h(
      'tr', {dataset: {account: a.account}}, nameCell,
      h('td', {class: 'num', 'data-label': 'Items'}, count(a.item_count)),
      h('td', {class: 'num', 'data-label': 'Value'}, money(a.total_value)),
      h('td', {'data-label': 'Last import'},
        a.last_imported_at ?
            h('time', {datetime: a.last_imported_at, title: exactTime(a.last_imported_at)},
              ago(a.last_imported_at)) :
            h('span', {class: 'muted'}, 'never')),
      h('td', {class: 'actions', 'data-label': ''}, importBtn, wait,
        h('button', {
          type: 'button',
          class: 'btn small danger unlink',
          onclick: (ev) => unlink(page, a, ev.target, message)
        },
          'Unlink')));
}

function showName(page, cell, a, message) {
  fill(
      cell, h('strong', {}, a.label || accountName(a.account)), ' ', h('code', {}, a.account), ' ',
      h('button', {
        type: 'button',
        class: 'link-btn rename',
        'aria-label': `Name account ${a.account}`,
        onclick: () => editName(page, cell, a, message)
      },
        a.label ? 'Rename' : 'Name it'));
}

function editName(page, cell, a, message) {
  const input = h('input', {
    type: 'text',
    class: 'label-input',
    maxlength: 40,
    value: a.label,
    placeholder: 'e.g. storage',
    'aria-label': `Name of account ${a.account}`
  });
  const problem = h('span', {class: 'error-text', role: 'alert'});
  const form =
      h('form', {class: 'label-form', novalidate: true}, input,
        h('button', {type: 'submit', class: 'btn small primary'}, 'Save'),
        h('button',
          {type: 'button', class: 'btn small', onclick: () => showName(page, cell, a, message)},
          'Cancel'),
        problem);
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const bad = labelProblem(input.value.trim());
    if (bad) {
      problem.textContent = bad;
      return;
    }
    try {
      const saved = await labelAccount(a.account, input.value);
      a.label = saved.label;
      const linked = linkedAccounts(page.me).find((l) => l.platform_id === a.account);
      if (linked) linked.label = saved.label;
      page.accountsChanged();
    } catch (err) {
      problem.textContent = err.message;
    }
  });
  fill(cell, form);
  input.focus();
}

async function importOne(page, a, btn, message) {
  btn.disabled = true;
  btn.textContent = 'Importing…';
  try {
    const {data} = await importInventory(a.account);
    rememberCooldowns(data);
    message.textContent = importSummary(data, page.accountNames);
    page.imported();
  } catch (err) {
    if (err.code === 'import_cooldown' && err.response) {
      const seconds = Number(err.response.headers.get('Retry-After') || 60);
      sessionStorage.setItem(COOLDOWN_PREFIX + a.account, String(Date.now() + seconds * 1000));
    }
    message.textContent = `${page.accountNames(a.account)}: ${err.message}`;
    btn.textContent = 'Import';
    btn.disabled = false;
    tickCooldowns(page);
  }
}

async function unlink(page, a, btn, message) {
  const name = page.accountNames(a.account);
  if (!window.confirm(
          `Unlink ${name}? Its holdings leave the portfolio; the sold list keeps its entries.`))
    return;
  btn.disabled = true;
  try {
    await unlinkAccount(a.account);
    if (page.account === a.account) page.account = '';
    page.reload();
  } catch (err) {
    btn.disabled = false;
    message.textContent = err.message;
  }
}

/** Counts each cooling-down account's import button down, once a second. */
function tickCooldowns(page) {
  clearInterval(page.accountTimer);
  const tick = () => {
    let any = false;
    for (const row of page.els.accounts.querySelectorAll('tr[data-account]')) {
      const until = cooldownOf(row.dataset.account);
      const btn = row.querySelector('.import-one');
      const wait = row.querySelector('.cooldown');
      if (!btn || btn.textContent === 'Importing…') continue;
      btn.disabled = !!until;
      wait.textContent = until ? `next in ${clock((until - Date.now()) / 1000)}` : '';
      any = any || !!until;
    }
    return any;
  };
  if (!tick()) return;
  page.accountTimer = setInterval(() => {
    if (!tick()) clearInterval(page.accountTimer);
  }, 1000);
}
