// Rankings: the volatility ranking (docs/api.md §3.2) per window, top 100, live.
import {emptyBox, errorBox, fill, getJson, h, setTitle, skeleton} from './api.js';
import {live} from './live.js';
import {navigate} from './router.js';
import {rankingTable} from './views/common/ranking.js';
import {WINDOWS, windowTabs} from './views/common/tabs.js';

export function render(view, _params, query) {
  setTitle('Rankings');
  const win = WINDOWS.includes(query.get('window')) ? query.get('window') : '24h';
  const body = h('div', {}, skeleton(10));
  let alive = true;
  fill(
      view,
      h('section', {class: 'panel', 'aria-labelledby': 'rank-h'},
        h('div', {class: 'panel-head'}, h('h1', {id: 'rank-h'}, 'Most volatile items'),
          windowTabs(win, (w) => navigate(`/rankings?window=${w}`, {replace: true}))),
        h('p', {class: 'hint'},
          'Score = coefficient of variation × 100 over the window, from one market per item (the reference market). Updated after every polling cycle.'),
        body));
  async function load() {
    try {
      const rows = await getJson(`/api/v1/rankings/volatile?limit=100&window=${win}`, 'Rankings');
      if (!alive) return;
      fill(
          body,
          rows.length ? rankingTable(rows) :
                        emptyBox('No item has two prices from one market in this window yet.'));
    } catch (err) {
      fill(body, errorBox(err, load));
    }
  }
  let timer = null;
  const onVol = () => {
    clearTimeout(timer);
    timer = setTimeout(load, 1000);
  };
  live.addEventListener('volatility', onVol);
  live.watch('*');
  load();
  return () => {
    alive = false;
    clearTimeout(timer);
    live.removeEventListener('volatility', onVol);
  };
}
