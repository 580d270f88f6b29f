// The catalogue search's filters (name, type, rarity as a select and as chips in the
// game's colours, StatTrak™, cards or table); any change navigates to the new address.
import {h, rarityClass} from '../../api.js';
import {navigate} from '../../router.js';

export const RARITIES = [
  'Consumer Grade', 'Industrial Grade', 'Mil-Spec Grade', 'Restricted', 'Classified', 'Covert',
  'Contraband', 'Extraordinary', 'Base Grade', 'High Grade', 'Remarkable', 'Exotic'
];
const TYPES = [
  'AK-47',         'AWP',         'M4A4',       'M4A1-S',   'Desert Eagle', 'USP-S',
  'Glock-18',      'P250',        'Five-SeveN', 'Tec-9',    'CZ75-Auto',    'P2000',
  'Dual Berettas', 'R8 Revolver', 'FAMAS',      'Galil AR', 'AUG',          'SG 553',
  'SSG 08',        'SCAR-20',     'G3SG1',      'MAC-10',   'MP9',          'MP7',
  'MP5-SD',        'UMP-45',      'P90',        'PP-Bizon', 'Nova',         'XM1014',
  'MAG-7',         'Sawed-Off',   'M249',       'Negev',    'Karambit',     'Butterfly Knife',
  'M9 Bayonet',    'Bayonet',     'Gloves',     'Agent',    'Sticker',      'Charm',
  'Container',     'Graffiti',    'Music Kit',  'Patch'
];


export function filtersForm(query) {
  const select = (name, label, values) =>
      h('label', {class: 'field'}, h('span', {}, label),
        h('select', {name}, h('option', {value: name === 'weapon_type' ? 'any' : ''}, 'Any'),
          values.map((v) => h('option', {value: v, selected: query.get(name) === v}, v))));
  const form =
      h('form', {class: 'filters', 'aria-label': 'Filters'},
        h('label', {class: 'field grow'}, h('span', {}, 'Name contains'),
          h('input',
            {type: 'search', name: 'q', value: query.get('q') || '', placeholder: 'e.g. redline'})),
        select('weapon_type', 'Type', TYPES), select('rarity', 'Rarity', RARITIES),
        h('label', {class: 'field'}, h('span', {}, 'StatTrak™'),
          h('select', {name: 'stattrak'}, h('option', {value: ''}, 'Any'),
            h('option', {value: 'true', selected: query.get('stattrak') === 'true'},
              'Only StatTrak™'),
            h('option', {value: 'false', selected: query.get('stattrak') === 'false'},
              'No StatTrak™'))),
        h('label', {class: 'field'}, h('span', {}, 'View'),
          h('select', {name: 'view'}, h('option', {value: 'grid'}, 'Cards'),
            h('option', {value: 'table', selected: query.get('view') === 'table'}, 'Table'))),
        h('button', {class: 'btn', type: 'submit'}, 'Search'));
  const apply = () => {
    const qq = new URLSearchParams();
    for (const [k, v] of new FormData(form))
      if (v && !(k === 'view' && v === 'grid')) qq.set(k, v);
    const m = new URLSearchParams(location.search).get('movers');
    if (m) qq.set('movers', m);
    const s = qq.toString();
    navigate(s ? `/?${s}` : '/');
  };
  // Rarity as chips in the game's colours (the select above stays for keyboards and
  // screen readers that prefer it; both drive the same filter).
  const raritySelect = form.querySelector('select[name=rarity]');
  const chips =
      h('div', {class: 'chips', role: 'group', 'aria-label': 'Rarity'},
        RARITIES.slice(0, 8).map(
            (r) =>
                h('button', {
                  type: 'button',
                  class: `chip rarity ${rarityClass(r)}`,
                  'aria-pressed': query.get('rarity') === r ? 'true' : 'false',
                  onclick: () => {
                    raritySelect.value = raritySelect.value === r ? '' : r;
                    apply();
                  },
                },
                  r)));
  form.append(chips);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    apply();
  });
  form.querySelectorAll('select').forEach((s) => s.addEventListener('change', apply));
  return form;
}
