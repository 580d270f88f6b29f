// A group of toggle buttons, one per window ("1h", "24h", …), the current one pressed.
import {h} from '../../api.js';

export const WINDOWS = ['1h', '24h', '7d'];

export function windowTabs(current, onChange, windows = WINDOWS) {
  return h(
      'div', {class: 'tabs', role: 'group', 'aria-label': 'Window'},
      windows.map(
          (w) =>
              h('button', {
                type: 'button',
                class: 'tab',
                'aria-pressed': w === current ? 'true' : 'false',
                onclick: () => onChange(w)
              },
                w)));
}
