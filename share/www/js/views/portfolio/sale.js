// The "Sold each" cell of a departure (docs/api.md §23.4): what one unit sold for, edited
// in place; saved with a PATCH of the departure, then the portfolio reloads.
import {toUsd} from '../../money.js';
import {setSalePrice} from '../../portfolio-data.js';

import {amountCell} from './amount-cell.js';

/** The cell for departure `x`; `saved()` reloads the portfolio after a change. */
export function saleCell(x, saved) {
  return amountCell({
    kind: 'sale',
    label: 'Sold each',
    amount: x.sale_price,
    empty: 'Enter price',
    describe: `What one ${x.market_hash_name} sold for`,
    name: 'sale_price',
    inputLabel: 'Sold for, per unit',
    save: async (minor) => {
      // Kept in USD cents as cost bases are: converted at today's rate.
      await setSalePrice(x.departure_id, toUsd(minor));
      await saved();
    },
  });
}
