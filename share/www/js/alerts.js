// Alerts (docs/api.md §13): the signed-in user's rules with their last deliveries,
// enable/disable and delete; /alerts?item=ID opens the "new alert" form for that item
// with usable defaults (the item page's "Create alert" link: two clicks in all).
import {
  ApiError,
  currentUser,
  emptyBox,
  errorBox,
  exactTime,
  fill,
  getJson,
  h,
  itemName,
  pageStyles,
  send,
  setTitle,
  skeleton,
  timeEl
} from './api.js';
import {live} from './live.js';
import {fromUsd, money} from './money.js';

pageStyles('alerts');

const CONDITIONS = {
  percent_change: 'Moves by a percentage',
  price_below: 'Price falls below',
  price_above: 'Price rises above',
  bollinger_break: 'Breaks its Bollinger band',
  spread_above: 'Spread between markets above',
  volatility_rank: 'Among the most volatile',
};
const CHANNELS = {
  ws: 'This dashboard (toast)',
  discord: 'Discord webhook',
  telegram: 'Telegram',
  webhook: 'Webhook (signed)'
};
const STATUS_CLASS = {
  delivered: 'ok',
  pending: 'warn',
  failed: 'error'
};

export function describe(condition) {
  switch (condition.type) {
    case 'price_above':
      return `price above ${money(fromUsd(condition.value))}${
          condition.source ? ` on ${condition.source}` : ''}`;
    case 'price_below':
      return `price below ${money(fromUsd(condition.value))}${
          condition.source ? ` on ${condition.source}` : ''}`;
    case 'percent_change':
      return `${
          condition.direction === 'up' ? 'rises' :
              condition.direction === 'down' ?
                                         'drops' :
                                         'moves'} ${condition.threshold} % in ${condition.window}`;
    case 'bollinger_break':
      return `breaks its ${condition.window} Bollinger band`;
    case 'spread_above':
      return `spread above ${condition.threshold} %`;
    case 'volatility_rank':
      return `top ${condition.top} most volatile (${condition.window})`;
    default:
      return condition.type;
  }
}

function field(label, control) {
  return h('label', {class: 'field'}, label, control);
}

