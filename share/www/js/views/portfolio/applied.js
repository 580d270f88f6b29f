// Applied stickers and charms on the Portfolio page (docs/api.md §23.1): chips under a
// holding's name (identical stickers once, "4×"), and the percent of their value the
// total counts, chosen by the user (0–100, kept in this browser) — the page asks the
// portfolio again with `applied_value_percent=`.
import {h} from '../../api.js';
import {money} from '../../money.js';
import {groupApplied, parseAppliedPercent, storeAppliedPercent} from '../../portfolio-data.js';

const KIND_WORDS = {
  sticker: 'Sticker',
  charm: 'Charm'
};

/** The chips of a holding's (or departure's) applied list; null when nothing is applied. */
export function appliedChips(x) {
  const groups = groupApplied(x.applied);
  if (!groups.length) return null;
  return h(
      'span', {class: 'applied', 'aria-label': 'Applied stickers and charms'},
      groups.map((g) => appliedChip(g)));
}

function appliedChip(g) {
  const slots = g.slots.map((s) => s + 1).join(', ');
  // A group's price is one unit's: "3× … $812.34 each" is never read as the group's total.
  // Unpriced (no market lists it, or not in the catalogue): a dash, the reason on hover —
  // "no price" is the holding's own words (holdings.js), not its stickers'.
  const unpriced = g.current_price === null;
  const price = unpriced ? '—' : `${money(g.current_price)}${g.count > 1 ? ' each' : ''}`;
  const why = g.item_id === null ? ' (not in the catalogue, so unpriced)' :
      unpriced                   ? ' (no market prices it yet)' :
                                   '';
  return h(
      'span', {
        class: `chip applied-chip ${g.kind}`,
        title: `${g.name} — ${g.kind === 'charm' ? 'charm' : 'sticker'} slot ${slots}${why}`
      },
      h('span', {class: 'applied-kind'}, KIND_WORDS[g.kind] || g.kind), ' ',
      g.count > 1 ? `${g.count}× ` : '', g.short, ' ',
      h('span', {class: unpriced ? 'muted' : 'applied-price'}, price));
}

/**
 * The percent input: `percent` the one the answer used; `changed(p)` re-asks the
 * portfolio. The choice is kept (localStorage) so the next visit asks the same way.
 */
export function appliedPercentControl(percent, changed) {
  const input = h('input', {
    type: 'number',
    id: 'applied-percent',
    min: 0,
    max: 100,
    step: 1,
    inputmode: 'numeric',
    value: String(percent ?? 0),
    'aria-describedby': 'applied-percent-hint'
  });
  const problem = h('span', {class: 'error-text', role: 'alert'});
  const apply = () => {
    const value = parseAppliedPercent(input.value);
    if (value === null) {
      problem.textContent = 'A whole number from 0 to 100.';
      input.setAttribute('aria-invalid', 'true');
      return;
    }
    problem.textContent = '';
    input.removeAttribute('aria-invalid');
    if (value === percent) return;
    storeAppliedPercent(value);
    changed(value);
  };
  input.addEventListener('change', apply);
  input.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter') apply();
  });
  return h(
      'div', {class: 'applied-percent'},
      h('label',
        {for: 'applied-percent'
        },
        'Count stickers & charms at'),
      input, h('span', {}, '%'),
      h('span', {class: 'hint', id: 'applied-percent-hint'},
        'of their own price in Value and the totals. Applied items rarely sell for their own ',
        'price; 0 % leaves them out (the Applied column shows them either way).'),
      problem);
}
