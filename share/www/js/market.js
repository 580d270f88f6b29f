// Market: KPIs, top movers, the volatility ranking and the catalogue search with filters
// and paging kept in the URL. Prices flash as live updates arrive.

import { fromUsd, money } from './money.js';
import { change, count, rarityClass, emptyBox, errorBox, fill, flash, getJson, h, hasVariants, itemImage, itemName, rarityChip, request, setTitle, skeleton, percent, number, variantChip } from './api.js';
import { live } from './live.js';
import { isFresh, navigate, readiness } from './app.js';
import { sparkline } from './spark.js';

const PAGE = 24;
const WINDOWS = ['1h', '24h', '7d'];
const RARITIES = ['Consumer Grade', 'Industrial Grade', 'Mil-Spec Grade', 'Restricted', 'Classified', 'Covert', 'Contraband', 'Extraordinary',
  'Base Grade', 'High Grade', 'Remarkable', 'Exotic'];
const TYPES = ['AK-47', 'AWP', 'M4A4', 'M4A1-S', 'Desert Eagle', 'USP-S', 'Glock-18', 'P250', 'Five-SeveN', 'Tec-9', 'CZ75-Auto', 'P2000',
  'Dual Berettas', 'R8 Revolver', 'FAMAS', 'Galil AR', 'AUG', 'SG 553', 'SSG 08', 'SCAR-20', 'G3SG1', 'MAC-10', 'MP9', 'MP7', 'MP5-SD',
  'UMP-45', 'P90', 'PP-Bizon', 'Nova', 'XM1014', 'MAG-7', 'Sawed-Off', 'M249', 'Negev', 'Karambit', 'Butterfly Knife', 'M9 Bayonet',
  'Bayonet', 'Gloves', 'Agent', 'Sticker', 'Charm', 'Container', 'Graffiti', 'Music Kit', 'Patch'];

// Cache of item details (image, current price) shared by the panels of one visit.
const details = new Map();
export function itemDetail(id) {
  if (!details.has(id)) {
    const p = getJson(`/api/v1/items/${id}`, `Item ${id}`);
    p.catch(() => details.delete(id));
    details.set(id, p);
  }
  return details.get(id);
}

/** Shows `minor` in `el`; a base with variants costs "from" its cheapest variant (§18). */
export function showPrice(el, minor) {
  el.textContent = `${el.dataset.from ? 'from ' : ''}${money(minor)}`;
  el.dataset.cents = minor ?? '';
}

/** Runs `fn` over `values` with at most `width` in flight. */
async function pool(values, width, fn) {
  let next = 0;
  const workers = Array.from({ length: Math.min(width, values.length) }, async () => {
    while (next < values.length) { const i = next++; await fn(values[i], i); }
  });
  await Promise.all(workers);
}

