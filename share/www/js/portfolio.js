// Portfolio: sign-in with the enabled providers, game-account linking, inventory import
// with the cooldown as a live countdown (Retry-After), holdings sortable with value and
// share of the total, what was paid per holding (edited inline) with the P&L it gives,
// the 24h change, the value history as a chart (7d/30d/1y) and the CSV export; its depth
// (docs/api.md §23): applied stickers and charms with the share of their value counted,
// several game accounts (filter, totals, import, name, unlink), what was paid uploaded as
// a CSV (previewed first) and the holdings that left (sold, with the realised P&L). The
// page composes views/portfolio/ and keeps the state they share (`page`).
import {
  currentUser,
  enabledProviders,
  errorBox,
  fill,
  h,
  pageStyles,
  setTitle,
  skeleton
} from './api.js';
import {
  accountName,
  linkedAccounts,
  loadPortfolio,
  mergeAccounts,
  storedAppliedPercent
} from './portfolio-data.js';
import {signedIn, signedOut} from './views/portfolio/account.js';
import {renderAccounts} from './views/portfolio/accounts.js';
import {renderCostUpload} from './views/portfolio/cost-upload.js';
import {HISTORY_KEY, HISTORY_WINDOWS, loadHistory} from './views/portfolio/history.js';
import {renderHoldings} from './views/portfolio/holdings.js';
import {loadKeys} from './views/portfolio/keys.js';
import {renderLeft} from './views/portfolio/left.js';

pageStyles('portfolio');

const AUTH_ERRORS = {
  state_mismatch: 'The sign-in took too long or was started in another tab. Please try again.',
  provider_error: 'The sign-in provider refused or failed. Please try again.',
  email_unverified: 'Your account at that provider has no verified e-mail address.',
  invalid_claimed_id: 'That game account cannot be used (not an individual account).',
  verification_failed: 'The game platform could not confirm the sign-in. Please try again.',
  already_linked: 'That game account is already linked to another skinpulse account.',
  too_many_accounts:
      'You linked the most game accounts allowed; unlink one before linking another.',
};

export function render(view, _params, query) {
  setTitle('Portfolio');
  const stored = localStorage.getItem(HISTORY_KEY);
  const page = {
    alive: true,
    plot: null,
    data: null,
    countdownTimer: null,
    sort: {key: 'total_value', dir: -1},
    historyWindow: HISTORY_WINDOWS.includes(stored) ? stored : '30d',
    account: '',                      // the filter: '' = every account
    percent: storedAppliedPercent(),  // null: the server's [portfolio] applied_value_percent
    accounts: [],
  };
  page.els = {
    notice: h('div', {class: 'notice', role: 'status', 'aria-live': 'polite'}),
    account:
        h('section', {class: 'panel', 'aria-labelledby': 'acct-h'},
          h('h2', {id: 'acct-h'}, 'Account'), skeleton(2)),
    accounts:
        h('section',
          {class: 'panel', id: 'accounts-panel', 'aria-labelledby': 'accounts-h', hidden: true}),
    holdings:
        h('section', {class: 'panel', 'aria-labelledby': 'hold-h'},
          h('h2', {id: 'hold-h'}, 'Holdings'), skeleton(4)),
    left:
        h('section', {class: 'panel', id: 'left-panel', 'aria-labelledby': 'left-h', hidden: true}),
    costs: h(
        'section', {class: 'panel', id: 'costs-panel', 'aria-labelledby': 'costs-h', hidden: true}),
    summary: h('div', {class: 'kpis'}),
    valuePanel: h('section', {class: 'panel', 'aria-labelledby': 'value-h', hidden: true}),
    keys:
        h('section', {class: 'panel', id: 'keys-panel', 'aria-labelledby': 'keys-h', hidden: true}),
  };
  wire(page);
  const {els} = page;
  fill(
      view, h('h1', {}, 'Portfolio'), els.notice, els.summary, els.account, els.accounts,
      els.valuePanel, els.holdings, els.left, els.costs, els.keys);
  showAuthError(els.notice, query.get('auth_error'));
  const onResize = () => {
    const el = document.getElementById('value-chart');
    if (page.plot && el)
      page.plot.setSize(
          {width: Math.max(280, el.clientWidth), height: el.clientWidth < 500 ? 220 : 300});
  };
  window.addEventListener('resize', onResize);
  load(page);
  return () => {
    page.alive = false;
    clearInterval(page.countdownTimer);
    clearInterval(page.accountTimer);
    window.removeEventListener('resize', onResize);
    if (page.plot) page.plot.destroy();
  };
}

/** A sign-in or link that came back refused (?auth_error=): said once, then off the URL. */
function showAuthError(notice, authError) {
  if (!authError) return;
  fill(
      notice,
      h('p', {class: 'panel-state error', role: 'alert'},
        AUTH_ERRORS[authError] || `Sign-in failed (${authError}).`));
  history.replaceState(null, '', '/portfolio');
}

/** The callbacks the views call: reload parts of the page after a change. */
function wire(page) {
  page.reload = () => load(page);
  page.imported = page.saved = () => loadHoldings(page);
  page.accountPicked = (account) => {
    page.account = account;
    loadHoldings(page);
  };
  page.percentChanged = (percent) => {
    page.percent = percent;
    loadHoldings(page);
  };
  page.accountsChanged = () => {
    renderAccounts(page, page.linkPath);
    renderHoldings(page);
    renderLeft(page);
  };
  page.accountNames = (account) => {
    const found = page.accounts.find((a) => a.account === account);
    return accountName(account, found ? found.label : '');
  };
}

async function load(page) {
  const providers = enabledProviders();
  let me = null;
  try {
    me = await currentUser();
  } catch (err) {
    fill(page.els.account, h('h2', {id: 'acct-h'}, 'Account'), errorBox(err, page.reload));
    fill(page.els.holdings, '');
    return;
  }
  if (!page.alive) return;
  if (!me) {
    signedOut(page, providers);
    return;
  }
  page.me = me;
  const gameid = providers.find((p) => p.name === 'gameid');
  page.linkPath = gameid ? gameid.link_path : null;
  signedIn(page, me, providers);
  renderCostUpload(page);
  loadHoldings(page);
  loadKeys(page);
}

async function loadHoldings(page) {
  try {
    page.data = await loadPortfolio({account: page.account, percent: page.percent});
    if (!page.alive) return;
    page.accounts = mergeAccounts(linkedAccounts(page.me), page.data.accounts);
    renderAccounts(page, page.linkPath);
    renderHoldings(page);
    renderLeft(page);
    loadHistory(page);
  } catch (err) {
    if (err.code === 'not_found' && page.account) {
      page.account = '';  // the filtered account was unlinked meanwhile: show them all
      loadHoldings(page);
      return;
    }
    fill(page.els.holdings, h('h2', {id: 'hold-h'}, 'Holdings'), errorBox(err, page.saved));
  }
}
