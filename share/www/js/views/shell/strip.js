// The status strip under the header: sources fresh, the last cycle, the live link. Its
// readiness is kept in session.js for the pages (the Market page's KPI).
import {ago, exactTime, fill, getJson, h, request} from '../../api.js';
import {isFresh, setReadiness} from '../../session.js';

const LIVE_TEXT = {
  live: 'Live',
  connecting: 'Live: connecting',
  reconnecting: 'Live: reconnecting',
  offline: 'Offline'
};

/** Starts the strip: refreshed every 30 s and shortly after each live price update. */
export function startStrip(live) {
  const stripLive = document.getElementById('strip-live');
  live.addEventListener('state', (event) => {
    stripLive.textContent = LIVE_TEXT[event.detail] || event.detail;
    stripLive.className = `live live-${event.detail === 'live' ? 'on' : 'off'}`;
  });
  live.addEventListener('prices', () => {
    setTimeout(refreshStrip, 500);
  });
  refreshStrip();
  setInterval(refreshStrip, 30000);
}

async function refreshStrip() {
  const stripSources = document.getElementById('strip-sources');
  try {
    const {data} = await request('/readyz', {what: 'Status'}).catch((err) => {
      if (err.response && err.status === 503) return {data: null};
      throw err;
    });
    if (!data) {
      setReadiness(null);
      stripSources.textContent = 'Sources: database unavailable';
      return;
    }
    // The public /readyz has no per-source detail (docs/api.md): the sources this
    // instance polls come from /api/v1/sources (enabled, with a plugin).
    const markets = await getJson('/api/v1/sources', 'Sources');
    const sources = markets.filter((s) => s.enabled && s.plugin);
    showSources(stripSources, sources);
    setReadiness({...data, sources});
  } catch (err) {
    stripSources.textContent = `Sources: ${err.message}`;
    stripSources.className = 'warn';
  }
}

function showSources(stripSources, sources) {
  const fresh = sources.filter((s) => isFresh(s)).length;
  stripSources.textContent = `Sources fresh: ${fresh} / ${sources.length}`;
  stripSources.className = fresh === sources.length ? '' : 'warn';
  const last = sources.map((s) => s.last_success).filter(Boolean).sort().pop();
  fill(
      document.getElementById('strip-cycle'), 'Last cycle: ',
      last ? h('time', {datetime: last, title: exactTime(last)}, ago(last)) : 'none yet');
}