export function render(view, _params, query) {
  setTitle('Alerts');
  let alive = true;
  const notice = h('div', {class: 'notice', role: 'status', 'aria-live': 'polite'});
  const form = h('section', {class: 'panel', 'aria-labelledby': 'new-h', hidden: true});
  const list =
      h('section', {class: 'panel', 'aria-labelledby': 'rules-h'},
        h('h2', {id: 'rules-h'}, 'Your alerts'), skeleton(3));
  fill(view, h('h1', {}, 'Alerts'), notice, form, list);
  const names = new Map();

  async function nameOf(id) {
    // A variant item is named with its variant (a fresh chip per use: a node lives once).
    if (!names.has(id))
      names.set(
          id,
          getJson(`/api/v1/items/${id}`, 'Item').catch(() => ({market_hash_name: `Item ${id}`})));
    return itemName(await names.get(id));
  }

  async function load() {
    let me;
    try {
      me = await currentUser();
    } catch (err) {
      fill(list, errorBox(err, load));
      return;
    }
    if (!alive) return;
    if (!me) {
      fill(
          list, h('h2', {id: 'rules-h'}, 'Your alerts'),
          emptyBox('Sign in to get told when an item moves.'),
          h('p', {}, h('a', {class: 'btn', href: '/portfolio', 'data-link': ''}, 'Sign in')));
      return;
    }
    const itemId = Number(query.get('item'));
    if (itemId > 0) showForm(itemId);
    loadRules();
  }

  async function loadRules() {
    let rules;
    try {
      rules = await getJson('/api/v1/alerts', 'Alerts');
    } catch (err) {
      fill(list, h('h2', {id: 'rules-h'}, 'Your alerts'), errorBox(err, loadRules));
      return;
    }
    if (!alive) return;
    if (!rules.length) {
      fill(
          list, h('h2', {id: 'rules-h'}, 'Your alerts'),
          emptyBox('No alerts yet. Open an item and choose “Create alert”.'));
      return;
    }
    const rows =
        await Promise.all(rules.map(async (rule) => ruleRow(rule, await nameOf(rule.item_id))));
    if (!alive) return;
    fill(
        list, h('h2', {id: 'rules-h'}, 'Your alerts'),
        h('ul', {class: 'alert-list', id: 'alert-list'}, rows));
  }

  function ruleRow(rule, name) {
    const deliveries = h('div', {class: 'deliveries'});
    const toggle =
        h('button', {type: 'button', class: 'btn small', 'aria-pressed': String(rule.enabled)},
          rule.enabled ? 'Disable' : 'Enable');
    toggle.addEventListener('click', async () => {
      try {
        await send(
            'PATCH', `/api/v1/alerts/${rule.id}`, {enabled: !rule.enabled}, 'Changing the alert');
        loadRules();
      } catch (err) {
        fill(notice, errorBox(err));
      }
    });
    const remove = h('button', {type: 'button', class: 'btn small danger'}, 'Delete');
    remove.addEventListener('click', async () => {
      try {
        await send('DELETE', `/api/v1/alerts/${rule.id}`, undefined, 'Deleting the alert');
        loadRules();
      } catch (err) {
        fill(notice, errorBox(err));
      }
    });
    const show = h('button', {type: 'button', class: 'btn small'}, 'Deliveries');
    show.addEventListener('click', () => loadDeliveries(rule.id, deliveries));
    return h(
        'li', {class: `alert-rule${rule.enabled ? '' : ' disabled'}`, 'data-alert-id': rule.id},
        h('div', {class: 'alert-main'},
          h('a', {href: `/items/${rule.item_id}`, 'data-link': ''}, name), ' — ',
          h('span', {class: 'alert-cond'}, describe(rule.condition)),
          h('div', {class: 'muted'}, 'to ',
            rule.channels.map((c) => CHANNELS[c.type] || c.type).join(', '), ' · cooldown ',
            `${Math.round(rule.cooldown_seconds / 60)} min`, ' · last fired ',
            rule.last_fired_at ? timeEl(rule.last_fired_at) : 'never')),
        h('div', {class: 'buttons'}, show, toggle, remove), deliveries);
  }

  async function loadDeliveries(id, box) {
    fill(box, skeleton(1));
    try {
      const rows = (await getJson(`/api/v1/alerts/${id}/deliveries`, 'Deliveries')).slice(0, 10);
      fill(
          box,
          rows.length ?
              h('table', {class: 'table'},
                h('thead', {},
                  h('tr', {}, h('th', {}, 'When'), h('th', {}, 'Channel'), h('th', {}, 'Status'),
                    h('th', {class: 'num'}, 'Attempts'), h('th', {}, 'Detail'))),
                h('tbody', {},
                  rows.map(
                      (d) => h(
                          'tr', {},
                          h('td', {},
                            h('time', {datetime: d.created_at, title: exactTime(d.created_at)},
                              exactTime(d.created_at))),
                          h('td', {}, d.channel),
                          h('td', {},
                            h('span', {class: `status ${STATUS_CLASS[d.status] || ''}`}, d.status)),
                          h('td', {class: 'num'}, d.attempts),
                          h('td', {class: 'muted'},
                            d.error || (d.response_status ? `HTTP ${d.response_status}` : '')))))) :
                                                            emptyBox('Not fired yet.'));
    } catch (err) {
      fill(box, errorBox(err));
    }
  }

  async function showForm(itemId) {
    const name = await nameOf(itemId);
    if (!alive) return;
    const type =
        h('select', {id: 'alert-type'},
          Object.entries(CONDITIONS).map(([v, t]) => h('option', {value: v}, t)));
    const threshold =
        h('input', {id: 'alert-threshold', type: 'number', min: '0.1', step: '0.1', value: '5'});
    const direction = h('select', {id: 'alert-direction'}, [
      ['down', 'down'], ['up', 'up'], ['any', 'either way']
    ].map(([v, t]) => h('option', {value: v}, t)));
    const windowSel = h(
        'select', {id: 'alert-window'}, ['24h', '1h', '7d'].map((w) => h('option', {value: w}, w)));
    const value =
        h('input',
          {id: 'alert-value', type: 'number', min: '0.01', step: '0.01', placeholder: 'USD'});
    const top = h('input', {id: 'alert-top', type: 'number', min: '1', max: '100', value: '20'});
    const channel =
        h('select', {id: 'alert-channel'},
          Object.entries(CHANNELS).map(([v, t]) => h('option', {value: v}, t)));
    const url = h(
        'input', {id: 'alert-url', type: 'url', placeholder: 'https://discord.com/api/webhooks/…'});
    const token =
        h('input',
          {id: 'alert-token', type: 'text', placeholder: '123456:ABC…', autocomplete: 'off'});
    const chat = h('input', {id: 'alert-chat', type: 'text', placeholder: 'chat id or @channel'});
    const fields = {
      threshold: field('Threshold (%)', threshold),
      direction: field('Direction', direction),
      window: field('Window', windowSel),
      value: field('Price (USD)', value),
      top: field('Top', top),
      url: field('URL', url),
      token: field('Bot token', token),
      chat: field('Chat', chat),
    };
    const uses = {
      percent_change: ['threshold', 'direction', 'window'],
      price_below: ['value'],
      price_above: ['value'],
      bollinger_break: ['window'],
      spread_above: ['threshold'],
      volatility_rank: ['window', 'top']
    };
    const channelUses = {ws: [], discord: ['url'], webhook: ['url'], telegram: ['token', 'chat']};
    const sync = () => {
      for (const [key, el] of Object.entries(fields)) {
        el.hidden = !(uses[type.value].includes(key) || channelUses[channel.value].includes(key));
      }
    };
    type.addEventListener('change', sync);
    channel.addEventListener('change', sync);
    const result = h('div', {role: 'status', 'aria-live': 'polite'});
    const create =
        h('button', {type: 'submit', class: 'btn primary', id: 'alert-create'}, 'Create alert');
    const formEl =
        h('form', {class: 'filters alert-form'}, field('When', type), Object.values(fields),
          field('Tell me via', channel), create);
    formEl.addEventListener('submit', async (event) => {
      event.preventDefault();
      const condition = {type: type.value};
      if (uses[type.value].includes('threshold')) condition.threshold = Number(threshold.value);
      if (uses[type.value].includes('direction')) condition.direction = direction.value;
      if (uses[type.value].includes('window')) condition.window = windowSel.value;
      if (uses[type.value].includes('value'))
        condition.value = Math.round(Number(value.value) * 100);
      if (uses[type.value].includes('top')) condition.top = Number(top.value);
      const target = {type: channel.value};
      if (channelUses[channel.value].includes('url')) target.url = url.value;
      if (channel.value === 'telegram') {
        target.bot_token = token.value;
        target.chat_id = chat.value;
      }
      create.disabled = true;
      try {
        const {data} = await send(
            'POST', '/api/v1/alerts', {item_id: itemId, condition, channels: [target]},
            'Creating the alert');
        const secret = data.channels.find((c) => c.secret);
        fill(
            result,
            h('p', {class: 'panel-state ok', id: 'alert-created'},
              `Alert created: ${
                  name.map((n) => (n instanceof Node ? n.textContent : n)).join('')} ${
                  describe(data.condition)}.`,
              secret ?
                  [
                    ' Webhook secret (shown once, keep it to verify signatures): ',
                    h('code', {}, secret.secret)
                  ] :
                  ''));
        history.replaceState(null, '', '/alerts');
        loadRules();
      } catch (err) {
        fill(
            result,
            h('p', {class: 'panel-state error', role: 'alert'},
              err instanceof ApiError ? err.message : String(err)));
      } finally {
        create.disabled = false;
      }
    });
    fill(
        form,
        h('h2', {id: 'new-h'}, 'New alert for ',
          h('a', {href: `/items/${itemId}`, 'data-link': ''}, name)),
        formEl, result);
    form.hidden = false;
    sync();
  }

  // A toast means one of the rules fired: show its new last_fired_at.
  const onAlert = () => {
    if (alive) loadRules();
  };
  live.addEventListener('alert', onAlert);
  load();
  return () => {
    alive = false;
    live.removeEventListener('alert', onAlert);
  };
}
