// Money in the visitor's currency (docs/api.md §14). The choice lives in localStorage and
// in the header's selector; price endpoints are asked with `currency=` (withCurrency) and
// answer integer minor units of it, formatted here by the currency's ISO 4217 exponent
// (JPY 0 decimals, KWD 3). Live updates arrive in USD cents: fromUsd() converts them with
// the same exact rate and rounding as the daemon (half away from zero). The conversions
// are pure functions of a rate ({code, exponent, numerator, denominator}), driven in
// tests/js/money.test.mjs by the vectors of the C++ money test (tests/vectors/money.json).

const KEY = 'skinpulse.currency';
const USD = {
  code: 'USD',
  exponent: 2,
  numerator: 1,
  denominator: 1
};
let chosen = USD;
let available = [USD];
const formats = new Map();

/** The stored choice, "USD" when none. */
export function storedCurrency() {
  try {
    return localStorage.getItem(KEY) || 'USD';
  } catch {
    return 'USD';
  }
}

/**
 * Loads GET /api/v1/currencies and settles the choice (a code without a rate falls back to USD).
 */
export async function loadCurrencies(fetchImpl = globalThis.fetch) {
  try {
    const response = await fetchImpl('/api/v1/currencies', {credentials: 'same-origin'});
    if (response.ok) available = await response.json();
  } catch { /* USD only */
  }
  chosen = available.find((c) => c.code === storedCurrency()) || USD;
  return available;
}

export function currencies() {
  return available;
}
export function currency() {
  return chosen;
}

/** Stores `code` as the choice (the caller reloads the page's data). */
export function chooseCurrency(code) {
  chosen = available.find((c) => c.code === code) || USD;
  try {
    localStorage.setItem(KEY, chosen.code);
  } catch { /* private mode: this page only */
  }
}

/** `path` with `currency=` for any currency but USD. */
export function withCurrency(path, info = chosen) {
  if (info.code === 'USD') return path;
  return `${path}${path.includes('?') ? '&' : '?'}currency=${info.code}`;
}

/** Minor units per major unit of the chosen currency (100 for EUR, 1 for JPY). */
export function minorPerMajor() {
  return 10 ** chosen.exponent;
}

/** a × b / c rounded half away from zero, exactly (BigInt), as the daemon's mulDivRound. */
export function mulDivRound(a, b, c) {
  const n = BigInt(a) * BigInt(b);
  const d = BigInt(c);
  if (d === 0n) return null;
  const negative = n < 0n;
  const abs = negative ? -n : n;
  let q = abs / d;
  if (2n * (abs % d) >= d) q += 1n;
  return Number(negative ? -q : q);
}

/** USD cents → minor units of `rate`'s currency, rounded once, half away from zero. */
export function convertFromUsd(cents, rate) {
  return mulDivRound(
      BigInt(Math.round(cents)) * 10n ** BigInt(rate.exponent), rate.numerator,
      BigInt(rate.denominator) * 100n);
}

/**
 * `amount` in units of 10^-amountExponent of `rate`'s currency → USD cents (half away
 *  from zero). The daemon's toUsdCents: a typed amount is at most one USD cent off.
 */
export function convertToUsd(amount, amountExponent, rate) {
  return mulDivRound(
      BigInt(Math.round(amount)) * BigInt(rate.denominator) * 100n, 1,
      BigInt(rate.numerator) * 10n ** BigInt(amountExponent));
}

/** USD cents (a live update) → minor units of the chosen currency, as the daemon rounds. */
export function fromUsd(cents, info = chosen) {
  if (cents === null || cents === undefined || info.code === 'USD') return cents;
  return convertFromUsd(cents, info);
}

/**
 * Minor units of the chosen currency (what a person typed) → USD cents, as the daemon
 *  stores amounts (half away from zero). At most one USD cent off the typed amount.
 */
export function toUsd(minor, info = chosen) {
  if (minor === null || minor === undefined || info.code === 'USD') return minor;
  return convertToUsd(minor, info.exponent, info);
}

/** Minor units → "1234.56" (exponent 2), "-0.05", "1235" (exponent 0): exact, no float. */
export function major(minor, exponent) {
  const negative = BigInt(minor) < 0n;
  const digits = (negative ? -BigInt(minor) : BigInt(minor)).toString().padStart(exponent + 1, '0');
  const whole = digits.slice(0, digits.length - exponent);
  const fraction = exponent ? `.${digits.slice(digits.length - exponent)}` : '';
  return `${negative ? '-' : ''}${whole}${fraction}`;
}

/** Minor units → "€12.34", "¥1,235", "KWD 3.070"; null → "—". */
export function money(minor, info = chosen, locale = undefined) {
  if (minor === null || minor === undefined) return '—';
  const key = `${locale}|${info.code}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency: info.code,
      minimumFractionDigits: info.exponent,
      maximumFractionDigits: info.exponent
    });
    formats.set(key, format);
  }
  return format.format(minor / 10 ** info.exponent);
}
