// A small SVG sparkline (no chart library on the Market page's first load).
import {h} from './api.js';

export function sparkline(values, direction) {
  const w = 120, hgt = 32;
  const svg = h('svg:svg', {
    viewBox: `0 0 ${w} ${hgt}`,
    width: w,
    height: hgt,
    class: `spark ${
        direction > 0     ? 'up' :
            direction < 0 ? 'down' :
                            ''}`,
    focusable: 'false'
  });
  if (values.length < 2) return svg;
  const min = Math.min(...values), max = Math.max(...values);
  const span = max - min || 1;
  const pts = values.map(
      (v, i) => `${(i / (values.length - 1) * w).toFixed(1)},${
          (hgt - 2 - (v - min) / span * (hgt - 4)).toFixed(1)}`);
  svg.append(h('svg:polyline', {points: pts.join(' '), fill: 'none', 'stroke-width': '1.5'}));
  return svg;
}
