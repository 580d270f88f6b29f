// The shell: client-side routing over the paths of docs/api.md §9, the status strip,
// the type-ahead search and the user slot. Pages are modules loaded on first visit.

import { ago, currentUser, exactTime, fill, getJson, h, hasVariants, itemImage, itemName, request } from './api.js';
import { live } from './live.js';
import { chooseCurrency, currencies, currency, loadCurrencies, money } from './money.js';

const ROUTES = [
  { re: /^\/$/, page: 'market', load: () => import('./market.js') },
  { re: /^\/items\/(\d+)$/, page: 'market', load: () => import('./item.js') },
  { re: /^\/rankings$/, page: 'rankings', load: () => import('./rankings.js') },
  { re: /^\/portfolio$/, page: 'portfolio', load: () => import('./portfolio.js') },
  { re: /^\/spreads$/, page: 'spreads', load: () => import('./spreads.js') },
  { re: /^\/status$/, page: 'status', load: () => import('./status.js') },
  { re: /^\/alerts$/, page: 'alerts', load: () => import('./alerts.js') },
];

const view = document.getElementById('view');
let cleanup = null;
let rendering = 0;

export function navigate(url, { replace = false } = {}) {
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  route();
}

async function route() {
  const token = ++rendering;
  if (cleanup) { try { cleanup(); } catch { /* page gone */ } cleanup = null; }
  const path = location.pathname;
  const match = ROUTES.map((r) => ({ r, m: path.match(r.re) })).find((x) => x.m);
  document.querySelectorAll('[data-nav]').forEach((a) => {
    const current = match && a.dataset.nav === match.r.page && (path === '/' ? a.dataset.nav === 'market' : true);
    if (current) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
  });
  if (!match) {
    fill(view, h('section', { class: 'panel' }, h('h1', {}, 'Not here yet'),
      h('p', {}, 'This page is planned but not built yet. '), h('a', { href: '/', 'data-link': '' }, 'Back to the market')));
    return;
  }
  let mod;
  try {
    mod = await match.r.load();
  } catch (err) {
    fill(view, h('div', { class: 'panel-state error', role: 'alert' }, `Could not load the page: ${err.message}`));
    return;
  }
  if (token !== rendering) return;
  const params = new URLSearchParams(location.search);
  cleanup = mod.render(view, match.m.slice(1), params) || null;
}

// Links marked data-link stay in the app (middle-click and modifiers keep their meaning).
document.addEventListener('click', (event) => {
  const a = event.target.closest('a[data-link]');
  if (!a || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin) return;
  event.preventDefault();
  navigate(url.pathname + url.search);
  view.focus({ preventScroll: true });
  window.scrollTo(0, 0);
});
window.addEventListener('popstate', route);

// --- status strip
const stripSources = document.getElementById('strip-sources');
const stripCycle = document.getElementById('strip-cycle');
const stripLive = document.getElementById('strip-live');
export let readiness = null;

async function refreshStrip() {
  try {
    const { data } = await request('/readyz', { what: 'Status' }).catch((err) => {
      if (err.response && err.status === 503) return { data: null };
      throw err;
    });
    if (!data) { readiness = null; stripSources.textContent = 'Sources: database unavailable'; return; }
    // The public /readyz has no per-source detail (docs/api.md): the sources this
    // instance polls come from /api/v1/sources (enabled, with a plugin).
    const markets = await getJson('/api/v1/sources', 'Sources');
    const sources = markets.filter((s) => s.enabled && s.plugin);
    readiness = { ...data, sources };
    const fresh = sources.filter(isFresh).length;
    stripSources.textContent = `Sources fresh: ${fresh} / ${sources.length}`;
    stripSources.className = fresh === sources.length ? '' : 'warn';
    const last = sources.map((s) => s.last_success).filter(Boolean).sort().pop();
    fill(stripCycle, 'Last cycle: ', last ? h('time', { datetime: last, title: exactTime(last) }, ago(last)) : 'none yet');
    document.dispatchEvent(new CustomEvent('readiness', { detail: readiness }));
  } catch (err) {
    stripSources.textContent = `Sources: ${err.message}`;
    stripSources.className = 'warn';
  }
}

/** A source is fresh when it succeeded within three of its intervals (the daemon says so
 * itself since docs/api.md §12; computed here for an older daemon). */
export function isFresh(source) {
  if (typeof source.fresh === 'boolean') return source.fresh;
  if (!source.last_success) return false;
  const age = (Date.now() - Date.parse(source.last_success)) / 1000;
  return age <= Math.max(3 * (source.interval_seconds || 60), 60);
}

const LIVE_TEXT = { live: 'Live', connecting: 'Live: connecting', reconnecting: 'Live: reconnecting', offline: 'Offline' };
live.addEventListener('state', (event) => {
  stripLive.textContent = LIVE_TEXT[event.detail] || event.detail;
  stripLive.className = `live live-${event.detail === 'live' ? 'on' : 'off'}`;
});
live.addEventListener('prices', () => { setTimeout(refreshStrip, 500); });