export function render(view, _params, query) {
  setTitle('Market');
  // With no search or filter, browse one popular weapon rather than the catalogue's
  // first ids (cases and capsules); "Any" type shows everything.
  const browsing = !['q', 'weapon_type', 'rarity', 'stattrak', 'page'].some((k) => query.has(k));
  if (browsing) query.set('weapon_type', 'AK-47');
  const moverWindow = WINDOWS.includes(query.get('movers')) ? query.get('movers') : '24h';
  const priceCells = new Map();  // item id → [elements showing its price]
  let alive = true;

  const kpis = h('section', { class: 'kpis', 'aria-label': 'Market summary' },
    kpi('Catalogue items', 'kpi-items'), kpi('Sources fresh', 'kpi-fresh'), kpi('Top gainer (24h)', 'kpi-gain'), kpi('Top loser (24h)', 'kpi-loss'));
  const moversBody = h('div', { class: 'movers' }, skeleton(2));
  const moversTabs = windowTabs(moverWindow, (w) => { const q = new URLSearchParams(location.search); q.set('movers', w); navigate(`/?${q}`, { replace: true }); });
  const rankingBody = h('div', { class: 'ranking' }, skeleton(6));
  const results = h('div', { id: 'results' }, skeleton(6));

  const q = query.get('q') || '';
  const form = filtersForm(query);
  fill(view,
    h('h1', { class: 'sr-only' }, 'Market'),
    kpis,
    h('div', { class: 'grid-2' },
      h('section', { class: 'panel', 'aria-labelledby': 'movers-h' },
        h('div', { class: 'panel-head' }, h('h2', { id: 'movers-h' }, 'Top movers'), moversTabs),
        h('p', { class: 'hint' }, 'Largest price changes among the 100 most volatile items priced $1 or more.'),
        moversBody),
      h('section', { class: 'panel', 'aria-labelledby': 'vol-h' },
        h('div', { class: 'panel-head' }, h('h2', { id: 'vol-h' }, `Most volatile (${moverWindow})`), h('a', { href: `/rankings?window=${moverWindow}`, 'data-link': '' }, 'All rankings')),
        rankingBody)),
    h('section', { class: 'panel', 'aria-labelledby': 'search-h' },
      h('div', { class: 'panel-head' }, h('h2', { id: 'search-h' }, q ? `Results for “${q}”` : browsing ? 'Browse the catalogue: AK-47' : 'Catalogue')),
      form, results));

  const searchInput = document.getElementById('search');
  if (searchInput && document.activeElement !== searchInput) searchInput.value = q;

  function track(id, el, cents) {
    if (!priceCells.has(id)) priceCells.set(id, []);
    priceCells.get(id).push(el);
    el.dataset.cents = cents ?? '';
  }

  // KPIs
  // HEAD: only the X-Total-Count header is wanted, not an item (docs/api.md §2).
  request('/api/v1/items?limit=1', { method: 'HEAD', what: 'Catalogue' }).then(({ response }) => {
    document.getElementById('kpi-items').textContent = count(Number(response.headers.get('X-Total-Count')));
  }).catch((err) => { document.getElementById('kpi-items').textContent = err.message; });
  const showFresh = (data) => {
    const sources = (data && data.sources) || [];
    document.getElementById('kpi-fresh').textContent = sources.length ? `${sources.filter(isFresh).length} / ${sources.length}` : 'no sources';
  };
  if (readiness) showFresh(readiness);
  document.addEventListener('readiness', (e) => alive && showFresh(e.detail));

  // Movers and ranking
  async function loadRanking() {
    try {
      const ranked = await getJson(`/api/v1/rankings/volatile?limit=100&window=${moverWindow}`, 'Rankings');
      if (!alive) return;
      renderRanking(ranked.slice(0, 10));
      renderMovers(ranked);
      if (moverWindow === '24h') renderKpiMovers(ranked);
      else getJson('/api/v1/rankings/volatile?limit=100&window=24h', 'Rankings').then(renderKpiMovers).catch(() => {});
    } catch (err) {
      fill(rankingBody, errorBox(err, loadRanking));
      fill(moversBody, errorBox(err, loadRanking));
    }
  }

  function renderKpiMovers(ranked) {
    const sorted = ranked.filter(movable).sort((a, b) => b.percent_change - a.percent_change);
    const gain = sorted[0];
    const loss = sorted[sorted.length - 1];
    const put = (id, entry) => {
      const el = document.getElementById(id);
      if (!el) return;
      el.classList.add('multi');
      fill(el, entry ? [h('a', { href: `/items/${entry.item_id}`, 'data-link': '', class: 'kpi-link', title: entry.market_hash_name }, itemName(entry)), change(entry.percent_change)] : '—');
    };
    put('kpi-gain', gain && gain.percent_change > 0 ? gain : null);
    put('kpi-loss', loss && loss.percent_change < 0 ? loss : null);
  }

  function renderRanking(rows) {
    if (!rows.length) { fill(rankingBody, emptyBox('No item has two prices from one market in this window yet. Rankings appear after a few polling cycles.')); return; }
    fill(rankingBody, rankingTable(rows, track));
  }

  function renderMovers(ranked) {
    const movers = ranked.filter(movable).sort((a, b) => Math.abs(b.percent_change) - Math.abs(a.percent_change)).slice(0, 6);
    if (!movers.length) { fill(moversBody, emptyBox('No movers yet: prices need a few cycles to compare.')); return; }
    fill(moversBody, movers.map((m) => {
      const img = h('div', { class: 'img-slot' });
      const spark = h('div', { class: 'spark-slot', 'aria-hidden': 'true' });
      const p = h('span', { class: 'num price' }, money(m.current_price));
      track(m.item_id, p, m.current_price);
      itemDetail(m.item_id).then((item) => fill(img, itemImage(item)))
        .catch((err) => fill(img, h('span', { class: 'muted small', title: err.message }, 'no image')));
      const interval = moverWindow === '1h' ? '5m' : '1h';
      getJson(`/api/v1/items/${m.item_id}/candles?window=${moverWindow}&interval=${interval}&source=${encodeURIComponent(m.source)}`, 'Chart')
        .then((c) => fill(spark, sparkline(c.candles.map((x) => x.close), m.percent_change)))
        .catch((err) => fill(spark, h('span', { class: 'muted small', title: err.message }, 'chart unavailable')));
      return h('a', { class: 'mover card', href: `/items/${m.item_id}`, 'data-link': '' },
        img, h('span', { class: 'name' }, m.market_hash_name), variantChip(m.variant), h('span', { class: 'row' }, p, change(m.percent_change)), spark);
    }));
  }

  // Search
  async function loadResults() {
    const params = new URLSearchParams();
    for (const key of ['q', 'weapon_type', 'rarity', 'stattrak']) if (query.get(key) && query.get(key) !== 'any') params.set(key, query.get(key));
    const page = Math.max(0, Number(query.get('page') || 0) | 0);
    params.set('limit', PAGE);
    params.set('offset', page * PAGE);
    try {
      const { data: items, response } = await request(`/api/v1/items?${params}`, { what: 'Search' });
      if (!alive) return;
      const total = Number(response.headers.get('X-Total-Count') || items.length);
      if (!items.length) {
        fill(results, emptyBox(q || params.size > 2 ? 'No item matches these filters. Try fewer words or clear a filter.' : 'The catalogue is empty.'));
        return;
      }
      const tableView = query.get('view') === 'table';
      const list = tableView ? resultsTable(items, track) : resultsGrid(items, track);
      fill(results, h('p', { class: 'muted', id: 'result-count' }, `${count(total)} items · page ${page + 1} of ${count(Math.max(1, Math.ceil(total / PAGE)))}`), list, pager(page, total));
      live.watch([...new Set([...priceCells.keys(), ...items.map((i) => i.id)])]);
      await pool(items, 6, async (item) => {
        try {
          const d = await itemDetail(item.id);
          for (const el of (priceCells.get(item.id) || [])) {
            if (el.dataset.pending) {
              if (hasVariants(d)) el.dataset.from = '1';
              showPrice(el, d.current_price);
              delete el.dataset.pending;
            }
          }
        } catch (err) {
          for (const el of (priceCells.get(item.id) || [])) if (el.dataset.pending) { el.textContent = 'error'; el.title = err.message; }
        }
      });
    } catch (err) {
      fill(results, errorBox(err, loadResults));
    }
  }

  function pager(page, total) {
    const pages = Math.ceil(total / PAGE);
    const link = (p, text, label) => {
      const qq = new URLSearchParams(query);  // includes the browsing default
      if (p) qq.set('page', p); else qq.delete('page');
      const s = qq.toString();
      return h('a', { class: 'btn small', href: s ? `/?${s}` : '/', 'data-link': '', 'aria-label': label }, text);
    };
    return h('nav', { class: 'pager', 'aria-label': 'Pages' },
      page > 0 ? link(page - 1, '← Previous', 'Previous page') : h('span', { class: 'btn small disabled', 'aria-disabled': 'true' }, '← Previous'),
      h('span', { class: 'muted' }, `${page + 1} / ${pages}`),
      page + 1 < pages ? link(page + 1, 'Next →', 'Next page') : h('span', { class: 'btn small disabled', 'aria-disabled': 'true' }, 'Next →'));
  }

  const onPrices = (event) => {
    for (const p of event.detail) {
      const cells = priceCells.get(p.item_id);
      if (!cells) continue;
      for (const el of cells) {
        const before = Number(el.dataset.cents || 0);
        const minor = fromUsd(p.price);  // live updates are USD cents
        if (before === minor) continue;
        showPrice(el, minor);
        flash(el, minor >= before);
      }
    }
  };
  live.addEventListener('prices', onPrices);
  let rankTimer = null;
  const onVol = () => { clearTimeout(rankTimer); rankTimer = setTimeout(loadRanking, 1000); };
  live.addEventListener('volatility', onVol);

  loadRanking();
  loadResults();
  return () => {
    alive = false;
    clearTimeout(rankTimer);
    live.removeEventListener('prices', onPrices);
    live.removeEventListener('volatility', onVol);
  };
}

