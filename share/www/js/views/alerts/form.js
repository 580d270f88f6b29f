// The "new alert" form for one item, with usable defaults (the item page's "Create
// alert" link opens it: two clicks in all). Only the fields the chosen condition and
// channel use are shown; the price is typed in USD and sent as cents.
import {ApiError, fill, h, send} from '../../api.js';

import {CHANNELS, CONDITIONS, describe} from './describe.js';

const USES = {
  percent_change: ['threshold', 'direction', 'window'],
  price_below: ['value'],
  price_above: ['value'],
  bollinger_break: ['window'],
  spread_above: ['threshold'],
  volatility_rank: ['window', 'top'],
};
const CHANNEL_USES = {
  ws: [],
  discord: ['url'],
  webhook: ['url'],
  telegram: ['token', 'chat']
};

function field(label, control) {
  return h('label', {class: 'field'}, label, control);
}

function controls() {
  const options = (pairs) => pairs.map(([v, t]) => h('option', {value: v}, t));
  return {
    type: h('select', {id: 'alert-type'}, options(Object.entries(CONDITIONS))),
    threshold:
        h('input', {id: 'alert-threshold', type: 'number', min: '0.1', step: '0.1', value: '5'}),
    direction:
        h('select', {id: 'alert-direction'},
          options([['down', 'down'], ['up', 'up'], ['any', 'either way']])),
    window:
        h('select', {id: 'alert-window'}, options([['24h', '24h'], ['1h', '1h'], ['7d', '7d']])),
    value:
        h('input',
          {id: 'alert-value', type: 'number', min: '0.01', step: '0.01', placeholder: 'USD'}),
    top: h('input', {id: 'alert-top', type: 'number', min: '1', max: '100', value: '20'}),
    channel: h('select', {id: 'alert-channel'}, options(Object.entries(CHANNELS))),
    url: h(
        'input', {id: 'alert-url', type: 'url', placeholder: 'https://discord.com/api/webhooks/…'}),
    token:
        h('input',
          {id: 'alert-token', type: 'text', placeholder: '123456:ABC…', autocomplete: 'off'}),
    chat: h('input', {id: 'alert-chat', type: 'text', placeholder: 'chat id or @channel'}),
  };
}

/** The request body's condition and channel from the form's controls. */
export function ruleOf(c) {
  const uses = USES[c.type.value];
  const condition = {type: c.type.value};
  if (uses.includes('threshold')) condition.threshold = Number(c.threshold.value);
  if (uses.includes('direction')) condition.direction = c.direction.value;
  if (uses.includes('window')) condition.window = c.window.value;
  if (uses.includes('value')) condition.value = Math.round(Number(c.value.value) * 100);
  if (uses.includes('top')) condition.top = Number(c.top.value);
  const target = {type: c.channel.value};
  if (CHANNEL_USES[c.channel.value].includes('url')) target.url = c.url.value;
  if (c.channel.value === 'telegram') {
    target.bot_token = c.token.value;
    target.chat_id = c.chat.value;
  }
  return {condition, channels: [target]};
}

/** Fills `panel` with the form for `itemId` (named `name`); `created()` after a success. */
export function showAlertForm(panel, itemId, name, created) {
  const c = controls();
  const fields = {
    threshold: field('Threshold (%)', c.threshold),
    direction: field('Direction', c.direction),
    window: field('Window', c.window),
    value: field('Price (USD)', c.value),
    top: field('Top', c.top),
    url: field('URL', c.url),
    token: field('Bot token', c.token),
    chat: field('Chat', c.chat),
  };
  const sync = () => {
    for (const [key, el] of Object.entries(fields)) {
      el.hidden =
          !(USES[c.type.value].includes(key) || CHANNEL_USES[c.channel.value].includes(key));
    }
  };
  c.type.addEventListener('change', sync);
  c.channel.addEventListener('change', sync);
  const result = h('div', {role: 'status', 'aria-live': 'polite'});
  const create =
      h('button', {type: 'submit', class: 'btn primary', id: 'alert-create'}, 'Create alert');
  const formEl =
      h('form', {class: 'filters alert-form'}, field('When', c.type), Object.values(fields),
        field('Tell me via', c.channel), create);
  formEl.addEventListener('submit', (event) => {
    event.preventDefault();
    submit({itemId, name, rule: ruleOf(c), create, result, created});
  });
  fill(
      panel,
      h('h2', {id: 'new-h'}, 'New alert for ',
        h('a', {href: `/items/${itemId}`, 'data-link': ''}, name)),
      formEl, result);
  panel.hidden = false;
  sync();
}

async function submit({itemId, name, rule, create, result, created}) {
  create.disabled = true;
  try {
    const {data} =
        await send('POST', '/api/v1/alerts', {item_id: itemId, ...rule}, 'Creating the alert');
    const secret = data.channels.find((ch) => ch.secret);
    const text = name.map((n) => (n instanceof Node ? n.textContent : n)).join('');
    fill(
        result,
        h('p', {class: 'panel-state ok', id: 'alert-created'},
          `Alert created: ${text} ${describe(data.condition)}.`,
          secret ?
              [
                ' Webhook secret (shown once, keep it to verify signatures): ',
                h('code', {}, secret.secret)
              ] :
              ''));
    history.replaceState(null, '', '/alerts');
    created();
  } catch (err) {
    fill(
        result,
        h('p', {class: 'panel-state error', role: 'alert'},
          err instanceof ApiError ? err.message : String(err)));
  } finally {
    create.disabled = false;
  }
}
