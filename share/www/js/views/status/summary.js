// The Status page's KPIs from the public GET /readyz: the daemon's readiness, the
// database's and shared store's ok and the ingest role.
import {h} from '../../api.js';

function kv(label, value, bad, title) {
  return h(
      'div', {class: 'kpi', title}, h('span', {class: 'kpi-label'}, label),
      h('span', {class: `kpi-value ${bad ? 'warn' : ''}`}, value));
}

export function summaryKpis(data) {
  const polling = data.ingest === 'polling';
  return [
    kv('Daemon', data.status === 'ready' ? 'ready' : 'unavailable', data.status !== 'ready'),
    kv('Database', data.database.ok ? 'ok' : 'down', !data.database.ok),
    kv('Shared store', data.shared_store.ok ? 'ok' : 'down', !data.shared_store.ok),
    kv('Ingest role', polling ? 'polling' : 'standby', false,
       polling ? 'This instance polls the sources' :
                 'Another instance holds the ingest lease and polls'),
  ];
}