// Movers leave out items under $1: there a one-cent tick is already a double-digit move.
function movable(entry) { return (entry.current_price || 0) >= 100; }

function kpi(label, id) {
  return h('div', { class: 'kpi' }, h('span', { class: 'kpi-label' }, label), h('span', { class: 'kpi-value', id }, '…'));
}

export function windowTabs(current, onChange, windows = WINDOWS) {
  return h('div', { class: 'tabs', role: 'group', 'aria-label': 'Window' },
    windows.map((w) => h('button', { type: 'button', class: 'tab', 'aria-pressed': w === current ? 'true' : 'false', onclick: () => onChange(w) }, w)));
}

export function rankingTable(rows, track) {
  return h('table', { class: 'table compact ranking-table' },
    h('thead', {}, h('tr', {}, h('th', { scope: 'col', class: 'hide-narrow' }, '#'), h('th', { scope: 'col' }, 'Item'), h('th', { scope: 'col', class: 'num hide-narrow' }, 'Score'),
      h('th', { scope: 'col', class: 'num' }, 'Change'), h('th', { scope: 'col', class: 'num' }, 'Price'))),
    h('tbody', {}, rows.map((r, i) => {
      const p = h('td', { class: 'num price', 'data-label': 'Price' }, money(r.current_price));
      if (track) track(r.item_id, p, r.current_price);
      return h('tr', {},
        h('td', { class: 'num muted hide-narrow', 'data-label': '#' }, String(i + 1)),
        h('td', { 'data-label': 'Item' }, h('a', { href: `/items/${r.item_id}`, 'data-link': '' }, itemName(r))),
        h('td', { class: 'num hide-narrow', 'data-label': 'Score', title: 'Coefficient of variation × 100: how far prices swing around their mean' }, number(r.volatility_score)),
        h('td', { class: 'num', 'data-label': 'Change' }, change(r.percent_change)),
        p);
    })));
}

