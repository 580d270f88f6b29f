// Live prices on the item page: a "prices" frame's rows for this item (USD cents,
// converted as the daemon rounds) update its markets, and its reference market's price
// becomes the current price, flashed up or down.
import {ago, exactTime, flash} from '../../api.js';
import {fromUsd, money} from '../../money.js';

/** Applies the rows of `rows` for page.id; true when any was this item's. */
export function applyLivePrices(page, rows) {
  const {item, markets} = page;
  const mine =
      rows.filter((p) => p.item_id === page.id).map((p) => ({...p, price: fromUsd(p.price)}));
  if (!mine.length || !item) return false;
  for (const p of mine) {
    const m = markets.find((x) => x.source === p.source);
    if (m)
      Object.assign(m, p);
    else
      markets.push({...p});
    item.updated_at = p.time;
  }
  // The reference market's newest price is the current price; otherwise keep it unless none.
  const refPoint = mine.find((p) => p.source === item.current_price_source) ||
      (item.current_price === null ? mine[0] : null);
  if (refPoint) showCurrent(item, refPoint);
  const updated = document.getElementById('updated-at');
  if (updated) {
    updated.textContent = ago(item.updated_at);
    updated.title = exactTime(item.updated_at);
    updated.dateTime = item.updated_at;
  }
  return true;
}

function showCurrent(item, refPoint) {
  const el = document.getElementById('current-price');
  const before = item.current_price;
  item.current_price = refPoint.price;
  if (!item.current_price_source) item.current_price_source = refPoint.source;
  if (el) {
    el.textContent = money(refPoint.price);
    el.dataset.cents = refPoint.price;
    flash(el, refPoint.price >= (before || 0));
  }
}
