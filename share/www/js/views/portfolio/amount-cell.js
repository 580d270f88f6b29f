// A money cell that is edited in place (the holdings' "Paid", a departure's "Sold each"):
// the amount as a button; pressed, a small form whose amount is typed in the chosen
// currency, checked here, then handed to `save` (which PATCHes and reloads).
import {fill, h} from '../../api.js';
import {currency, major, money} from '../../money.js';

import {minorOf} from './amounts.js';

/**
 * The cell. `kind` prefixes its classes (`edit-<kind>`, `<kind>-input`, `<kind>-error`);
 * `amount` is the stored minor units or null (`empty` is shown then); `fields()` adds
 * inputs after the amount; `save(minor, fields)` stores the typed amount (null: cleared)
 * and throws an Error whose message the form shows.
 */
export function amountCell(
    {kind, label, amount, empty, describe, name, inputLabel, fields = () => [], save}) {
  const cell = h('td', {class: `num ${kind}`, 'data-label': label});
  const show = () => fill(
      cell,
      h('button',
        {type: 'button', class: `link-btn edit-${kind}`, onclick: edit, 'aria-label': describe},
        amount === null ? empty : money(amount)));

  function edit() {
    const {code, exponent} = currency();
    const input = h('input', {
      type: 'text',
      inputmode: 'decimal',
      class: `${kind}-input`,
      name,
      autocomplete: 'off',
      'aria-label': `${inputLabel}, in ${code}`,
      placeholder: (0).toFixed(exponent),
      value: amount === null ? '' : major(amount, exponent),
    });
    const more = fields();
    const problem = h('span', {class: `error-text ${kind}-error`, role: 'alert'});
    const button = h('button', {type: 'submit', class: 'btn small primary'}, 'Save');
    const form = h(
        'form', {class: kind === 'paid' ? 'paid-form' : `paid-form ${kind}-form`, novalidate: true},
        input, ...more,
        h('span', {class: 'buttons'}, button,
          h('button', {type: 'button', class: 'btn small', onclick: show}, 'Cancel')),
        problem);
    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      const text = input.value.trim();
      const minor = text === '' ? null : minorOf(text);
      if (Number.isNaN(minor)) {
        problem.textContent = `Enter an amount such as ${(12.5).toFixed(exponent)}`;
        input.setAttribute('aria-invalid', 'true');
        input.focus();
        return;
      }
      button.disabled = true;
      try {
        await save(minor, more);
      } catch (err) {
        button.disabled = false;
        problem.textContent = err.message;
      }
    });
    form.addEventListener('keydown', (ev) => {
      if (ev.key === 'Escape') show();
    });
    fill(cell, form);
    input.focus();
    input.select();
  }

  show();
  return cell;
}
