// The "Sold for" cell of a departure (docs/api.md §23.4): what one unit sold for as a
// button; pressed, a small form that PATCHes the departure and reloads the portfolio.
import {fill, h} from '../../api.js';
import {currency, major, money, toUsd} from '../../money.js';
import {setSalePrice} from '../../portfolio-data.js';

import {minorOf} from './amounts.js';

/** The cell for departure `x`; `saved()` reloads the portfolio after a change. */
export function saleCell(x, saved) {
  const cell = h('td', {class: 'num sale', 'data-label': 'Sold each'});
  const show = () => fill(
      cell,
      h('button', {
        type: 'button',
        class: 'link-btn edit-sale',
        onclick: () => edit(cell, x, show, saved),
        'aria-label': `What one ${x.market_hash_name} sold for`,
      },
        x.sale_price === null ? 'Enter price' : money(x.sale_price)));
  show();
  return cell;
}

function edit(cell, x, show, saved) {
  const {code, exponent} = currency();
  const amount = h('input', {
    type: 'text',
    inputmode: 'decimal',
    class: 'sale-input',
    name: 'sale_price',
    autocomplete: 'off',
    'aria-label': `Sold for, per unit, in ${code}`,
    placeholder: (0).toFixed(exponent),
    value: x.sale_price === null ? '' : major(x.sale_price, exponent),
  });
  const problem = h('span', {class: 'error-text sale-error', role: 'alert'});
  const save = h('button', {type: 'submit', class: 'btn small primary'}, 'Save');
  const form =
      h('form', {class: 'paid-form sale-form', novalidate: true}, amount,
        h('span', {class: 'buttons'}, save,
          h('button', {type: 'button', class: 'btn small', onclick: show}, 'Cancel')),
        problem);
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const text = amount.value.trim();
    const minor = text === '' ? null : minorOf(text);
    if (Number.isNaN(minor)) {
      problem.textContent = `Enter an amount such as ${(12.5).toFixed(exponent)}`;
      amount.setAttribute('aria-invalid', 'true');
      return;
    }
    save.disabled = true;
    try {
      // Kept in USD cents as cost bases are: converted at today's rate.
      await setSalePrice(x.departure_id, toUsd(minor));
      await saved();
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
}
