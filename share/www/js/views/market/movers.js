// Top movers: the six largest changes among the 100 most volatile items, each a card
// with its image and a sparkline of the window's candles (no chart library here).
import {change, emptyBox, fill, getJson, h, itemImage, variantChip} from '../../api.js';
import {itemDetail} from '../../items.js';
import {money} from '../../money.js';
import {sparkline} from '../../spark.js';

// Movers leave out items under $1: there a one-cent tick is already a double-digit move.
export function movable(entry) {
  return (entry.current_price || 0) >= 100;
}

/** The movers of `ranked` (a volatility ranking of window `moverWindow`), or a note. */
export function moverCards(ranked, moverWindow, cells) {
  const movers = ranked.filter(movable)
                     .sort((a, b) => Math.abs(b.percent_change) - Math.abs(a.percent_change))
                     .slice(0, 6);
  if (!movers.length) return emptyBox('No movers yet: prices need a few cycles to compare.');
  return movers.map((m) => moverCard(m, moverWindow, cells));
}

function moverCard(m, moverWindow, cells) {
  const img = h('div', {class: 'img-slot'});
  const spark = h('div', {class: 'spark-slot', 'aria-hidden': 'true'});
  const p = h('span', {class: 'num price'}, money(m.current_price));
  cells.track(m.item_id, p, m.current_price);
  itemDetail(m.item_id)
      .then((item) => fill(img, itemImage(item)))
      .catch((err) => fill(img, h('span', {class: 'muted small', title: err.message}, 'no image')));
  const interval = moverWindow === '1h' ? '5m' : '1h';
  getJson(
      `/api/v1/items/${m.item_id}/candles?window=${moverWindow}&interval=${interval}&source=${
          encodeURIComponent(m.source)}`,
      'Chart')
      .then((c) => fill(spark, sparkline(c.candles.map((x) => x.close), m.percent_change)))
      .catch(
          (err) => fill(
              spark, h('span', {class: 'muted small', title: err.message}, 'chart unavailable')));
  return h(
      'a', {class: 'mover card', href: `/items/${m.item_id}`, 'data-link': ''}, img,
      h('span', {class: 'name'}, m.market_hash_name), variantChip(m.variant),
      h('span', {class: 'row'}, p, change(m.percent_change)), spark);
}
