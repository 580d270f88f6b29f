// Price cells that follow the live updates: every element showing an item's price is
// tracked by item id; a live update (USD cents, docs/api.md §7) converts to the chosen
// currency as the daemon rounds, re-renders the cell and flashes it up or down.
import {flash} from '../../api.js';
import {fromUsd, money} from '../../money.js';

/** Shows `minor` in `el`; a base with variants costs "from" its cheapest variant (§18). */
export function showPrice(el, minor) {
  el.textContent = `${el.dataset.from ? 'from ' : ''}${money(minor)}`;
  el.dataset.cents = minor ?? '';
}

export class PriceCells {
  constructor() {
    this.cells = new Map();  // item id → [elements showing its price]
  }

  track(id, el, cents) {
    if (!this.cells.has(id)) this.cells.set(id, []);
    this.cells.get(id).push(el);
    el.dataset.cents = cents ?? '';
  }

  ids() {
    return [...this.cells.keys()];
  }

  of(id) {
    return this.cells.get(id) || [];
  }

  /** Applies one "prices" frame's rows ({item_id, price}). */
  update(rows) {
    for (const p of rows) {
      for (const el of this.of(p.item_id)) {
        const before = Number(el.dataset.cents || 0);
        const minor = fromUsd(p.price);  // live updates are USD cents
        if (before === minor) continue;
        showPrice(el, minor);
        flash(el, minor >= before);
      }
    }
  }
}
