// The Portfolio page's account panel: sign-in with the enabled providers, game-account
// linking, the inventory import (every linked account) with its cooldown as a live
// countdown (Retry-After), and sign-out (which tells the header's user slot, session.js).
// Each account on its own: accounts.js.
import {
  ago,
  devMode,
  emptyBox,
  errorBox,
  exactTime,
  fill,
  h,
  markSignedIn,
  post
} from '../../api.js';
import {importInventory, importSummary, linkedAccounts} from '../../portfolio-data.js';
import {userChanged} from '../../session.js';

import {rememberCooldowns} from './accounts.js';

const PROVIDER_NAMES = {
  'idp-a': 'Sign in with idp-a',
  'idp-b': 'Sign in with idp-b',
  gameid: 'Sign in with your game account'
};
export const COOLDOWN_KEY = 'skinpulse.importUntil';

function remember() {
  sessionStorage.setItem('skinpulse.return', '/portfolio');
  markSignedIn(true);
}

// In development mode the gameid provider is the daemon's own (docs/operations.md), which
// signs in as a demo player with a demo inventory: the button says so.
function providerLabel(name) {
  if (name === 'gameid' && devMode()) return 'Sign in (development)';
  return PROVIDER_NAMES[name] || `Sign in with ${name}`;
}

/** page: {els: {account, holdings, summary, valuePanel, notice}}. */
export function signedOut(page, providers) {
  fill(page.els.summary);
  page.els.valuePanel.hidden = true;
  fill(
      page.els.account, h('h2', {id: 'acct-h'}, 'Sign in'),
      h('p', {}, 'Sign in to value your inventory at live market prices.'),
      providers.length ?
          h('div', {class: 'buttons'},
            providers.map(
                (p) =>
                    h('a',
                      {class: 'btn', href: p.login_path, id: `signin-${p.name}`, onclick: remember},
                      providerLabel(p.name)))) :
          emptyBox(
              'No sign-in provider is enabled on this server. An administrator enables them in the [identity] configuration.'));
  fill(
      page.els.holdings, h('h2', {id: 'hold-h'}, 'Holdings'),
      emptyBox('Sign in to see your holdings.'));
}

/** page also: reload() (the whole page), imported() (the holdings). */
export function signedIn(page, me, providers) {
  const gameid = providers.find((p) => p.name === 'gameid');
  const accounts = linkedAccounts(me);
  const linked = accounts.length > 0;
  const importBtn =
      h('button', {type: 'button', class: 'btn primary', id: 'import-btn', disabled: !linked},
        importWords(accounts));
  const countdown = h('span', {id: 'import-countdown', class: 'muted', 'aria-live': 'polite'});
  importBtn.addEventListener('click', () => doImport(page, importBtn, countdown));
  fill(
      page.els.account, h('h2', {id: 'acct-h'}, 'Account'),
      h('p', {}, 'Signed in as ', h('strong', {id: 'account-name'}, me.name || me.email || 'you'),
        me.email && me.name ? ` (${me.email})` : ''),
      linkLine(accounts, gameid),
      h('div', {class: 'buttons'}, importBtn, countdown,
        h('button', {type: 'button', class: 'btn small', onclick: () => logout(page)},
          'Sign out')));
  const until = Number(sessionStorage.getItem(COOLDOWN_KEY) || 0);
  if (until > Date.now()) startCountdown(page, importBtn, countdown, until);
}

// One account: "Import inventory"; several: every one of them, one after the other.
function importWords(accounts) {
  return accounts.length > 1 ? 'Import all accounts' : 'Import inventory';
}

function linkLine(accounts, gameid) {
  if (accounts.length > 1)
    return h('p', {}, `${accounts.length} game accounts linked (listed below).`);
  if (accounts.length) {
    const [first] = accounts;
    return h(
        'p', {}, 'Game account linked: ', h('code', {}, first.platform_id),
        first.linked_at ?
            [
              ' · ',
              h('time', {datetime: first.linked_at, title: exactTime(first.linked_at)},
                ago(first.linked_at))
            ] :
            '');
  }
  if (gameid && gameid.link_path) {
    return h(
        'p', {},
        h('a', {class: 'btn', href: gameid.link_path, id: 'link-gameid', onclick: remember},
          'Link your game account'),
        ' to import your inventory.');
  }
  return h(
      'p', {class: 'muted'},
      'Game-account linking is not enabled on this server, so inventories cannot be imported.');
}

async function logout(page) {
  try {
    await post('/api/v1/auth/logout', 'Signing out');
  } catch (err) {
    fill(page.els.notice, errorBox(err));
    return;
  }
  sessionStorage.removeItem(COOLDOWN_KEY);
  markSignedIn(false);
  userChanged();
  page.reload();
}

async function doImport(page, btn, countdown) {
  const {notice} = page.els;
  const words = btn.textContent;
  btn.disabled = true;
  btn.textContent = 'Importing…';
  try {
    const {data} = await importInventory();
    rememberCooldowns(data);
    fill(notice, h('p', {class: 'panel-state ok'}, importSummary(data, page.accountNames)));
    btn.textContent = words;
    btn.disabled = false;
    page.imported();
  } catch (err) {
    btn.textContent = words;
    btn.disabled = false;
    if (err.code === 'import_cooldown' || (err.status === 429 && err.response)) {
      const seconds = Number(err.response.headers.get('Retry-After') || 60);
      const until = Date.now() + seconds * 1000;
      sessionStorage.setItem(COOLDOWN_KEY, String(until));
      startCountdown(page, btn, countdown, until);
      fill(notice, h('p', {class: 'panel-state warn'}, err.message));
    } else {
      fill(notice, h('p', {class: 'panel-state error', role: 'alert'}, err.message));
    }
  }
}

function startCountdown(page, btn, el, until) {
  clearInterval(page.countdownTimer);
  const tick = () => {
    const left = Math.ceil((until - Date.now()) / 1000);
    if (left <= 0) {
      clearInterval(page.countdownTimer);
      el.textContent = 'You can import again.';
      btn.disabled = false;
      sessionStorage.removeItem(COOLDOWN_KEY);
      return;
    }
    btn.disabled = true;
    const m = Math.floor(left / 60), s = String(left % 60).padStart(2, '0');
    el.textContent = `Next import in ${m}:${s}`;
  };
  tick();
  page.countdownTimer = setInterval(tick, 1000);
}
