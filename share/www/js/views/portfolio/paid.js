// The holdings table's "Paid" cell: the cost basis per unit as a button; pressed, a small
// form (amount, optional date) that PATCHes the holding and re-renders.
import {fill, h, send} from '../../api.js';
import {currency, major, money, toUsd} from '../../money.js';

import {minorOf} from './amounts.js';

/** The cell for holding `x`; `saved()` reloads the holdings after a change. */
export function paidCell(x, saved) {
  const cell = h('td', {class: 'num paid', 'data-label': 'Paid'});
  const show = () => fill(
      cell,
      h('button', {
        type: 'button',
        class: 'link-btn edit-paid',
        onclick: () => edit(cell, x, show, saved),
        'aria-label':
            `What you paid for ${x.market_hash_name}${x.variant ? ` (${x.variant})` : ''}`,
      },
        x.cost_basis === null ? 'Set' : money(x.cost_basis)));
  show();
  return cell;
}

function edit(cell, x, show, saved) {
  const {code, exponent} = currency();
  const amount = h('input', {
    type: 'text',
    inputmode: 'decimal',
    class: 'paid-input',
    name: 'cost_basis',
    autocomplete: 'off',
    'aria-label': `Paid per unit, in ${code}`,
    placeholder: (0).toFixed(exponent),
    value: x.cost_basis === null ? '' : major(x.cost_basis, exponent),
  });
  const date = h('input', {
    type: 'date',
    class: 'paid-date',
    name: 'acquired_at',
    'aria-label': 'Bought on (optional)',
    value: x.acquired_at ? x.acquired_at.slice(0, 10) : '',
    max: new Date(Date.now() + 86400000).toISOString().slice(0, 10),
  });
  const problem = h('span', {class: 'error-text paid-error', role: 'alert'});
  const save = h('button', {type: 'submit', class: 'btn small primary'}, 'Save');
  const form =
      h('form', {class: 'paid-form', novalidate: true}, amount, date,
        h('span', {class: 'buttons'}, save,
          h('button', {type: 'button', class: 'btn small', onclick: show}, 'Cancel')),
        problem);
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    submit(x, {amount, date, problem, save}, saved);
  });
  form.addEventListener('keydown', (ev) => {
    if (ev.key === 'Escape') show();
  });
  fill(cell, form);
  amount.focus();
  amount.select();
}

async function submit(x, {amount, date, problem, save}, saved) {
  const text = amount.value.trim();
  const minor = text === '' ? null : minorOf(text);
  if (Number.isNaN(minor)) {
    problem.textContent = `Enter an amount such as ${(12.5).toFixed(currency().exponent)}`;
    amount.setAttribute('aria-invalid', 'true');
    amount.focus();
    return;
  }
  // The daemon keeps cost bases in USD cents (docs/api.md §16): converted at today's rate.
  const body = {
    cost_basis: toUsd(minor),
    acquired_at: date.value ? `${date.value}T00:00:00Z` : null
  };
  save.disabled = true;
  try {
    await send('PATCH', `/api/v1/portfolio/holdings/${x.item_id}`, body, 'Saving what you paid');
    await saved();
  } catch (err) {
    save.disabled = false;
    problem.textContent = err.message;
  }
}
