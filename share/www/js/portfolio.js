// Portfolio: sign-in with the enabled providers, game-account linking, inventory import
// with the cooldown as a live countdown (Retry-After), holdings sortable with value and
// share of the total, what was paid per holding (edited inline) with the P&L it gives,
// the 24h change, the value history as a chart (7d/30d/1y) and the CSV export.
import {
  ago,
  change,
  count,
  currentUser,
  emptyBox,
  enabledProviders,
  errorBox,
  exactTime,
  fill,
  getJson,
  h,
  hasVariants,
  itemImage,
  itemName,
  markSignedIn,
  pageStyles,
  percent,
  post,
  send,
  setTitle,
  skeleton,
  variantStyles
} from './api.js';
import {drawValueChart, loadUPlot} from './chart.js';
import {itemDetail} from './items.js';
import {currency, minorPerMajor, money, toUsd, withCurrency} from './money.js';
import {userChanged} from './session.js';
import {windowTabs} from './views/common/tabs.js';

pageStyles('portfolio');

const AUTH_ERRORS = {
  state_mismatch: 'The sign-in took too long or was started in another tab. Please try again.',
  provider_error: 'The sign-in provider refused or failed. Please try again.',
  email_unverified: 'Your account at that provider has no verified e-mail address.',
  invalid_claimed_id: 'That game account cannot be used (not an individual account).',
  verification_failed: 'The game platform could not confirm the sign-in. Please try again.',
  already_linked: 'That game account is already linked to another skinpulse account.',
};
const PROVIDER_NAMES = {
  'idp-a': 'Sign in with idp-a',
  'idp-b': 'Sign in with idp-b',
  gameid: 'Sign in with your game account'
};
const COOLDOWN_KEY = 'skinpulse.importUntil';
const HISTORY_WINDOWS = ['7d', '30d', '1y'];
const WINDOW_SECONDS = {
  '7d': 7 * 86400,
  '30d': 30 * 86400,
  '1y': 365 * 86400
};
const HISTORY_KEY = 'skinpulse.portfolioWindow';

/**
 * An amount typed by a person in the chosen currency ("12.5", "1,234.56", "$3", "€3")
 *  → its minor units (cents, yen, fils); NaN when not an amount of that currency.
 */
export function minorOf(text, exponent = currency().exponent) {
  const clean = String(text).trim().replace(/^[^\d.-]{1,3}/, '').replace(/,/g, '');
  const decimals = exponent > 0 ? `(\\.\\d{1,${exponent}})?` : '';
  if (!new RegExp(`^\\d{1,10}${decimals}$`).test(clean)) return NaN;
  return Math.round(Number(clean) * 10 ** exponent);
}

/**
 * Signed money (minor units of the chosen currency) with colour and sign (never colour alone):
 * "+$12.00" / "−$3.50".
 */
function pl(cents) {
  if (cents === null || cents === undefined) return h('span', {class: 'muted'}, '—');
  const dir = cents > 0 ? 'up' : cents < 0 ? 'down' : 'flat';
  const sign = cents > 0 ? '+' : cents < 0 ? '−' : '';
  return h('span', {class: `chg ${dir}`}, sign + money(Math.abs(cents)));
}

