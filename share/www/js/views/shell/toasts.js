// Alert toasts: the `ws` channel of docs/api.md §13, shown for 30 s or until dismissed.
import {h, itemName} from '../../api.js';

export function startToasts(live) {
  const toasts =
      h('div', {class: 'toasts', id: 'toasts', role: 'status', 'aria-live': 'assertive'});
  document.body.append(toasts);
  live.addEventListener('alert', (event) => {
    const toast = alertToast(event.detail);
    toasts.append(toast);
    setTimeout(() => toast.remove(), 30000);
  });
}

function alertToast(alert) {
  const close = h('button', {type: 'button', class: 'btn small', 'aria-label': 'Dismiss'}, '×');
  const toast =
      h('div', {class: 'toast', 'data-alert-id': alert.alert_id},
        h('div', {}, h('strong', {}, 'Alert: '),
          h('a', {href: `/items/${alert.item_id}`, 'data-link': ''}, itemName(alert)),
          h('div', {}, (alert.message || '').replace(`${alert.market_hash_name}: `, ''))),
        close);
  close.addEventListener('click', () => toast.remove());
  return toast;
}
