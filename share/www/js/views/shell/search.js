// The header's type-ahead search: up to 8 suggestions with their price as it arrives,
// arrow keys move, Enter opens, the form's submit searches the Market page.
import {fill, getJson, h, hasVariants, itemImage} from '../../api.js';
import {money} from '../../money.js';
import {navigate} from '../../router.js';

export function startSearch() {
  const form = document.getElementById('search-form');
  const input = document.getElementById('search');
  const list = document.getElementById('search-suggest');
  const box = {input, list, active: -1, seq: 0, timer: null};
  input.addEventListener('input', () => {
    clearTimeout(box.timer);
    box.timer = setTimeout(() => suggest(box), 150);
  });
  input.addEventListener('keydown', (event) => onKey(box, event));
  input.addEventListener('blur', () => setTimeout(() => closeSuggest(box), 150));
  list.addEventListener('click', () => closeSuggest(box));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    closeSuggest(box);
    const q = input.value.trim();
    navigate(q ? `/?q=${encodeURIComponent(q)}` : '/');
  });
}

function closeSuggest(box) {
  box.list.hidden = true;
  box.input.setAttribute('aria-expanded', 'false');
  box.active = -1;
}

async function suggest(box) {
  const q = box.input.value.trim();
  const seq = ++box.seq;
  if (q.length < 2) {
    closeSuggest(box);
    return;
  }
  try {
    const items = await getJson(`/api/v1/items?limit=8&q=${encodeURIComponent(q)}`, 'Search');
    if (seq !== box.seq) return;
    fill(box.list, items.length ? items.map(suggestion) : [h('li', {class: 'muted'},
                                                             'No item matches')]);
    box.list.hidden = false;
    box.input.setAttribute('aria-expanded', 'true');
    box.active = -1;
  } catch (err) {
    fill(box.list, h('li', {class: 'error'}, err.message));
    box.list.hidden = false;
  }
}

/** One option: image, name and the price, filled in when the item's detail arrives. */
function suggestion(item, i) {
  const price = h('span', {class: 'num muted sg-price'}, '…');
  getJson(`/api/v1/items/${item.id}`, 'Price')
      .then((d) => {
        price.textContent = `${hasVariants(d) ? 'from ' : ''}${money(d.current_price)}`;
      })
      .catch(() => {
        price.textContent = 'price unavailable';
      });
  return h(
      'li', {role: 'option', id: `sg-${i}`, 'aria-selected': 'false'},
      h('a', {href: `/items/${item.id}`, 'data-link': '', tabindex: '-1'}, itemImage(item, 'sm'),
        h('span', {class: 'sg-name'}, item.market_hash_name), price));
}

function onKey(box, event) {
  const options = [...box.list.querySelectorAll('[role=option]')];
  if (event.key === 'Escape') {
    closeSuggest(box);
    return;
  }
  if (!options.length || box.list.hidden) return;
  if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
    event.preventDefault();
    const step = event.key === 'ArrowDown' ? 1 : options.length - 1;
    box.active = (box.active + step) % options.length;
    options.forEach((o, i) => o.setAttribute('aria-selected', i === box.active ? 'true' : 'false'));
    box.input.setAttribute('aria-activedescendant', options[box.active].id);
  } else if (event.key === 'Enter' && box.active >= 0) {
    event.preventDefault();
    options[box.active].querySelector('a').click();
    closeSuggest(box);
  }
}