function resultsGrid(items, track) {
  return h('ul', { class: 'cards' }, items.map((item) => {
    const p = h('span', { class: 'num price', 'data-pending': '1', 'data-from': hasVariants(item) ? '1' : null }, '…');
    track(item.id, p, null);
    return h('li', {}, h('a', { class: 'card item-card', href: `/items/${item.id}`, 'data-link': '' },
      itemImage(item), h('span', { class: 'name' }, item.market_hash_name),
      h('span', { class: 'row' }, rarityChip(item.rarity), item.stattrak ? h('span', { class: 'chip st' }, 'StatTrak™') : null),
      p));
  }));
}

function resultsTable(items, track) {
  return h('table', { class: 'table' },
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Item'), h('th', { scope: 'col' }, 'Type'), h('th', { scope: 'col' }, 'Rarity'), h('th', { scope: 'col', class: 'num' }, 'Price'))),
    h('tbody', {}, items.map((item) => {
      const p = h('td', { class: 'num price', 'data-pending': '1', 'data-label': 'Price', 'data-from': hasVariants(item) ? '1' : null }, '…');
      track(item.id, p, null);
      return h('tr', {}, h('td', { 'data-label': 'Item' }, h('a', { href: `/items/${item.id}`, 'data-link': '' }, item.market_hash_name)),
        h('td', { 'data-label': 'Type' }, item.weapon_type || '—'), h('td', { 'data-label': 'Rarity' }, rarityChip(item.rarity) || '—'), p);
    })));
}

function filtersForm(query) {
  const select = (name, label, values) => h('label', { class: 'field' }, h('span', {}, label),
    h('select', { name }, h('option', { value: name === 'weapon_type' ? 'any' : '' }, 'Any'), values.map((v) => h('option', { value: v, selected: query.get(name) === v }, v))));
  const form = h('form', { class: 'filters', 'aria-label': 'Filters' },
    h('label', { class: 'field grow' }, h('span', {}, 'Name contains'), h('input', { type: 'search', name: 'q', value: query.get('q') || '', placeholder: 'e.g. redline' })),
    select('weapon_type', 'Type', TYPES),
    select('rarity', 'Rarity', RARITIES),
    h('label', { class: 'field' }, h('span', {}, 'StatTrak™'),
      h('select', { name: 'stattrak' }, h('option', { value: '' }, 'Any'), h('option', { value: 'true', selected: query.get('stattrak') === 'true' }, 'Only StatTrak™'),
        h('option', { value: 'false', selected: query.get('stattrak') === 'false' }, 'No StatTrak™'))),
    h('label', { class: 'field' }, h('span', {}, 'View'),
      h('select', { name: 'view' }, h('option', { value: 'grid' }, 'Cards'), h('option', { value: 'table', selected: query.get('view') === 'table' }, 'Table'))),
    h('button', { class: 'btn', type: 'submit' }, 'Search'));
  const apply = () => {
    const qq = new URLSearchParams();
    for (const [k, v] of new FormData(form)) if (v && !(k === 'view' && v === 'grid')) qq.set(k, v);
    const m = new URLSearchParams(location.search).get('movers');
    if (m) qq.set('movers', m);
    const s = qq.toString();
    navigate(s ? `/?${s}` : '/');
  };
  // Rarity as chips in the game's colours (the select above stays for keyboards and
  // screen readers that prefer it; both drive the same filter).
  const raritySelect = form.querySelector('select[name=rarity]');
  const chips = h('div', { class: 'chips', role: 'group', 'aria-label': 'Rarity' },
    RARITIES.slice(0, 8).map((r) => h('button', {
      type: 'button', class: `chip rarity ${rarityClass(r)}`, 'aria-pressed': query.get('rarity') === r ? 'true' : 'false',
      onclick: () => { raritySelect.value = raritySelect.value === r ? '' : r; apply(); },
    }, r)));
  form.append(chips);
  form.addEventListener('submit', (e) => { e.preventDefault(); apply(); });
  form.querySelectorAll('select').forEach((s) => s.addEventListener('change', apply));
  return form;
}

export { percent };
