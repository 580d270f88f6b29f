// The item page's head: image, name and badges, the current price (from its reference
// market; "from" its cheapest variant for a base), the 24h change, the consensus across
// markets with how many are trusted, stale or outliers, and the "Create alert" link.
import {
  ago,
  change,
  exactTime,
  fill,
  h,
  hasVariants,
  itemImage,
  number,
  rarityChip
} from '../../api.js';
import {money} from '../../money.js';

import {variantOf} from './variants.js';

/** Fills page.els.head from page.item, page.markets and page.vol24. */
export function renderHead(page) {
  const {item} = page;
  const name = item.market_hash_name;
  const badges = [
    rarityChip(item.rarity), item.stattrak ? h('span', {class: 'chip st'}, 'StatTrak™') : null,
    name.includes('Souvenir') ? h('span', {class: 'chip souvenir'}, 'Souvenir') : null,
    item.weapon_type ? h('span', {class: 'chip'}, item.weapon_type) : null
  ];
  // The variant line is built once: it fetches the base for the sibling links.
  if (item.variant && !page.variantLine) page.variantLine = variantOf(item);
  fill(
      page.els.head, h('div', {class: 'item-img-wrap'}, itemImage(item, 'lg')),
      h('div', {class: 'item-title'}, h('h1', {}, name), h('div', {class: 'badges'}, badges),
        item.variant ? page.variantLine : null, priceLine(item, page.vol24),
        page.markets.length ? consensus(item, page.markets) : null,
        h('p', {class: 'muted'}, 'Updated ',
          item.updated_at ?
              h('time',
                {datetime: item.updated_at, title: exactTime(item.updated_at), id: 'updated-at'},
                ago(item.updated_at)) :
              'never'),
        h('p', {},
          h('a', {
            class: 'btn small',
            id: 'create-alert',
            href: `/alerts?item=${page.id}`,
            'data-link': ''
          },
            'Create alert'))));
}

function priceLine(item, vol24) {
  return h(
      'div', {class: 'price-line'},
      hasVariants(item) ?
          h('span', {class: 'from', title: 'The cheapest of its variants'}, 'from') :
          null,
      h('span', {class: 'big num', id: 'current-price', 'data-cents': item.current_price ?? ''},
        money(item.current_price)),
      h('span', {id: 'change-24h'},
        vol24 && vol24.samples >= 2 ? change(vol24.percent_change) : ''),
      h('span', {class: 'muted'},
        item.current_price_source ? ` on ${item.current_price_source}` : ' no price yet',
        hasVariants(item) ? ' · cheapest variant' : ''));
}

function consensus(item, markets) {
  const trusted = markets.filter((m) => !m.stale && !m.outlier).length;
  const flagged = markets.filter((m) => m.outlier).length;
  const stale = markets.filter((m) => m.stale).length;
  const spread = item.spread_percent === null || item.spread_percent === undefined ?
      '—' :
      `${number(item.spread_percent)} %`;
  return h(
      'div', {class: 'consensus'},
      h('span', {
        title:
            'Median of the fresh listings across markets (of every fresh price when no market lists it); outliers left out'
      },
        h('span', {class: 'kpi-label'}, 'Consensus'),
        h('span', {class: 'num', id: 'consensus-price'}, money(item.consensus_price ?? null))),
      h('span', {
        title: 'Gap between the cheapest and the dearest of those prices, relative to the cheapest'
      },
        h('span', {class: 'kpi-label'}, 'Spread'),
        h('span', {class: 'num', id: 'spread-percent'}, spread)),
      h('span', {}, h('span', {class: 'kpi-label'}, 'Markets'),
        h('span', {id: 'market-trust'}, `${trusted} of ${markets.length} trusted`,
          stale ? h('span', {
            class: 'chip stale',
            title:
                'Prices older than three polling intervals of their market (24 h for markets not polled)'
          },
                    `${stale} stale`) :
                  null,
          flagged ? h('span', {
            class: 'chip outlier',
            title:
                'Prices far outside what the other markets, or the market’s own previous price, say'
          },
                      `${flagged} outlier${flagged > 1 ? 's' : ''}`) :
                    null)));
}
