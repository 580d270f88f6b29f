// Client-side routing over the paths of docs/api.md §9. The shell (app.js) hands in its
// route table; pages only navigate, so no page imports the shell that loads it (the
// circle tools/layering/js-layers.txt forbids).

let table = [];
let view = null;
let cleanup = null;
let rendering = 0;
let notFound = () => {};
let failed = () => {};

/** Starts routing: `routes` [{re, page, load}], `hooks` {notFound(view), failed(view, err)}. */
export function startRouter(target, routes, hooks = {}) {
  view = target;
  table = routes;
  notFound = hooks.notFound || notFound;
  failed = hooks.failed || failed;
  window.addEventListener('popstate', route);
}

/** The route matching `path` and its captures, or null. */
export function match(routes, path) {
  for (const r of routes) {
    const m = path.match(r.re);
    if (m) return {route: r, params: m.slice(1)};
  }
  return null;
}

export function navigate(url, {replace = false} = {}) {
  if (replace) {
    history.replaceState(null, '', url);
  } else {
    history.pushState(null, '', url);
  }
  route();
}

/** Renders the page of the current address (again, after a currency change). */
export async function route() {
  const token = ++rendering;
  if (cleanup) {
    try {
      cleanup();
    } catch { /* page gone */
    }
    cleanup = null;
  }
  const found = match(table, location.pathname);
  markCurrent(found);
  if (!found) {
    notFound(view);
    return;
  }
  let mod;
  try {
    mod = await found.route.load();
  } catch (err) {
    failed(view, err);
    return;
  }
  if (token !== rendering) return;
  cleanup = mod.render(view, found.params, new URLSearchParams(location.search)) || null;
}

function markCurrent(found) {
  const path = location.pathname;
  document.querySelectorAll('[data-nav]').forEach((a) => {
    const current = found && a.dataset.nav === found.route.page &&
        (path === '/' ? a.dataset.nav === 'market' : true);
    if (current) {
      a.setAttribute('aria-current', 'page');
    } else {
      a.removeAttribute('aria-current');
    }
  });
}
