// The holdings table's "Paid" cell: the cost basis per unit, edited in place with an
// optional purchase date; saved with a PATCH of the holding (docs/api.md §16).
import {h, send} from '../../api.js';
import {toUsd} from '../../money.js';

import {amountCell} from './amount-cell.js';

/** The cell for holding `x`; `saved()` reloads the holdings after a change. */
export function paidCell(x, saved) {
  return amountCell({
    kind: 'paid',
    label: 'Paid',
    amount: x.cost_basis,
    empty: 'Set',
    describe: `What you paid for ${x.market_hash_name}${x.variant ? ` (${x.variant})` : ''}`,
    name: 'cost_basis',
    inputLabel: 'Paid per unit',
    fields: () => [h('input', {
      type: 'date',
      class: 'paid-date',
      name: 'acquired_at',
      'aria-label': 'Bought on (optional)',
      value: x.acquired_at ? x.acquired_at.slice(0, 10) : '',
      max: new Date(Date.now() + 86400000).toISOString().slice(0, 10),
    })],
    save: async (minor, [date]) => {
      // The daemon keeps cost bases in USD cents (docs/api.md §16): converted at today's rate.
      const body = {
        cost_basis: toUsd(minor),
        acquired_at: date.value ? `${date.value}T00:00:00Z` : null
      };
      await send('PATCH', `/api/v1/portfolio/holdings/${x.item_id}`, body, 'Saving what you paid');
      await saved();
    },
  });
}