export function render(view, _params, query) {
  setTitle('Portfolio');
  let alive = true;
  let countdownTimer = null;
  const notice = h('div', {class: 'notice', role: 'status', 'aria-live': 'polite'});
  const account =
      h('section', {class: 'panel', 'aria-labelledby': 'acct-h'},
        h('h2', {id: 'acct-h'}, 'Account'), skeleton(2));
  const holdings =
      h('section', {class: 'panel', 'aria-labelledby': 'hold-h'},
        h('h2', {id: 'hold-h'}, 'Holdings'), skeleton(4));
  const summary = h('div', {class: 'kpis'});
  const valuePanel = h('section', {class: 'panel', 'aria-labelledby': 'value-h', hidden: true});
  fill(view, h('h1', {}, 'Portfolio'), notice, summary, account, valuePanel, holdings);
  let plot = null;
  let historyWindow = HISTORY_WINDOWS.includes(localStorage.getItem(HISTORY_KEY)) ?
      localStorage.getItem(HISTORY_KEY) :
      '30d';

  const authError = query.get('auth_error');
  if (authError) {
    fill(
        notice,
        h('p', {class: 'panel-state error', role: 'alert'},
          AUTH_ERRORS[authError] || `Sign-in failed (${authError}).`));
    history.replaceState(null, '', '/portfolio');
  }

  async function load() {
    const providers = enabledProviders();
    let me = null;
    try {
      me = await currentUser();
    } catch (err) {
      fill(account, h('h2', {id: 'acct-h'}, 'Account'), errorBox(err, load));
      fill(holdings, '');
      return;
    }
    if (!alive) return;
    if (!me) {
      signedOut(providers);
      return;
    }
    signedIn(me, providers);
    loadHoldings();
  }

  function remember() {
    sessionStorage.setItem('skinpulse.return', '/portfolio');
    markSignedIn(true);
  }

  function signedOut(providers) {
    fill(summary);
    valuePanel.hidden = true;
    fill(
        account, h('h2', {id: 'acct-h'}, 'Sign in'),
        h('p', {}, 'Sign in to value your inventory at live market prices.'),
        providers.length ?
            h('div', {class: 'buttons'},
              providers.map(
                  (p) => h(
                      'a',
                      {class: 'btn', href: p.login_path, id: `signin-${p.name}`, onclick: remember},
                      PROVIDER_NAMES[p.name] || `Sign in with ${p.name}`))) :
            emptyBox(
                'No sign-in provider is enabled on this server. An administrator enables them in the [identity] configuration.'));
    fill(holdings, h('h2', {id: 'hold-h'}, 'Holdings'), emptyBox('Sign in to see your holdings.'));
  }

  function signedIn(me, providers) {
    const gameid = providers.find((p) => p.name === 'gameid');
    const linked = !!me.gameid;
    const importBtn =
        h('button', {type: 'button', class: 'btn primary', id: 'import-btn', disabled: !linked},
          'Import inventory');
    const countdown = h('span', {id: 'import-countdown', class: 'muted', 'aria-live': 'polite'});
    importBtn.addEventListener('click', () => doImport(importBtn, countdown));
    fill(
        account, h('h2', {id: 'acct-h'}, 'Account'),
        h('p', {}, 'Signed in as ', h('strong', {id: 'account-name'}, me.name || me.email || 'you'),
          me.email && me.name ? ` (${me.email})` : ''),
        linked ?
            h('p', {}, 'Game account linked: ', h('code', {}, me.gameid.platform_id),
              me.gameid.linked_at ?
                  [
                    ' · ',
                    h('time',
                      {datetime: me.gameid.linked_at, title: exactTime(me.gameid.linked_at)},
                      ago(me.gameid.linked_at))
                  ] :
                  '') :
            gameid && gameid.link_path ?
            h('p', {},
              h('a', {class: 'btn', href: gameid.link_path, id: 'link-gameid', onclick: remember},
                'Link your game account'),
              ' to import your inventory.') :
            h('p', {class: 'muted'},
              'Game-account linking is not enabled on this server, so inventories cannot be imported.'),
        h('div', {class: 'buttons'}, importBtn, countdown,
          h('button', {type: 'button', class: 'btn small', onclick: logout}, 'Sign out')));
    const until = Number(sessionStorage.getItem(COOLDOWN_KEY) || 0);
    if (until > Date.now()) startCountdown(importBtn, countdown, until);
  }

  async function logout() {
    try {
      await post('/api/v1/auth/logout', 'Signing out');
    } catch (err) {
      fill(notice, errorBox(err));
      return;
    }
    sessionStorage.removeItem(COOLDOWN_KEY);
    markSignedIn(false);
    userChanged();
    load();
  }

  async function doImport(btn, countdown) {
    btn.disabled = true;
    btn.textContent = 'Importing…';
    try {
      const {data} = await post('/api/v1/portfolio/import', 'Import');
      fill(
          notice,
          h('p', {class: 'panel-state ok'},
            `${data.message}.${
                data.unmatched_assets ?
                    ` ${
                        count(
                            data.unmatched_assets)} assets are not in the catalogue and were skipped.` :
                    ''}`));
      btn.textContent = 'Import inventory';
      btn.disabled = false;
      loadHoldings();
    } catch (err) {
      btn.textContent = 'Import inventory';
      btn.disabled = false;
      if (err.code === 'import_cooldown' || (err.status === 429 && err.response)) {
        const seconds = Number(err.response.headers.get('Retry-After') || 60);
        const until = Date.now() + seconds * 1000;
        sessionStorage.setItem(COOLDOWN_KEY, String(until));
        startCountdown(btn, countdown, until);
        fill(notice, h('p', {class: 'panel-state warn'}, err.message));
      } else {
        fill(notice, h('p', {class: 'panel-state error', role: 'alert'}, err.message));
      }
    }
  }

  function startCountdown(btn, el, until) {
    clearInterval(countdownTimer);
    const tick = () => {
      const left = Math.ceil((until - Date.now()) / 1000);
      if (left <= 0) {
        clearInterval(countdownTimer);
        el.textContent = 'You can import again.';
        btn.disabled = false;
        sessionStorage.removeItem(COOLDOWN_KEY);
        return;
      }
      btn.disabled = true;
      const m = Math.floor(left / 60), s = String(left % 60).padStart(2, '0');
      el.textContent = `Next import in ${m}:${s}`;
    };
    tick();
    countdownTimer = setInterval(tick, 1000);
  }

  let sortKey = 'total_value';
  let sortDir = -1;
  let data = null;
  async function loadHoldings() {
    try {
      data = await getJson('/api/v1/portfolio', 'Portfolio');
      if (!alive) return;
      renderHoldings();
      loadHistory();
    } catch (err) {
      fill(holdings, h('h2', {id: 'hold-h'}, 'Holdings'), errorBox(err, loadHoldings));
    }
  }

  function renderHoldings() {
    const total = data.total_value || 0;
    const costed = data.holdings.filter((x) => x.cost_basis !== null).length;
    fill(
        summary, kv('Total value', money(total), 'total-value'),
        kv('Paid', costed ? money(data.cost_total) : '—', 'cost-total',
           costed && costed < data.holdings.length ?
               `for ${count(costed)} of ${count(data.holdings.length)} holdings` :
               ''),
        kv('Unrealised P&L', pl(data.unrealised_pl), 'total-pl',
           costed ? '' : 'Enter what you paid to see it'),
        kv('24h', change(data.change_24h_percent), 'total-change'),
        kv('Items', count(data.item_count)),
        kv('Last import', data.last_imported_at ? ago(data.last_imported_at) : 'never'));
    if (!data.holdings.length) {
      fill(
          holdings, h('h2', {id: 'hold-h'}, 'Holdings'),
          emptyBox(
              data.last_imported_at ?
                  'Your last import found no item of the catalogue.' :
                  'Nothing imported yet: link your game account, then press “Import inventory”.'));
      return;
    }
    const value = (x, key) => (x[key] === null || x[key] === undefined ? -Infinity : x[key]);
    const rows = [...data.holdings]
                     .map((x) => ({...x, share: total ? x.total_value / total : 0}))
                     .sort(
                         (a, b) => (value(a, sortKey) < value(b, sortKey)     ? -1 :
                                        value(a, sortKey) > value(b, sortKey) ? 1 :
                                                                                0) *
                             sortDir);
    const th = (key, label, cls) =>
        h('th', {
          scope: 'col',
          class: cls,
          'aria-sort': sortKey === key ? (sortDir > 0 ? 'ascending' : 'descending') : 'none'
        },
          h('button', {
            type: 'button',
            class: 'sort',
            onclick: () => {
              sortDir = sortKey === key ? -sortDir : (key === 'market_hash_name' ? 1 : -1);
              sortKey = key;
              renderHoldings();
            }
          },
            label));
    fill(
        holdings,
        h('div', {class: 'panel-head'}, h('h2', {id: 'hold-h'}, 'Holdings'),
          h('a', {
            class: 'btn small',
            id: 'export-csv',
            href: withCurrency('/api/v1/portfolio.csv'),
            download: 'portfolio.csv'
          },
            'Export CSV')),
        h('p', {class: 'hint'},
          'Press “Paid” to enter what you paid per unit; P&L is (price − paid) × quantity.'),
        h('table', {class: 'table', id: 'holdings'},
          h('thead', {},
            h('tr', {}, h('th', {scope: 'col'}, h('span', {class: 'sr-only'}, 'Image')),
              th('market_hash_name', 'Item'), th('quantity', 'Qty', 'num'),
              th('current_price', 'Price', 'num'), th('total_value', 'Value', 'num'),
              th('cost_basis', 'Paid', 'num'), th('unrealised_pl', 'P&L', 'num'),
              th('change_24h_percent', '24h', 'num'), th('share', 'Share', 'num'))),
          h('tbody', {}, rows.map((x, i) => {
            const img = h('td', {class: 'img-cell'});
            const note = h('span', {class: 'muted small variant-unknown'});
            if (i < 60) {
              itemDetail(x.item_id)
                  .then((d) => {
                    fill(img, itemImage(d, 'sm'));
                    // The import could not tell this asset's variant: it is valued as the base.
                    if (hasVariants(d) && !x.variant) {
                      variantStyles();
                      note.textContent = 'Variant unknown: valued as the cheapest variant';
                    }
                  })
                  .catch(() => {});
            }
            return h(
                'tr', {'data-item': String(x.item_id)}, img,
                // A holding whose variant the import told (docs/api.md §18) names it.
                h('td', {'data-label': 'Item', class: 'holding-name'},
                  h('span', {}, h('a', {href: `/items/${x.item_id}`, 'data-link': ''}, itemName(x)),
                    note)),
                h('td', {class: 'num', 'data-label': 'Qty'}, count(x.quantity)),
                h('td', {class: 'num', 'data-label': 'Price'},
                  x.current_price ?
                      money(x.current_price) :
                      h('span', {class: 'muted', title: 'No market has priced this item yet'},
                        'no price')),
                h('td', {class: 'num', 'data-label': 'Value'}, money(x.total_value)), paidCell(x),
                h('td', {class: 'num pl', 'data-label': 'P&L'}, pl(x.unrealised_pl)),
                h('td', {class: 'num', 'data-label': '24h'}, change(x.change_24h_percent)),
                h('td', {class: 'num', 'data-label': 'Share'},
                  percent(x.share * 100).replace('+', '')));
          })),
          h('tfoot', {},
            h('tr', {}, h('td', {}), h('th', {scope: 'row'}, 'Total'), h('td', {}), h('td', {}),
              h('td', {class: 'num'}, money(total)),
              h('td', {class: 'num'}, costed ? money(data.cost_total) : ''),
              h('td', {class: 'num'}, pl(data.unrealised_pl)),
              h('td', {class: 'num'}, change(data.change_24h_percent)),
              h('td', {class: 'num'}, '100 %')))));
  }

  // The "Paid" cell: the cost basis per unit as a button; pressed, a small form (amount,
  // optional date) that PATCHes the holding and re-renders.
  function paidCell(x) {
    const cell = h('td', {class: 'num paid', 'data-label': 'Paid'});
    const show = () => fill(
        cell,
        h('button', {
          type: 'button',
          class: 'link-btn edit-paid',
          'aria-label':
              `What you paid for ${x.market_hash_name}${x.variant ? ` (${x.variant})` : ''}`,
          onclick: edit
        },
          x.cost_basis === null ? 'Set' : money(x.cost_basis)));
    const edit = () => {
      const amount = h('input', {
        type: 'text',
        inputmode: 'decimal',
        class: 'paid-input',
        name: 'cost_basis',
        autocomplete: 'off',
        'aria-label': `Paid per unit, in ${currency().code}`,
        placeholder: (0).toFixed(currency().exponent),
        value: x.cost_basis === null ? '' :
                                       (x.cost_basis / minorPerMajor()).toFixed(currency().exponent)
      });
      const date = h('input', {
        type: 'date',
        class: 'paid-date',
        name: 'acquired_at',
        'aria-label': 'Bought on (optional)',
        value: x.acquired_at ? x.acquired_at.slice(0, 10) : '',
        max: new Date(Date.now() + 86400000).toISOString().slice(0, 10)
      });
      const problem = h('span', {class: 'error-text paid-error', role: 'alert'});
      const save = h('button', {type: 'submit', class: 'btn small primary'}, 'Save');
      const form =
          h('form', {class: 'paid-form', novalidate: true}, amount, date,
            h('span', {class: 'buttons'}, save,
              h('button', {type: 'button', class: 'btn small', onclick: show}, 'Cancel')),
            problem);
      form.addEventListener('submit', async (ev) => {
        ev.preventDefault();
        const text = amount.value.trim();
        const minor = text === '' ? null : minorOf(text);
        if (Number.isNaN(minor)) {
          problem.textContent = `Enter an amount such as ${(12.5).toFixed(currency().exponent)}`;
          amount.setAttribute('aria-invalid', 'true');
          amount.focus();
          return;
        }
        // The daemon keeps cost bases in USD cents (docs/api.md §16): converted at today's rate.
        const cents = toUsd(minor);
        const body = {
          cost_basis: cents,
          acquired_at: date.value ? `${date.value}T00:00:00Z` : null
        };
        save.disabled = true;
        try {
          await send(
              'PATCH', `/api/v1/portfolio/holdings/${x.item_id}`, body, 'Saving what you paid');
          await loadHoldings();
        } catch (err) {
          save.disabled = false;
          problem.textContent = err.message;
        }
      });
      form.addEventListener('keydown', (ev) => {
        if (ev.key === 'Escape') show();
      });
      fill(cell, form);
      amount.focus();
      amount.select();
    };
    show();
    return cell;
  }

  async function loadHistory() {
    const chartEl = h('div', {
      class: 'chart value-chart',
      id: 'value-chart',
      role: 'img',
      'aria-label': `Portfolio value, ${historyWindow}`
    });
    const state = h('div', {class: 'chart-state'}, skeleton(3));
    valuePanel.hidden = false;
    fill(
        valuePanel,
        h('div', {class: 'panel-head'}, h('h2', {id: 'value-h'}, 'Value over time'),
          windowTabs(
              historyWindow,
              (w) => {
                historyWindow = w;
                localStorage.setItem(HISTORY_KEY, w);
                loadHistory();
              },
              HISTORY_WINDOWS)),
        h('p', {class: 'hint'}, h('span', {class: 'legend-swatch value'}), 'Total value ',
          h('span', {class: 'legend-swatch cost'}),
          'What you paid (holdings with a price entered) · one point per hour'),
        state, chartEl);
    try {
      const points =
          await getJson(`/api/v1/portfolio/history?window=${historyWindow}`, 'Value history');
      if (!alive) return;
      if (plot) {
        plot.destroy();
        plot = null;
      }
      if (!points.length) {
        chartEl.classList.add('empty');
        fill(
            state,
            emptyBox(
                'No value history yet: it starts with your first import and grows by one point an hour.'));
        return;
      }
      const uPlot = await loadUPlot();
      if (!alive) return;
      fill(state, '');
      plot = drawValueChart(uPlot, chartEl, points, WINDOW_SECONDS[historyWindow]);
      chartEl.dataset.points = String(points.length);
    } catch (err) {
      fill(state, errorBox(err, loadHistory));
    }
  }

  const onResize = () => {
    const el = document.getElementById('value-chart');
    if (plot && el)
      plot.setSize(
          {width: Math.max(280, el.clientWidth), height: el.clientWidth < 500 ? 220 : 300});
  };
  window.addEventListener('resize', onResize);

  load();
  return () => {
    alive = false;
    clearInterval(countdownTimer);
    window.removeEventListener('resize', onResize);
    if (plot) plot.destroy();
  };
}

function kv(label, value, id, note) {
  return h(
      'div', {class: 'kpi'}, h('span', {class: 'kpi-label'}, label),
      h('span', {class: 'kpi-value', id}, value), note ? h('span', {class: 'kpi-note'}, note) : '');
}
