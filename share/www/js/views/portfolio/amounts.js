// Amounts on the Portfolio page: what a person types as a price, and signed P&L.
import {h} from '../../api.js';
import {currency, money} from '../../money.js';

/**
 * An amount typed by a person in the chosen currency ("12.5", "1,234.56", "$3", "€3")
 *  → its minor units (cents, yen, fils); NaN when not an amount of that currency.
 */
export function minorOf(text, exponent = currency().exponent) {
  const clean = String(text).trim().replace(/^[^\d.-]{1,3}/, '').replace(/,/g, '');
  const decimals = exponent > 0 ? `(\\.\\d{1,${exponent}})?` : '';
  if (!new RegExp(`^\\d{1,10}${decimals}$`).test(clean)) return NaN;
  return Math.round(Number(clean) * 10 ** exponent);
}

/**
 * Signed money (minor units of the chosen currency) with colour and sign (never colour alone):
 * "+$12.00" / "−$3.50".
 */
export function pl(cents) {
  if (cents === null || cents === undefined) return h('span', {class: 'muted'}, '—');
  const dir = cents > 0 ? 'up' : cents < 0 ? 'down' : 'flat';
  const sign = cents > 0 ? '+' : cents < 0 ? '−' : '';
  return h('span', {class: `chg ${dir}`}, sign + money(Math.abs(cents)));
}
