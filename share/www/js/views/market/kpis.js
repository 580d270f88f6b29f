// The Market page's KPI row: catalogue size, sources fresh, top gainer and loser (24h).
import {change, count, fill, h, itemName, request} from '../../api.js';
import {isFresh, readiness} from '../../session.js';

import {movable} from './movers.js';

function kpi(label, id) {
  return h(
      'div', {class: 'kpi'}, h('span', {class: 'kpi-label'}, label),
      h('span', {class: 'kpi-value', id}, '…'));
}

export function kpiSection() {
  return h(
      'section', {class: 'kpis', 'aria-label': 'Market summary'},
      kpi('Catalogue items', 'kpi-items'), kpi('Sources fresh', 'kpi-fresh'),
      kpi('Top gainer (24h)', 'kpi-gain'), kpi('Top loser (24h)', 'kpi-loss'));
}

/** Fills the catalogue count and the sources KPI; returns the cleanup. */
export function loadKpis() {
  // HEAD: only the X-Total-Count header is wanted, not an item (docs/api.md §2).
  request('/api/v1/items?limit=1', {method: 'HEAD', what: 'Catalogue'})
      .then(({response}) => {
        document.getElementById('kpi-items').textContent =
            count(Number(response.headers.get('X-Total-Count')));
      })
      .catch((err) => {
        document.getElementById('kpi-items').textContent = err.message;
      });
  const showFresh = (data) => {
    const sources = (data && data.sources) || [];
    document.getElementById('kpi-fresh').textContent = sources.length ?
        `${sources.filter((s) => isFresh(s)).length} / ${sources.length}` :
        'no sources';
  };
  if (readiness()) showFresh(readiness());
  const onReadiness = (e) => showFresh(e.detail);
  document.addEventListener('readiness', onReadiness);
  return () => document.removeEventListener('readiness', onReadiness);
}

/** The top gainer and loser of a 24h ranking. */
export function showKpiMovers(ranked) {
  const sorted = ranked.filter(movable).sort((a, b) => b.percent_change - a.percent_change);
  const gain = sorted[0];
  const loss = sorted[sorted.length - 1];
  const put = (id, entry) => {
    const el = document.getElementById(id);
    if (!el) return;
    el.classList.add('multi');
    fill(
        el,
        entry ?
            [
              h('a', {
                href: `/items/${entry.item_id}`,
                'data-link': '',
                class: 'kpi-link',
                title: entry.market_hash_name
              },
                itemName(entry)),
              change(entry.percent_change)
            ] :
            '—');
  };
  put('kpi-gain', gain && gain.percent_change > 0 ? gain : null);
  put('kpi-loss', loss && loss.percent_change < 0 ? loss : null);
}
