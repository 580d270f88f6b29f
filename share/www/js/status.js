// Status: one row per market source (last success, failures, points, freshness), the
// ingest role, database and shared store, from GET /readyz.
import { ago, count, emptyBox, errorBox, exactTime, fill, h, request, setTitle, skeleton } from './api.js';
import { isFresh } from './app.js';

export function render(view) {
  setTitle('Status');
  const body = h('div', {}, skeleton(5));
  const summary = h('div', { class: 'kpis' });
  let alive = true;
  fill(view, h('h1', {}, 'Status'), summary, h('section', { class: 'panel', 'aria-labelledby': 'src-h' }, h('h2', { id: 'src-h' }, 'Market sources'), body));
  const t = (iso) => (iso ? h('time', { datetime: iso, title: exactTime(iso) }, ago(iso)) : 'never');
  async function load() {
    try {
      let data;
      try { ({ data } = await request('/readyz', { what: 'Status' })); } catch (err) {
        if (err.status !== 503) throw err;
        data = await err.response.clone().json().catch(() => null);
        if (!data) throw err;
      }
      if (!alive) return;
      const sources = data.sources || [];
      fill(summary,
        kv('Daemon', data.status === 'ready' ? 'ready' : 'unavailable', data.status !== 'ready'),
        kv('Database', `${data.database.backend}${data.database.ok ? '' : ' (down)'}`, !data.database.ok),
        kv('Shared store', `${data.shared_store.backend}${data.shared_store.ok ? '' : ' (down)'}`, !data.shared_store.ok),
        kv('Ingest role', data.ingest === 'polling' ? 'polling' : 'standby', false, data.ingest === 'polling' ? 'This instance polls the sources' : 'Another instance holds the ingest lease and polls'),
        kv('Catalogue', count(data.catalog_items)));
      if (!sources.length) { fill(body, emptyBox('No market source is enabled. Add a [source.NAME] section to the configuration.')); return; }
      fill(body, h('table', { class: 'table' },
        h('thead', {}, h('tr', {}, ['Source', 'Plugin', 'Every', 'Freshness', 'Last success', 'Last poll', 'Failures', 'Accepted', 'Rejected', 'Last error'].map((x, i) => h('th', { scope: 'col', class: i >= 6 && i <= 8 ? 'num' : undefined }, x)))),
        h('tbody', {}, sources.map((s) => {
          const fresh = isFresh(s);
          const rejected = Object.values(s.points_rejected || {}).reduce((a, b) => a + b, 0);
          return h('tr', {},
            h('td', { 'data-label': 'Source' }, h('strong', {}, s.name)),
            h('td', { 'data-label': 'Plugin' }, s.plugin),
            h('td', { 'data-label': 'Every' }, `${count(s.interval_seconds)} s`),
            h('td', { 'data-label': 'Freshness' }, h('span', { class: `chip ${fresh ? 'ok' : 'stale'}` }, fresh ? '● fresh' : '▲ stale')),
            h('td', { 'data-label': 'Last success' }, t(s.last_success)),
            h('td', { 'data-label': 'Last poll' }, t(s.last_poll)),
            h('td', { class: 'num', 'data-label': 'Failures' }, count(s.consecutive_failures)),
            h('td', { class: 'num', 'data-label': 'Accepted' }, count(s.points_accepted)),
            h('td', { class: 'num', 'data-label': 'Rejected', title: Object.entries(s.points_rejected || {}).map(([k, v]) => `${k}: ${v}`).join(', ') }, count(rejected)),
            h('td', { 'data-label': 'Last error', class: s.last_error ? 'error-text' : 'muted' }, s.last_error || 'none'));
        }))));
    } catch (err) { fill(body, errorBox(err, load)); }
  }
  load();
  const timer = setInterval(load, 15000);
  return () => { alive = false; clearInterval(timer); };
}

function kv(label, value, bad, title) {
  return h('div', { class: 'kpi', title }, h('span', { class: 'kpi-label' }, label), h('span', { class: `kpi-value ${bad ? 'warn' : ''}` }, value));
}
