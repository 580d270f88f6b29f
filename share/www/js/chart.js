// The charts: uPlot (vendored in share/www/vendor/uplot, loaded on first use, so the
// Market page's first load never carries it) and the three charts drawn with it
// (charts/): the item's price chart, the portfolio's value history, a variant's card.

import {pageStyles} from './api.js';

export {drawChart} from './charts/price.js';
export {valueChartPlan} from './charts/value-span.js';
export {drawValueChart} from './charts/value.js';
export {drawPhaseChart} from './charts/variant.js';

pageStyles('chart');

let loading = null;
/** Loads share/www/vendor/uplot once; resolves to the uPlot constructor. */
export function loadUPlot() {
  if (window.uPlot) return Promise.resolve(window.uPlot);
  if (!loading) {
    loading = new Promise((resolve, reject) => {
      const css = document.createElement('link');
      css.rel = 'stylesheet';
      css.href = '/assets/vendor/uplot/uPlot.min.css';
      document.head.append(css);
      const script = document.createElement('script');
      script.src = '/assets/vendor/uplot/uPlot.iife.min.js';
      script.onload = () => resolve(window.uPlot);
      script.onerror = () => {
        loading = null;
        reject(new Error('the chart library could not be loaded'));
      };
      document.head.append(script);
    });
  }
  return loading;
}
