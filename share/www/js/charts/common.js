// What the charts share: the palette, the theme's colours (CSS variables), money formats
// of the chosen currency and the crosshair tooltip.
import {currency} from '../money.js';

export const PALETTE = ['#0f766e', '#b45309', '#7c3aed', '#be123c', '#1d4ed8', '#4d7c0f'];

export function cssVar(name, fallback) {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

/** The axes' stroke and grid colours of the theme. */
export function axisColours() {
  return {stroke: cssVar('--text-2', '#555'), grid: {stroke: cssVar('--grid', '#8883')}};
}

/**
 * {money, whole, axis}: amounts in the chosen currency with its decimals, whole units,
 *  and an axis label (whole units from 100 up, so "$2,100" fits beside a 375 px chart).
 */
export function moneyFormats(exact = true) {
  const {code, exponent} = currency();
  const money = new Intl.NumberFormat(
      undefined,
      exact ? {
        style: 'currency',
        currency: code,
        minimumFractionDigits: exponent,
        maximumFractionDigits: exponent
      } :
              {style: 'currency', currency: code});
  const whole = new Intl.NumberFormat(
      undefined, {style: 'currency', currency: code, maximumFractionDigits: 0});
  const axis = (v) => (Math.abs(v) >= 100 ? whole.format(v) : money.format(v));
  return {money, whole, axis};
}

/** A crosshair tooltip listing every market's price (and the volume) at the cursor. */
export function tooltip(money) {
  let box;
  const when = new Intl.DateTimeFormat(undefined, {dateStyle: 'medium', timeStyle: 'short'});
  return {
    hooks: {
      init: (u) => {
        box = document.createElement('div');
        box.className = 'chart-tip';
        box.hidden = true;
        u.over.append(box);
        u.over.addEventListener('mouseleave', () => {
          box.hidden = true;
        });
      },
      setCursor: (u) => showTip(u, box, when, money),
    },
  };
}

function showTip(u, box, when, money) {
  const i = u.cursor.idx;
  if (i === null || i === undefined || u.cursor.left < 0) {
    box.hidden = true;
    return;
  }
  box.replaceChildren();
  const head = document.createElement('strong');
  head.textContent = when.format(new Date(u.data[0][i] * 1000));
  box.append(head);
  u.series.forEach((s, k) => {
    if (k === 0 || !s.show || s.label.startsWith('Band')) return;
    const v = u.data[k][i];
    if (v === null || v === undefined) return;
    const row = document.createElement('div');
    row.textContent =
        `${s.label.replace(' (reference)', '')}: ${s.scale === 'vol' ? v : money.format(v)}`;
    box.append(row);
  });
  box.hidden = false;
  const left = u.cursor.left + 12;
  const flip = left + box.offsetWidth > u.over.clientWidth;
  box.style.left = `${flip ? u.cursor.left - box.offsetWidth - 12 : left}px`;
  box.style.top = `${Math.max(0, u.cursor.top - box.offsetHeight - 8)}px`;
}
