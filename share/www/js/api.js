// Talking to the daemon's JSON API, formatting numbers and times, building DOM.
// Every failed request becomes an ApiError whose message says what failed in words.

import {currency, withCurrency} from './money.js';

export class ApiError extends Error {
  constructor(message, status, code, response) {
    super(message);
    this.status = status;
    this.code = code;
    this.response = response;
  }
}

const WORDS = {
  item_not_found: 'This item is not in the catalogue.',
  unauthenticated: 'You are not signed in.',
  csrf_failed: 'Your session token expired; reload the page and try again.',
  rate_limited: 'Too many requests; wait a moment and try again.',
  import_cooldown: 'You imported recently; the next import opens when the countdown ends.',
  gameid_not_linked: 'Link your game account first.',
  invalid_platform_id: 'Your linked game account is not an individual account.',
  store_unavailable: 'Sign-in storage is unavailable right now; try again shortly.',
  inventory_private: 'Your inventory is private; make it public on the game platform and retry.',
  inventory_unavailable: 'The game platform did not answer; try again later.',
  inventory_too_large: 'Your inventory is too large to import.',
  upstream_unavailable: 'The game platform is unavailable; try again later.',
};

/** GET/POST `path`; resolves to {data, response}; rejects with ApiError. */
export async function request(path, {method = 'GET', headers = {}, body, what} = {}) {
  let response;
  try {
    response = await fetch(path, {method, headers, body, credentials: 'same-origin'});
  } catch (err) {
    throw new ApiError(`${what || 'The request'} failed: the server is unreachable.`, 0, 'network');
  }
  const type = response.headers.get('Content-Type') || '';
  let data = null;
  if (response.status !== 204 && (type.includes('json'))) {
    try {
      data = await response.json();
    } catch {
      data = null;
    }
  }
  if (!response.ok) {
    const code = data && data.code;
    const detail =
        (code && WORDS[code]) || (data && (data.detail || data.title)) || response.statusText;
    throw new ApiError(
        `${what ? what + ': ' : ''}${detail} (HTTP ${response.status})`, response.status, code,
        response);
  }
  return {data, response};
}

// Price endpoints answer in the chosen currency (money.js): `currency=` is added here, so
// every page asks the same way.
const PRICED =
    /^\/api\/v1\/(items\/\d+(\/(history|candles|volatility))?|rankings\/(volatile|spread)|portfolio(\/history)?)(\?|$)/;

/** `path` as a price endpoint is asked: with `currency=` of the chosen currency. */
export function pricedPath(path, info = currency()) {
  return PRICED.test(path) ? withCurrency(path, info) : path;
}

export async function getJson(path, what) {
  return (await request(pricedPath(path), {what})).data;
}

let csrfToken = null;
export async function csrf() {
  if (!csrfToken)
    csrfToken = (await getJson('/api/v1/auth/csrf', 'Getting a form token')).csrf_token;
  return csrfToken;
}

export async function post(path, what) {
  const token = await csrf();
  return request(path, {method: 'POST', headers: {'X-CSRF-Token': token}, what});
}

/** POST/PATCH/DELETE with the CSRF token and a JSON body. */
export async function send(method, path, body, what) {
  const headers = {'X-CSRF-Token': await csrf()};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  return request(
      path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body), what});
}

// --- formatting ----------------------------------------------------------------------
const compact = new Intl.NumberFormat(undefined, {maximumFractionDigits: 2});
const integer = new Intl.NumberFormat(undefined);
const pct = new Intl.NumberFormat(
    undefined, {maximumFractionDigits: 2, minimumFractionDigits: 2, signDisplay: 'exceptZero'});

// Money is formatted by money.js, in the chosen currency.
export function number(value) {
  return value === null || value === undefined ? '—' : compact.format(value);
}
export function count(value) {
  return value === null || value === undefined ? '—' : integer.format(value);
}
/** 3.2 → "+3.20 %". */
export function percent(value) {
  return value === null || value === undefined || !Number.isFinite(value) ?
      '—' :
      `${pct.format(value)} %`;
}

const rtf = new Intl.RelativeTimeFormat(undefined, {numeric: 'auto'});
/** ISO time → "2 min ago". */
export function ago(iso) {
  if (!iso) return 'never';
  const seconds = (Date.parse(iso) - Date.now()) / 1000;
  const abs = Math.abs(seconds);
  if (abs < 45) return rtf.format(Math.round(seconds), 'second');
  if (abs < 2700) return rtf.format(Math.round(seconds / 60), 'minute');
  if (abs < 64800) return rtf.format(Math.round(seconds / 3600), 'hour');
  return rtf.format(Math.round(seconds / 86400), 'day');
}
const exact = new Intl.DateTimeFormat(undefined, {dateStyle: 'medium', timeStyle: 'medium'});
export function exactTime(iso) {
  return iso ? exact.format(new Date(iso)) : '';
}

