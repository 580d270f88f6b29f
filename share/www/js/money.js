// Money in the chosen currency (docs/api.md §14): endpoints answer minor units of it,
// formatted by its exponent; live updates (USD cents) convert as the daemon rounds.

const KEY = 'skinpulse.currency';
const USD = { code: 'USD', exponent: 2, numerator: 1, denominator: 1 };
let chosen = USD;
let available = [USD];
const formats = new Map();

/** The stored choice, "USD" when none. */
export function storedCurrency() {
  try { return localStorage.getItem(KEY) || 'USD'; } catch { return 'USD'; }
}

/** Loads GET /api/v1/currencies and settles the choice (a code without a rate falls back to USD). */
export async function loadCurrencies() {
  try {
    const response = await fetch('/api/v1/currencies', { credentials: 'same-origin' });
    if (response.ok) available = await response.json();
  } catch { /* USD only */ }
  chosen = available.find((c) => c.code === storedCurrency()) || USD;
  return available;
}

export function currencies() { return available; }
export function currency() { return chosen; }

/** Stores `code` as the choice (the caller reloads the page's data). */
export function chooseCurrency(code) {
  chosen = available.find((c) => c.code === code) || USD;
  try { localStorage.setItem(KEY, chosen.code); } catch { /* private mode: this page only */ }
}

/** `path` with `currency=` for any currency but USD. */
export function withCurrency(path) {
  if (chosen.code === 'USD') return path;
  return `${path}${path.includes('?') ? '&' : '?'}currency=${chosen.code}`;
}

/** Minor units per major unit of the chosen currency (100 for EUR, 1 for JPY). */
export function minorPerMajor() { return 10 ** chosen.exponent; }

/** USD cents (a live update) → minor units of the chosen currency, as the daemon rounds. */
export function fromUsd(cents) {
  if (cents === null || cents === undefined || chosen.code === 'USD') return cents;
  const n = BigInt(Math.round(cents)) * BigInt(chosen.numerator) * 10n ** BigInt(chosen.exponent);
  const d = BigInt(chosen.denominator) * 100n;
  const negative = n < 0n;
  const abs = negative ? -n : n;
  let q = abs / d;
  if (2n * (abs % d) >= d) q += 1n;
  return Number(negative ? -q : q);
}

/** Minor units of the chosen currency → USD cents (half away from zero). */
export function toUsd(minor) {
  if (minor === null || minor === undefined || chosen.code === 'USD') return minor;
  const n = BigInt(Math.round(minor)) * BigInt(chosen.denominator) * 100n;
  const d = BigInt(chosen.numerator) * 10n ** BigInt(chosen.exponent);
  const negative = n < 0n;
  const abs = negative ? -n : n;
  let q = abs / d;
  if (2n * (abs % d) >= d) q += 1n;
  return Number(negative ? -q : q);
}

/** Minor units → "€12.34", "¥1,235", "KWD 3.070"; null → "—". */
export function money(minor, info = chosen) {
  if (minor === null || minor === undefined) return '—';
  let format = formats.get(info.code);
  if (!format) {
    format = new Intl.NumberFormat(undefined, { style: 'currency', currency: info.code,
      minimumFractionDigits: info.exponent, maximumFractionDigits: info.exponent });
    formats.set(info.code, format);
  }
  return format.format(minor / 10 ** info.exponent);
}