// --- alert toasts (the `ws` channel of docs/api.md §13)
const toasts = h('div', { class: 'toasts', id: 'toasts', role: 'status', 'aria-live': 'assertive' });
document.body.append(toasts);
live.addEventListener('alert', (event) => {
  const alert = event.detail;
  const close = h('button', { type: 'button', class: 'btn small', 'aria-label': 'Dismiss' }, '×');
  const toast = h('div', { class: 'toast', 'data-alert-id': alert.alert_id },
    h('div', {}, h('strong', {}, 'Alert: '), h('a', { href: `/items/${alert.item_id}`, 'data-link': '' }, itemName(alert)),
      h('div', {}, (alert.message || '').replace(`${alert.market_hash_name}: `, ''))), close);
  close.addEventListener('click', () => toast.remove());
  toasts.append(toast);
  setTimeout(() => toast.remove(), 30000);
});

// --- search type-ahead
const form = document.getElementById('search-form');
const input = document.getElementById('search');
const list = document.getElementById('search-suggest');
let suggestTimer = null;
let suggestSeq = 0;
let active = -1;

function closeSuggest() {
  list.hidden = true;
  input.setAttribute('aria-expanded', 'false');
  active = -1;
}

async function suggest() {
  const q = input.value.trim();
  const seq = ++suggestSeq;
  if (q.length < 2) { closeSuggest(); return; }
  try {
    const items = await getJson(`/api/v1/items?limit=8&q=${encodeURIComponent(q)}`, 'Search');
    if (seq !== suggestSeq) return;
    const prices = new Map(items.map((item) => [item.id, h('span', { class: 'num muted sg-price' }, '…')]));
    fill(list, items.length ? items.map((item, i) => h('li', { role: 'option', id: `sg-${i}`, 'aria-selected': 'false' },
      h('a', { href: `/items/${item.id}`, 'data-link': '', tabindex: '-1' }, itemImage(item, 'sm'), h('span', { class: 'sg-name' }, item.market_hash_name), prices.get(item.id))))
      : [h('li', { class: 'muted' }, 'No item matches')]);
    for (const item of items) {
      getJson(`/api/v1/items/${item.id}`, 'Price')
        .then((d) => { prices.get(item.id).textContent = `${hasVariants(d) ? 'from ' : ''}${money(d.current_price)}`; })
        .catch(() => { prices.get(item.id).textContent = 'price unavailable'; });
    }
    list.hidden = false;
    input.setAttribute('aria-expanded', 'true');
    active = -1;
  } catch (err) {
    fill(list, h('li', { class: 'error' }, err.message));
    list.hidden = false;
  }
}

input.addEventListener('input', () => { clearTimeout(suggestTimer); suggestTimer = setTimeout(suggest, 150); });
input.addEventListener('keydown', (event) => {
  const options = [...list.querySelectorAll('[role=option]')];
  if (event.key === 'Escape') { closeSuggest(); return; }
  if (!options.length || list.hidden) return;
  if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
    event.preventDefault();
    active = (active + (event.key === 'ArrowDown' ? 1 : options.length - 1)) % options.length;
    options.forEach((o, i) => o.setAttribute('aria-selected', i === active ? 'true' : 'false'));
    input.setAttribute('aria-activedescendant', options[active].id);
  } else if (event.key === 'Enter' && active >= 0) {
    event.preventDefault();
    options[active].querySelector('a').click();
    closeSuggest();
  }
});
input.addEventListener('blur', () => setTimeout(closeSuggest, 150));
list.addEventListener('click', () => { closeSuggest(); });
form.addEventListener('submit', (event) => {
  event.preventDefault();
  closeSuggest();
  const q = input.value.trim();
  navigate(q ? `/?q=${encodeURIComponent(q)}` : '/');
});

// --- user slot
export async function refreshUser() {
  const slot = document.getElementById('user-slot');
  try {
    const me = await currentUser();
    if (!me) fill(slot, h('a', { href: '/portfolio', 'data-link': '', class: 'btn small' }, 'Sign in'));
    else fill(slot, h('a', { href: '/portfolio', 'data-link': '', class: 'user-name' }, me.name || me.email || 'Signed in'));
    return me;
  } catch (err) {
    fill(slot, h('span', { class: 'warn', title: err.message }, 'Account unavailable'));
    return null;
  }
}

// After a sign-in the provider sends the browser to FRONTEND_URL ("/"); go back to the
// page that started it.
const back = sessionStorage.getItem('skinpulse.return');
if (back && location.pathname === '/') {
  sessionStorage.removeItem('skinpulse.return');
  history.replaceState(null, '', back + location.search);
}

live.connect();
refreshStrip();
setInterval(refreshStrip, 30000);
refreshUser();

// The currency selector (money.js): the codes with a rate, the choice kept in the browser;
// a change re-renders the page, whose price requests then carry `currency=`.
const currencySelect = document.getElementById('currency-select');
const pick = (code) => { chooseCurrency(code); currencySelect.value = document.getElementById('foot-currency').textContent = currency().code; route(); };
currencySelect.addEventListener('change', () => pick(currencySelect.value));
loadCurrencies().then(() => {
  fill(currencySelect, ...currencies().map((c) => h('option', { value: c.code }, c.code)));
  pick(currency().code);
});
