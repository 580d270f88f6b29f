// Status: one row per market source from GET /api/v1/sources (freshness, items priced,
// outliers, fee, last success; docs/api.md §12), and from the public GET /readyz the
// daemon's readiness, the database's and shared store's ok and the ingest role. Poll
// errors, failures and plugin details are on the admin listener only (docs/operations.md).
import {emptyBox, errorBox, fill, getJson, h, request, setTitle, skeleton} from './api.js';
import {sourcesTable} from './views/status/sources.js';
import {summaryKpis} from './views/status/summary.js';

export function render(view) {
  setTitle('Status');
  const body = h('div', {}, skeleton(5));
  const summary = h('div', {class: 'kpis'});
  let alive = true;
  fill(
      view, h('h1', {}, 'Status'), summary,
      h('section', {class: 'panel', 'aria-labelledby': 'src-h'},
        h('h2', {id: 'src-h'}, 'Market sources'), body));
  async function load() {
    try {
      const data = await readyz();
      const sources = await getJson('/api/v1/sources', 'Sources');
      if (!alive) return;
      fill(summary, ...summaryKpis(data));
      fill(
          body,
          sources.length ?
              sourcesTable(sources) :
              emptyBox(
                  'No market source is configured and no price is stored yet. Add a [source.NAME] section to the configuration.'));
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

/** GET /readyz: its body also when it answers 503 (not ready says why). */
async function readyz() {
  try {
    return (await request('/readyz', {what: 'Status'})).data;
  } catch (err) {
    if (err.status !== 503) throw err;
    const data = await err.response.clone().json().catch(() => null);
    if (!data) throw err;
    return data;
  }
}
