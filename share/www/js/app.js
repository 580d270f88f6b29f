// The shell: the route table over the paths of docs/api.md §9, and the header and strip
// around the page (views/shell/). Pages are modules loaded on first visit; they import
// router.js and session.js, never this file (tools/layering/js-layers.txt).

import {fill, h} from './api.js';
import {live} from './live.js';
import {navigate, startRouter} from './router.js';
import {startCurrencySelector} from './views/shell/currency.js';
import {startSearch} from './views/shell/search.js';
import {startStrip} from './views/shell/strip.js';
import {startToasts} from './views/shell/toasts.js';
import {startUserSlot} from './views/shell/user.js';

const ROUTES = [
  {re: /^\/$/, page: 'market', load: () => import('./market.js')},
  {re: /^\/items\/(\d+)$/, page: 'market', load: () => import('./item.js')},
  {re: /^\/rankings$/, page: 'rankings', load: () => import('./rankings.js')},
  {re: /^\/portfolio$/, page: 'portfolio', load: () => import('./portfolio.js')},
  {re: /^\/spreads$/, page: 'spreads', load: () => import('./spreads.js')},
  {re: /^\/status$/, page: 'status', load: () => import('./status.js')},
  {re: /^\/alerts$/, page: 'alerts', load: () => import('./alerts.js')},
];

const view = document.getElementById('view');

startRouter(view, ROUTES, {
  notFound: (el) => fill(
      el,
      h('section', {class: 'panel'}, h('h1', {}, 'Not here yet'),
        h('p', {}, 'This page is planned but not built yet. '),
        h('a', {href: '/', 'data-link': ''}, 'Back to the market'))),
  failed: (el, err) => fill(
      el,
      h('div', {class: 'panel-state error', role: 'alert'},
        `Could not load the page: ${err.message}`)),
});

// Links marked data-link stay in the app (middle-click and modifiers keep their meaning).
document.addEventListener('click', (event) => {
  const a = event.target.closest('a[data-link]');
  if (!a || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey ||
      event.shiftKey || event.altKey) {
    return;
  }
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin) return;
  event.preventDefault();
  navigate(url.pathname + url.search);
  view.focus({preventScroll: true});
  window.scrollTo(0, 0);
});

startToasts(live);
startSearch();

// After a sign-in the provider sends the browser to FRONTEND_URL ("/"); go back to the
// page that started it.
const back = sessionStorage.getItem('skinpulse.return');
if (back && location.pathname === '/') {
  sessionStorage.removeItem('skinpulse.return');
  history.replaceState(null, '', back + location.search);
}

live.connect();
startStrip(live);
startUserSlot();
// The first page renders once the currency is settled (its requests carry `currency=`).
startCurrencySelector();
