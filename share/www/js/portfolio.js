// Portfolio: sign-in with the enabled providers, game-account linking, inventory import
// with the cooldown as a live countdown (Retry-After), holdings sortable with value and
// share of the total.
import { ago, count, currentUser, emptyBox, enabledProviders, errorBox, exactTime, fill, getJson, h, itemImage, markSignedIn, percent, post, price, setTitle, skeleton } from './api.js';
import { refreshUser } from './app.js';
import { itemDetail } from './market.js';

const AUTH_ERRORS = {
  state_mismatch: 'The sign-in took too long or was started in another tab. Please try again.',
  provider_error: 'The sign-in provider refused or failed. Please try again.',
  email_unverified: 'Your account at that provider has no verified e-mail address.',
  invalid_claimed_id: 'That game account cannot be used (not an individual account).',
  verification_failed: 'The game platform could not confirm the sign-in. Please try again.',
  already_linked: 'That game account is already linked to another skinpulse account.',
};
const PROVIDER_NAMES = { 'idp-a': 'Sign in with idp-a', 'idp-b': 'Sign in with idp-b', gameid: 'Sign in with your game account' };
const COOLDOWN_KEY = 'skinpulse.importUntil';

export function render(view, _params, query) {
  setTitle('Portfolio');
  let alive = true;
  let countdownTimer = null;
  const notice = h('div', { class: 'notice', role: 'status', 'aria-live': 'polite' });
  const account = h('section', { class: 'panel', 'aria-labelledby': 'acct-h' }, h('h2', { id: 'acct-h' }, 'Account'), skeleton(2));
  const holdings = h('section', { class: 'panel', 'aria-labelledby': 'hold-h' }, h('h2', { id: 'hold-h' }, 'Holdings'), skeleton(4));
  const summary = h('div', { class: 'kpis' });
  fill(view, h('h1', {}, 'Portfolio'), notice, summary, account, holdings);

  const authError = query.get('auth_error');
  if (authError) {
    fill(notice, h('p', { class: 'panel-state error', role: 'alert' }, AUTH_ERRORS[authError] || `Sign-in failed (${authError}).`));
    history.replaceState(null, '', '/portfolio');
  }

  async function load() {
    const providers = enabledProviders();
    let me = null;
    try {
      me = await currentUser();
    } catch (err) {
      fill(account, h('h2', { id: 'acct-h' }, 'Account'), errorBox(err, load));
      fill(holdings, '');
      return;
    }
    if (!alive) return;
    if (!me) { signedOut(providers); return; }
    signedIn(me, providers);
    loadHoldings();
  }

  function remember() { sessionStorage.setItem('skinpulse.return', '/portfolio'); markSignedIn(true); }

  function signedOut(providers) {
    fill(summary);
    fill(account, h('h2', { id: 'acct-h' }, 'Sign in'),
      h('p', {}, 'Sign in to value your inventory at live market prices.'),
      providers.length
        ? h('div', { class: 'buttons' }, providers.map((p) => h('a', { class: 'btn', href: p.login_path, id: `signin-${p.name}`, onclick: remember }, PROVIDER_NAMES[p.name] || `Sign in with ${p.name}`)))
        : emptyBox('No sign-in provider is enabled on this server. An administrator enables them in the [identity] configuration.'));
    fill(holdings, h('h2', { id: 'hold-h' }, 'Holdings'), emptyBox('Sign in to see your holdings.'));
  }

  function signedIn(me, providers) {
    const gameid = providers.find((p) => p.name === 'gameid');
    const linked = !!me.gameid;
    const importBtn = h('button', { type: 'button', class: 'btn primary', id: 'import-btn', disabled: !linked }, 'Import inventory');
    const countdown = h('span', { id: 'import-countdown', class: 'muted', 'aria-live': 'polite' });
    importBtn.addEventListener('click', () => doImport(importBtn, countdown));
    fill(account, h('h2', { id: 'acct-h' }, 'Account'),
      h('p', {}, 'Signed in as ', h('strong', { id: 'account-name' }, me.name || me.email || 'you'), me.email && me.name ? ` (${me.email})` : ''),
      linked
        ? h('p', {}, 'Game account linked: ', h('code', {}, me.gameid.platform_id), me.gameid.linked_at ? [' · ', h('time', { datetime: me.gameid.linked_at, title: exactTime(me.gameid.linked_at) }, ago(me.gameid.linked_at))] : '')
        : gameid && gameid.link_path
          ? h('p', {}, h('a', { class: 'btn', href: gameid.link_path, id: 'link-gameid', onclick: remember }, 'Link your game account'), ' to import your inventory.')
          : h('p', { class: 'muted' }, 'Game-account linking is not enabled on this server, so inventories cannot be imported.'),
      h('div', { class: 'buttons' }, importBtn, countdown,
        h('button', { type: 'button', class: 'btn small', onclick: logout }, 'Sign out')));
    const until = Number(sessionStorage.getItem(COOLDOWN_KEY) || 0);
    if (until > Date.now()) startCountdown(importBtn, countdown, until);
  }

  async function logout() {
    try { await post('/api/v1/auth/logout', 'Signing out'); } catch (err) { fill(notice, errorBox(err)); return; }
    sessionStorage.removeItem(COOLDOWN_KEY);
    markSignedIn(false);
    refreshUser();
    load();
  }

  async function doImport(btn, countdown) {
    btn.disabled = true;
    btn.textContent = 'Importing…';
    try {
      const { data } = await post('/api/v1/portfolio/import', 'Import');
      fill(notice, h('p', { class: 'panel-state ok' }, `${data.message}.${data.unmatched_assets ? ` ${count(data.unmatched_assets)} assets are not in the catalogue and were skipped.` : ''}`));
      btn.textContent = 'Import inventory';
      btn.disabled = false;
      loadHoldings();
    } catch (err) {
      btn.textContent = 'Import inventory';
      btn.disabled = false;
      if (err.code === 'import_cooldown' || (err.status === 429 && err.response)) {
        const seconds = Number(err.response.headers.get('Retry-After') || 60);
        const until = Date.now() + seconds * 1000;
        sessionStorage.setItem(COOLDOWN_KEY, String(until));
        startCountdown(btn, countdown, until);
        fill(notice, h('p', { class: 'panel-state warn' }, err.message));
      } else {
        fill(notice, h('p', { class: 'panel-state error', role: 'alert' }, err.message));
      }
    }
  }

  function startCountdown(btn, el, until) {
    clearInterval(countdownTimer);
    const tick = () => {
      const left = Math.ceil((until - Date.now()) / 1000);
      if (left <= 0) { clearInterval(countdownTimer); el.textContent = 'You can import again.'; btn.disabled = false; sessionStorage.removeItem(COOLDOWN_KEY); return; }
      btn.disabled = true;
      const m = Math.floor(left / 60), s = String(left % 60).padStart(2, '0');
      el.textContent = `Next import in ${m}:${s}`;
    };
    tick();
    countdownTimer = setInterval(tick, 1000);
  }

  let sortKey = 'total_value';
  let sortDir = -1;
  let data = null;
  async function loadHoldings() {
    try {
      data = await getJson('/api/v1/portfolio', 'Portfolio');
      if (!alive) return;
      renderHoldings();
    } catch (err) { fill(holdings, h('h2', { id: 'hold-h' }, 'Holdings'), errorBox(err, loadHoldings)); }
  }

  function renderHoldings() {
    const total = data.total_value || 0;
    fill(summary,
      kv('Total value', price(total), 'total-value'),
      kv('Items', count(data.item_count)),
      kv('Last import', data.last_imported_at ? ago(data.last_imported_at) : 'never'));
    if (!data.holdings.length) {
      fill(holdings, h('h2', { id: 'hold-h' }, 'Holdings'), emptyBox(data.last_imported_at ? 'Your last import found no item of the catalogue.' : 'Nothing imported yet: link your game account, then press “Import inventory”.'));
      return;
    }
    const rows = [...data.holdings].map((x) => ({ ...x, share: total ? x.total_value / total : 0 }))
      .sort((a, b) => (a[sortKey] < b[sortKey] ? -1 : a[sortKey] > b[sortKey] ? 1 : 0) * sortDir);
    const th = (key, label, cls) => h('th', { scope: 'col', class: cls, 'aria-sort': sortKey === key ? (sortDir > 0 ? 'ascending' : 'descending') : 'none' },
      h('button', { type: 'button', class: 'sort', onclick: () => { sortDir = sortKey === key ? -sortDir : (key === 'market_hash_name' ? 1 : -1); sortKey = key; renderHoldings(); } }, label));
    fill(holdings, h('h2', { id: 'hold-h' }, 'Holdings'),
      h('table', { class: 'table', id: 'holdings' },
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, h('span', { class: 'sr-only' }, 'Image')), th('market_hash_name', 'Item'), th('quantity', 'Qty', 'num'), th('current_price', 'Price', 'num'), th('total_value', 'Value', 'num'), th('share', 'Share', 'num'))),
        h('tbody', {}, rows.map((x, i) => {
          const img = h('td', { class: 'img-cell' });
          if (i < 60) itemDetail(x.item_id).then((d) => fill(img, itemImage(d, 'sm'))).catch(() => {});
          return h('tr', {}, img,
            h('td', { 'data-label': 'Item' }, h('a', { href: `/items/${x.item_id}`, 'data-link': '' }, x.market_hash_name)),
            h('td', { class: 'num', 'data-label': 'Qty' }, count(x.quantity)),
            h('td', { class: 'num', 'data-label': 'Price' }, x.current_price ? price(x.current_price) : h('span', { class: 'muted', title: 'No market has priced this item yet' }, 'no price')),
            h('td', { class: 'num', 'data-label': 'Value' }, price(x.total_value)),
            h('td', { class: 'num', 'data-label': 'Share' }, percent(x.share * 100).replace('+', '')));
        })),
        h('tfoot', {}, h('tr', {}, h('td', {}), h('th', { scope: 'row' }, 'Total'), h('td', {}), h('td', {}), h('td', { class: 'num' }, price(total)), h('td', { class: 'num' }, '100 %')))));
  }

  load();
  return () => { alive = false; clearInterval(countdownTimer); };
}

function kv(label, value, id) {
  return h('div', { class: 'kpi' }, h('span', { class: 'kpi-label' }, label), h('span', { class: 'kpi-value', id }, value));
}
