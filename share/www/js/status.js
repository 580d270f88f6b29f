// Status: one row per market source from GET /api/v1/sources (freshness, items priced,
// outliers, fee, last success; docs/api.md §12), and from the public GET /readyz the
// daemon's readiness, the database's and shared store's ok and the ingest role. Poll
// errors, failures and plugin details are on the admin listener only (docs/operations.md).
import {
  ago,
  count,
  emptyBox,
  errorBox,
  exactTime,
  fill,
  getJson,
  h,
  number,
  request,
  setTitle,
  skeleton
} from './api.js';

export function render(view) {
  setTitle('Status');
  const body = h('div', {}, skeleton(5));
  const summary = h('div', {class: 'kpis'});
  let alive = true;
  fill(
      view, h('h1', {}, 'Status'), summary,
      h('section', {class: 'panel', 'aria-labelledby': 'src-h'},
        h('h2', {id: 'src-h'}, 'Market sources'), body));
  const t = (iso) => (iso ? h('time', {datetime: iso, title: exactTime(iso)}, ago(iso)) : 'never');
  async function load() {
    try {
      let data;
      try {
        ({data} = await request('/readyz', {what: 'Status'}));
      } catch (err) {
        if (err.status !== 503) throw err;
        data = await err.response.clone().json().catch(() => null);
        if (!data) throw err;
      }
      const markets = await getJson('/api/v1/sources', 'Sources');
      if (!alive) return;
      const sources = markets;
      fill(
          summary,
          kv('Daemon', data.status === 'ready' ? 'ready' : 'unavailable', data.status !== 'ready'),
          kv('Database', data.database.ok ? 'ok' : 'down', !data.database.ok),
          kv('Shared store', data.shared_store.ok ? 'ok' : 'down', !data.shared_store.ok),
          kv('Ingest role', data.ingest === 'polling' ? 'polling' : 'standby', false,
             data.ingest === 'polling' ? 'This instance polls the sources' :
                                         'Another instance holds the ingest lease and polls'));
      if (!sources.length) {
        fill(
            body,
            emptyBox(
                'No market source is configured and no price is stored yet. Add a [source.NAME] section to the configuration.'));
        return;
      }
      const NUM = new Set(['Items priced', 'Outliers', 'Fee']);
      fill(
          body,
          h('table', {class: 'table'},
            h('thead', {},
              h('tr', {},
                [
                  'Source', 'Plugin', 'Kind', 'Every', 'Freshness', 'Items priced', 'Outliers',
                  'Fee', 'Last success'
                ].map((x) => h('th', {scope: 'col', class: NUM.has(x) ? 'num' : undefined}, x)))),
            h('tbody', {}, sources.map((s) => {
              // A failing poll shows at once, even while earlier prices are still fresh (§19).
              const state = s.failing ? ['stale', `✕ failing ×${count(s.consecutive_failures)}`] :
                  s.fresh             ? ['ok', '● fresh'] :
                  !s.enabled && !s.plugin? ['', 'stored only'] :
                  !s.enabled          ? ['', 'disabled'] :
                                        ['stale', '▲ stale'];
              return h(
                  'tr', {}, h('td', {'data-label': 'Source'}, h('strong', {}, s.name)),
                  h('td', {'data-label': 'Plugin'},
                    s.plugin ||
                        h('span', {
                          class: 'muted',
                          title:
                              'Prices in the store (a backfill, or a section since removed); nothing polls it'
                        },
                          'backfilled')),
                  h('td', {'data-label': 'Kind'}, s.kind || '—'),
                  h('td', {'data-label': 'Every'},
                    s.interval_seconds ? `${count(s.interval_seconds)} s` : '—'),
                  h('td', {
                    'data-label': 'Freshness',
                    title: s.interval_seconds ? `Fresh while its newest price is younger than ${
                                                    count(3 * s.interval_seconds)} s` :
                                                'Fresh for 24 h: not polled'
                  },
                    h('span', {class: `chip ${state[0]}`}, state[1])),
                  h('td', {
                    class: 'num',
                    'data-label': 'Items priced',
                    title: 'Items whose latest price from this market is fresh'
                  },
                    count(s.items_priced)),
                  h('td', {
                    class: `num ${s.outliers ? 'warn' : ''}`,
                    'data-label': 'Outliers',
                    title: 'Items whose latest price from this market is flagged as an outlier'
                  },
                    count(s.outliers)),
                  h('td', {class: 'num', 'data-label': 'Fee'},
                    s.fee_percent ? `${number(s.fee_percent)} %` : '—'),
                  h('td', {'data-label': 'Last success'}, t(s.last_success)));
            }))));
    } catch (err) {
      fill(body, errorBox(err, load));
    }
  }
  load();
  const timer = setInterval(load, 15000);
  return () => {
    alive = false;
    clearInterval(timer);
  };
}

function kv(label, value, bad, title) {
  return h(
      'div', {class: 'kpi', title}, h('span', {class: 'kpi-label'}, label),
      h('span', {class: `kpi-value ${bad ? 'warn' : ''}`}, value));
}