/** A <time> with relative text and the exact time on hover. */
export function timeEl(iso) {
  const t = h('time', {datetime: iso || '', title: exactTime(iso)}, ago(iso));
  return t;
}

// --- DOM -------------------------------------------------------------------------------
/** h('a', {href: '/x', class: 'c', onclick: fn}, 'text', child) */
export function h(tag, attrs = {}, ...children) {
  const el = tag.startsWith('svg:') ?
      document.createElementNS('http://www.w3.org/2000/svg', tag.slice(4)) :
      document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function')
      el.addEventListener(key.slice(2), value);
    else if (key === 'dataset')
      Object.assign(el.dataset, value);
    else
      el.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** Replaces the children of `el`. */
export function fill(el, ...children) {
  el.replaceChildren();
  for (const child of children.flat()) {
    if (child !== null && child !== undefined && child !== false) el.append(child);
  }
  return el;
}

export function errorBox(err, retry) {
  return h(
      'div', {class: 'panel-state error', role: 'alert'}, h('strong', {}, 'Could not load. '),
      err && err.message ? err.message : String(err),
      retry ? h('button', {type: 'button', class: 'btn small', onclick: retry}, 'Retry') : null);
}

export function emptyBox(text) {
  return h('div', {class: 'panel-state empty'}, text);
}

export function skeleton(rows = 3) {
  const box = h('div', {class: 'skeleton', 'aria-busy': 'true', 'aria-label': 'Loading'});
  for (let i = 0; i < rows; i++) box.append(h('div', {class: 'sk-line'}));
  return box;
}

const RARITY_CLASS = {
  'Consumer Grade': 'r-consumer',
  'Base Grade': 'r-consumer',
  'Industrial Grade': 'r-industrial',
  'Mil-Spec Grade': 'r-milspec',
  'High Grade': 'r-milspec',
  Restricted: 'r-restricted',
  Remarkable: 'r-restricted',
  Classified: 'r-classified',
  Exotic: 'r-classified',
  Covert: 'r-covert',
  Extraordinary: 'r-covert',
  Contraband: 'r-contraband',
};
export function rarityClass(rarity) {
  return RARITY_CLASS[rarity] || '';
}
export function rarityChip(rarity) {
  if (!rarity) return null;
  return h('span', {class: `chip rarity ${rarityClass(rarity)}`}, rarity);
}

// Variants (docs/api.md §18): a variant item shares its base's market_hash_name, so
// wherever a name is shown the variant follows it ("… (Factory New) — Ruby").
const VARIANT_CLASS = {
  Ruby: 'v-ruby',
  Sapphire: 'v-sapphire',
  'Black Pearl': 'v-pearl',
  Emerald: 'v-emerald'
};
/** Adds css/NAME.css once: a page's own styles stay off the Market page's first load. */
export function pageStyles(name) {
  if (!document.getElementById(`${name}-css`))
    document.head.append(
        h('link', {rel: 'stylesheet', href: `/assets/css/${name}.css`, id: `${name}-css`}));
}
/** Adds css/variants.css once: pages without variants never load it. */
export const variantStyles = () => pageStyles('variants');
/** A chip naming the variant, its colour dot in the finish's colour (phases neutral). */
export function variantChip(variant) {
  if (!variant) return null;
  variantStyles();
  return h('span', {class: `chip variant ${VARIANT_CLASS[variant] || 'v-phase'}`}, variant);
}
/**
 * The name of an item, holding or ranking row, with its variant when it has one:
 *  "★ Karambit | Doppler (Factory New) — Ruby".
 */
export function itemName(x) {
  return x.variant ? [x.market_hash_name, ' — ', variantChip(x.variant)] : [x.market_hash_name];
}
/** Whether the item is a base with variants: its price is its cheapest variant's, "from". */
export function hasVariants(item) {
  return !!(item && item.variants && item.variants.length);
}

/** The most characters an image placeholder's label has, per tile size (app.css). */
export const PLACEHOLDER_CHARS = {
  sm: 5,
  md: 10,
  lg: 12
};
const PLACEHOLDER_WORDS = {
  Container: 'Case'
};  // what traders call it
// Traders' own short forms, for a tile too narrow for the whole type.
const SHORT_FORMS = {
  'Butterfly Knife': 'Bfly',
  Karambit: 'Kara',
  'Zeus x27': 'Zeus',
  XM1014: 'XM',
  Sticker: 'Stkr'
};

/**
 * A placeholder tile's label for a weapon type, at most `max` characters: the type when
 * it fits ("AWP", "Karambit"), else without a trailing "Knife" ("Butterfly"), an
 * acronym-like first word ("SSG 08" → "SSG"), the initials of several words ("Desert
 * Eagle" → "DE"), the type without hyphens ("MAC-10" → "MAC10") or its first part
 * ("Glock-18" → "Glock"), and last a cut with a full stop ("Skeleton" → "Skel."); a
 * traders' short form comes first when the type does not fit ("Karambit" → "Kara").
 */
export function placeholderLabel(type, max) {
  const name = (PLACEHOLDER_WORDS[type] || type || 'Item').trim();
  const fits = (text) => text.length > 0 && text.length <= max;
  const words = name.replace(/\s+Knife$/, '').split(/\s+/);
  const candidates = [name, words.join(' '), SHORT_FORMS[name]].filter(Boolean);
  if (words.length > 1) {
    if (/\d/.test(words[0]) || /^[A-Z0-9-]{2,}$/.test(words[0])) candidates.push(words[0]);
    candidates.push(words.map((w) => w[0]).join(''));
  }
  candidates.push(words.join('').replace(/-/g, ''), words[0].split('-')[0]);
  const found = candidates.find(fits);
  if (found) return found;
  return `${words.join('').slice(0, Math.max(1, max - 1))}.`;
}

/** An item image; without one (or when the CDN is unreachable) a tile naming the type. */
export function itemImage(item, size = 'md') {
  const fallback = () => {
    const type = item.weapon_type || 'Item';
    const label = placeholderLabel(type, PLACEHOLDER_CHARS[size] || PLACEHOLDER_CHARS.md);
    const tile =
        h('span', {
          class: `item-img img-fallback ${size}`,
          role: 'img',
          title: type,
          'aria-label': item.market_hash_name || 'item'
        },
          h('span', {'aria-hidden': 'true'}, label));
    // The label's length sizes its font (app.css), so it fits the tile, never clipped. Set
    // through the CSSOM: the CSP (style-src 'self') refuses style attributes.
    tile.style.setProperty('--ph-chars', String(Math.max(label.length, 3)));
    return tile;
  };
  if (!item.image_url) return fallback();
  const img = h('img', {
    class: `item-img ${size}`,
    alt: item.market_hash_name || 'item',
    loading: 'lazy',
    decoding: 'async',
    src: item.image_url,
    width: size === 'lg' ? 128 : 64,
    height: size === 'lg' ? 96 : 48,
    referrerpolicy: 'no-referrer',
  });
  img.addEventListener('error', () => img.replaceWith(fallback()), {once: true});
  return img;
}

/** Change with an arrow and colour (never colour alone). */
export function change(value) {
  if (value === null || value === undefined || !Number.isFinite(value))
    return h('span', {class: 'chg'}, '—');
  const dir = value > 0 ? 'up' : value < 0 ? 'down' : 'flat';
  const arrow = value > 0 ? '▲' : value < 0 ? '▼' : '■';
  return h(
      'span', {class: `chg ${dir}`}, h('span', {'aria-hidden': 'true'}, arrow + ' '),
      percent(value));
}

/** Brief highlight of a changed cell. */
export function flash(el, up) {
  el.classList.remove('flash-up', 'flash-down');
  void el.offsetWidth;
  el.classList.add(up ? 'flash-up' : 'flash-down');
}

export function setTitle(text) {
  document.title = text ? `${text} · skinpulse` : 'skinpulse';
}

// --- sign-in state ---------------------------------------------------------------------
/** The enabled identity providers, as the daemon wrote them into index.html. */
export function enabledProviders() {
  const meta = document.querySelector('meta[name="skinpulse-providers"]');
  return (meta ? meta.content : '')
      .split(/\s+/)
      .filter(Boolean)
      .map((name) => ({
             name,
             login_path: name === 'gameid' ? '/api/v1/auth/gameid/login' : `/api/v1/auth/${name}`,
             link_path: name === 'gameid' ? '/api/v1/auth/gameid' : null,
           }));
}

/**
 * Whether the daemon runs in development mode ([dev] enabled, etc/dev only): the gameid
 * sign-in then goes to the daemon's own development provider.
 */
export function devMode() {
  const meta = document.querySelector('meta[name="skinpulse-dev"]');
  return !!meta && meta.content === 'on';
}

// Whether this browser signed in (set when a sign-in starts, cleared on sign-out or 401):
// anonymous visits never ask /api/v1/auth/me, so they never log a 401.
const SIGNED_IN = 'skinpulse.signedIn';
export function maybeSignedIn() {
  return localStorage.getItem(SIGNED_IN) === '1';
}
export function markSignedIn(on) {
  if (on)
    localStorage.setItem(SIGNED_IN, '1');
  else
    localStorage.removeItem(SIGNED_IN);
}

/** The signed-in user (GET /api/v1/auth/me) or null. */
export async function currentUser() {
  if (!maybeSignedIn()) return null;
  try {
    return (await request('/api/v1/auth/me', {what: 'Your account'})).data;
  } catch (err) {
    if (err.status === 401) {
      markSignedIn(false);
      return null;
    }
    throw err;
  }
}
