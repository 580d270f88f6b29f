// The Status page's table: one row per market source from GET /api/v1/sources.
import {ago, count, exactTime, h, number} from '../../api.js';

const COLUMNS = [
  'Source', 'Plugin', 'Kind', 'Every', 'Freshness', 'Items priced', 'Outliers', 'Fee',
  'Last success'
];
const NUM = new Set(['Items priced', 'Outliers', 'Fee']);

export function sourcesTable(sources) {
  return h(
      'table', {class: 'table'},
      h('thead', {},
        h('tr', {},
          COLUMNS.map((x) => h('th', {scope: 'col', class: NUM.has(x) ? 'num' : undefined}, x)))),
      h('tbody', {}, sources.map(sourceRow)));
}

/**
 * [chip class, text]: a failing poll shows at once, even while earlier prices are still fresh
 * (§19).
 */
export function sourceState(s) {
  if (s.failing) return ['stale', `✕ failing ×${count(s.consecutive_failures)}`];
  if (s.fresh) return ['ok', '● fresh'];
  if (!s.enabled && !s.plugin) return ['', 'stored only'];
  if (!s.enabled) return ['', 'disabled'];
  return ['stale', '▲ stale'];
}

const when = (iso) => (iso ? h('time', {datetime: iso, title: exactTime(iso)}, ago(iso)) : 'never');

function sourceRow(s) {
  const state = sourceState(s);
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
      h('td', {'data-label': 'Every'}, s.interval_seconds ? `${count(s.interval_seconds)} s` : '—'),
      h('td', {
        'data-label': 'Freshness',
        title: s.interval_seconds ?
            `Fresh while its newest price is younger than ${count(3 * s.interval_seconds)} s` :
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
      h('td', {'data-label': 'Last success'}, when(s.last_success)));
}
