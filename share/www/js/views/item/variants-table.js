// The variants panel's table: every variant's price per market in one table — a trader
// compares phases across markets before anything else — its premium over the cheapest
// variant, and in green the cheapest trusted market for each variant.
import {ago, exactTime, h, variantChip} from '../../api.js';
import {money} from '../../money.js';

/** rows: [{id, variant, detail} or {id, variant, error}] in the base's order. */
export function variantsTable(rows) {
  const priced = rows.filter(
      (r) => r.detail && r.detail.current_price !== null && r.detail.current_price !== undefined);
  const cheapest = priced.length ? Math.min(...priced.map((r) => r.detail.current_price)) : null;
  const markets = [
    ...new Set(
        rows.flatMap((r) => (r.detail ? r.detail.latest_prices || [] : []).map((p) => p.source)))
  ].sort();
  return h(
      'table', {class: 'table variants-table'},
      h('thead', {},
        h('tr', {}, h('th', {scope: 'col'}, 'Variant'),
          h('th', {scope: 'col', class: 'num'}, 'Price'),
          h('th', {scope: 'col', class: 'num', title: 'Above the cheapest variant'}, 'vs cheapest'),
          markets.map((m) => h('th', {scope: 'col', class: 'num'}, m)),
          h('th', {scope: 'col'}, 'Updated'))),
      h('tbody', {}, rows.map((r) => variantRow(r, markets, cheapest))));
}

function variantRow(r, markets, cheapest) {
  const link = h('a', {href: `/items/${r.id}`, 'data-link': ''}, variantChip(r.variant));
  if (r.error) {
    return h(
        'tr', {'data-variant': r.variant},
        h('td', {'data-label': 'Variant', class: 'variant-name'}, link),
        h('td', {class: 'error-text', colspan: String(markets.length + 3)}, r.error.message));
  }
  const d = r.detail;
  const byMarket = new Map((d.latest_prices || []).map((p) => [p.source, p]));
  const low =
      Math.min(...[...byMarket.values()].filter((p) => !p.stale && !p.outlier).map((p) => p.price));
  const premium = (cents) =>
      (cheapest && cents !== null && cents !== undefined ?
           `+${Math.round((cents / cheapest - 1) * 100)} %` :
           '—');
  return h(
      'tr', {'data-variant': r.variant, 'data-item': String(r.id)},
      h('td', {'data-label': 'Variant', class: 'variant-name'}, link),
      h('td', {
        class: 'num variant-price',
        'data-label': 'Price',
        title: d.current_price_source ? `on ${d.current_price_source}` : 'no price yet'
      },
        d.current_price === null ? h('span', {class: 'muted'}, 'no price') :
                                   money(d.current_price)),
      h('td', {class: 'num muted', 'data-label': 'vs cheapest'},
        d.current_price === cheapest ? 'cheapest' : premium(d.current_price)),
      markets.map((m) => marketCell(m, byMarket.get(m), low)),
      h('td', {'data-label': 'Updated', class: 'updated'},
        d.updated_at ?
            h('time', {datetime: d.updated_at, title: exactTime(d.updated_at)}, ago(d.updated_at)) :
            'never'));
}

function marketCell(m, p, low) {
  const flags = p ?
      [
        p.stale ? 'stale' : null, p.outlier ? 'outlier' : null, p.price === low ? 'best' : null
      ].filter(Boolean) :
      [];
  return h(
      'td', {
        class: `num market-price ${flags.join(' ')}`,
        'data-label': m,
        'data-source': m,
        title: p ? `${p.kind || 'price'} · ${exactTime(p.time)}${p.stale ? ' · stale' : ''}${
                       p.outlier ? ' · outlier' : ''}` :
                   `${m} has no price for this variant`,
      },
      p ? money(p.price) : '—');
}
