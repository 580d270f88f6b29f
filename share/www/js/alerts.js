// Alerts (docs/api.md §13): the signed-in user's rules with their last deliveries,
// enable/disable and delete; /alerts?item=ID opens the "new alert" form for that item
// with usable defaults (the item page's "Create alert" link: two clicks in all).
import {
  currentUser,
  emptyBox,
  errorBox,
  fill,
  getJson,
  h,
  itemName,
  pageStyles,
  setTitle,
  skeleton
} from './api.js';
import {live} from './live.js';
import {showAlertForm} from './views/alerts/form.js';
import {ruleRow} from './views/alerts/rules.js';

pageStyles('alerts');

export function render(view, _params, query) {
  setTitle('Alerts');
  const page = {alive: true, names: new Map(), query};
  page.notice = h('div', {class: 'notice', role: 'status', 'aria-live': 'polite'});
  page.form = h('section', {class: 'panel', 'aria-labelledby': 'new-h', hidden: true});
  page.list =
      h('section', {class: 'panel', 'aria-labelledby': 'rules-h'},
        h('h2', {id: 'rules-h'}, 'Your alerts'), skeleton(3));
  fill(view, h('h1', {}, 'Alerts'), page.notice, page.form, page.list);
  // A toast means one of the rules fired: show its new last_fired_at.
  const onAlert = () => {
    if (page.alive) loadRules(page);
  };
  live.addEventListener('alert', onAlert);
  load(page);
  return () => {
    page.alive = false;
    live.removeEventListener('alert', onAlert);
  };
}

async function nameOf(page, id) {
  // A variant item is named with its variant (a fresh chip per use: a node lives once).
  if (!page.names.has(id)) {
    page.names.set(
        id, getJson(`/api/v1/items/${id}`, 'Item').catch(() => ({market_hash_name: `Item ${id}`})));
  }
  return itemName(await page.names.get(id));
}

async function load(page) {
  let me;
  try {
    me = await currentUser();
  } catch (err) {
    fill(page.list, errorBox(err, () => load(page)));
    return;
  }
  if (!page.alive) return;
  if (!me) {
    fill(
        page.list, h('h2', {id: 'rules-h'}, 'Your alerts'),
        emptyBox('Sign in to get told when an item moves.'),
        h('p', {}, h('a', {class: 'btn', href: '/portfolio', 'data-link': ''}, 'Sign in')));
    return;
  }
  const itemId = Number(page.query.get('item'));
  if (itemId > 0) {
    nameOf(page, itemId).then((name) => {
      if (page.alive) showAlertForm(page.form, itemId, name, () => loadRules(page));
    });
  }
  loadRules(page);
}

async function loadRules(page) {
  const heading = () => h('h2', {id: 'rules-h'}, 'Your alerts');
  let rules;
  try {
    rules = await getJson('/api/v1/alerts', 'Alerts');
  } catch (err) {
    fill(page.list, heading(), errorBox(err, () => loadRules(page)));
    return;
  }
  if (!page.alive) return;
  if (!rules.length) {
    fill(page.list, heading(), emptyBox('No alerts yet. Open an item and choose “Create alert”.'));
    return;
  }
  const actions = {
    changed: () => loadRules(page),
    failed: (err) => fill(page.notice, errorBox(err))
  };
  const rows = await Promise.all(
      rules.map(async (rule) => ruleRow(rule, await nameOf(page, rule.item_id), actions)));
  if (!page.alive) return;
  fill(page.list, heading(), h('ul', {class: 'alert-list', id: 'alert-list'}, rows));
}
