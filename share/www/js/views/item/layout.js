// The item page's frame: breadcrumbs, head, the variants slot, the chart panel with its
// window tabs, zoom reset and hint, the metrics and the markets panels.
import {fill, h, skeleton} from '../../api.js';
import {navigate} from '../../router.js';
import {windowTabs} from '../common/tabs.js';

import {CHART_WINDOWS, chartHint} from './chart-windows.js';

/** Builds the frame into `view`; returns the slots (page.els). */
export function layout(view, page) {
  const {id, win} = page;
  const els = {
    head: h('section', {class: 'item-head panel'}, skeleton(3)),
    chart:
        h('div', {class: 'chart', id: 'chart', role: 'img', 'aria-label': `Price chart, ${win}`}),
    chartState: h('div', {class: 'chart-state'}, skeleton(4)),
    metrics: h('div', {class: 'metric-cards'}, skeleton(2)),
    markets: h('div', {}, skeleton(3)),
    variants: h('div', {id: 'variants-slot'}),
  };
  fill(
      view,
      h('nav', {class: 'crumbs', 'aria-label': 'Breadcrumb'},
        h('a', {href: '/', 'data-link': ''}, 'Market'), ' / ',
        h('span', {id: 'crumb-name'}, `Item ${id}`)),
      els.head, els.variants,
      h('section', {class: 'panel', 'aria-labelledby': 'chart-h'},
        h('div', {class: 'panel-head'}, h('h2', {id: 'chart-h'}, 'Price'),
          windowTabs(
              win, (w) => navigate(`/items/${id}?window=${w}`, {replace: true}), CHART_WINDOWS),
          resetButton(page)),
        h('p', {class: 'hint'},
          'Drag across the chart to zoom; double-click or “Reset zoom” to go back. ',
          chartHint(win)),
        els.chartState, els.chart),
      h('div', {class: 'grid-2'},
        h('section', {class: 'panel', 'aria-labelledby': 'metrics-h'},
          h('h2', {id: 'metrics-h'}, 'Volatility by window'), els.metrics),
        h('section', {class: 'panel', 'aria-labelledby': 'markets-h'},
          h('div', {class: 'panel-head'}, h('h2', {id: 'markets-h'}, 'Markets'), copyButton()),
          els.markets)));
  return els;
}

function resetButton(page) {
  const reset = () => {
    const plot = page.plot;
    if (plot)
      plot.setScale('x', {
        min: plot.data[0][0],
        max: Math.max(plot.data[0][plot.data[0].length - 1], Date.now() / 1000)
      });
  };
  return h('button', {type: 'button', class: 'btn small', onclick: reset}, 'Reset zoom');
}

function copyButton() {
  const copy =
      h('button', {
        type: 'button',
        class: 'btn small',
        onclick: async () => {
          try {
            await navigator.clipboard.writeText(location.href);
            copy.textContent = 'Link copied';
          } catch {
            copy.textContent = 'Copy failed: select the address bar';
          }
        }
      },
        'Copy link');
  return copy;
}
