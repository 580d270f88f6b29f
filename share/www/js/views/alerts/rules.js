// The list of the user's alert rules: each with its condition, channels, cooldown and last
// firing, the buttons to show its deliveries, disable/enable and delete it.
import {
  emptyBox,
  errorBox,
  exactTime,
  fill,
  getJson,
  h,
  send,
  skeleton,
  timeEl
} from '../../api.js';

import {CHANNELS, describe} from './describe.js';

const STATUS_CLASS = {
  delivered: 'ok',
  pending: 'warn',
  failed: 'error'
};

/** One rule's row; `changed()` reloads the list, `failed(err)` shows an error. */
export function ruleRow(rule, name, {changed, failed}) {
  const deliveries = h('div', {class: 'deliveries'});
  const act = (label, cls, method, body, what) =>
      h('button', {
        type: 'button',
        class: cls,
        'aria-pressed': method === 'PATCH' ? String(rule.enabled) : null,
        onclick: async () => {
          try {
            await send(method, `/api/v1/alerts/${rule.id}`, body, what);
            changed();
          } catch (err) {
            failed(err);
          }
        },
      },
        label);
  const toggle =
      act(rule.enabled ? 'Disable' : 'Enable', 'btn small', 'PATCH', {enabled: !rule.enabled},
          'Changing the alert');
  const remove = act('Delete', 'btn small danger', 'DELETE', undefined, 'Deleting the alert');
  const show =
      h('button',
        {type: 'button', class: 'btn small', onclick: () => loadDeliveries(rule.id, deliveries)},
        'Deliveries');
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

/** The rule's last ten deliveries into `box`. */
async function loadDeliveries(id, box) {
  fill(box, skeleton(1));
  try {
    const rows = (await getJson(`/api/v1/alerts/${id}/deliveries`, 'Deliveries')).slice(0, 10);
    fill(box, rows.length ? deliveriesTable(rows) : emptyBox('Not fired yet.'));
  } catch (err) {
    fill(box, errorBox(err));
  }
}

function deliveriesTable(rows) {
  return h(
      'table', {class: 'table'},
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
                h('td', {}, h('span', {class: `status ${STATUS_CLASS[d.status] || ''}`}, d.status)),
                h('td', {class: 'num'}, d.attempts),
                h('td', {class: 'muted'},
                  d.error || (d.response_status ? `HTTP ${d.response_status}` : ''))))));
}
