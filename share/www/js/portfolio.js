// Portfolio: sign-in with the enabled providers, game-account linking, inventory import
// with the cooldown as a live countdown (Retry-After), holdings sortable with value and
// share of the total, what was paid per holding (edited inline) with the P&L it gives,
// the 24h change, the value history as a chart (7d/30d/1y) and the CSV export. The page
// composes views/portfolio/ and keeps the state they share (`page`).
import {
  currentUser,
  enabledProviders,
  errorBox,
  fill,
  getJson,
  h,
  pageStyles,
  setTitle,
  skeleton
} from './api.js';
import {signedIn, signedOut} from './views/portfolio/account.js';
import {HISTORY_KEY, HISTORY_WINDOWS, loadHistory} from './views/portfolio/history.js';
import {renderHoldings} from './views/portfolio/holdings.js';
import {loadKeys} from './views/portfolio/keys.js';

pageStyles('portfolio');

const AUTH_ERRORS = {
  state_mismatch: 'The sign-in took too long or was started in another tab. Please try again.',
  provider_error: 'The sign-in provider refused or failed. Please try again.',
  email_unverified: 'Your account at that provider has no verified e-mail address.',
  invalid_claimed_id: 'That game account cannot be used (not an individual account).',
  verification_failed: 'The game platform could not confirm the sign-in. Please try again.',
  already_linked: 'That game account is already linked to another skinpulse account.',
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
    historyWindow: HISTORY_WINDOWS.includes(stored) ? stored : '30d'
  };
  page.els = {
    notice: h('div', {class: 'notice', role: 'status', 'aria-live': 'polite'}),
    account:
        h('section', {class: 'panel', 'aria-labelledby': 'acct-h'},
          h('h2', {id: 'acct-h'}, 'Account'), skeleton(2)),
    holdings:
        h('section', {class: 'panel', 'aria-labelledby': 'hold-h'},
          h('h2', {id: 'hold-h'}, 'Holdings'), skeleton(4)),
    summary: h('div', {class: 'kpis'}),
    valuePanel: h('section', {class: 'panel', 'aria-labelledby': 'value-h', hidden: true}),
    keys:
        h('section', {class: 'panel', id: 'keys-panel', 'aria-labelledby': 'keys-h', hidden: true}),
  };
  page.reload = () => load(page);
  page.imported = page.saved = () => loadHoldings(page);
  const {els} = page;
  fill(
      view, h('h1', {}, 'Portfolio'), els.notice, els.summary, els.account, els.valuePanel,
      els.holdings, els.keys);
  const authError = query.get('auth_error');
  if (authError) {
    fill(
        els.notice,
        h('p', {class: 'panel-state error', role: 'alert'},
          AUTH_ERRORS[authError] || `Sign-in failed (${authError}).`));
    history.replaceState(null, '', '/portfolio');
  }
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
    window.removeEventListener('resize', onResize);
    if (page.plot) page.plot.destroy();
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
  signedIn(page, me, providers);
  loadHoldings(page);
  loadKeys(page);
}

async function loadHoldings(page) {
  try {
    page.data = await getJson('/api/v1/portfolio', 'Portfolio');
    if (!page.alive) return;
    renderHoldings(page);
    loadHistory(page);
  } catch (err) {
    fill(page.els.holdings, h('h2', {id: 'hold-h'}, 'Holdings'), errorBox(err, page.saved));
  }
}
