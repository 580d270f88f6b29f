// The Portfolio page's API keys panel (docs/api.md §21): create a key (shown once, with a
// copy button and how to send it), the keys with their usage, revoke. Only for a
// signed-in user; the calls and words are keys.js's.
import {emptyBox, errorBox, fill, h, timeEl} from '../../api.js';
import {
  canCreate,
  createKey,
  curlExample,
  listKeys,
  nameProblem,
  revokeKey,
  usageLine
} from '../../keys.js';

/** page: {alive, els: {keys}}. Loads and draws the panel. */
export async function loadKeys(page) {
  const panel = page.els.keys;
  panel.hidden = false;
  let list;
  try {
    list = await listKeys();
  } catch (err) {
    fill(panel, heading(), errorBox(err, () => loadKeys(page)));
    return;
  }
  if (!page.alive) return;
  drawKeys(page, list, page.shownKey || null);
}

function heading() {
  return h('h2', {id: 'keys-h'}, 'API keys');
}

function drawKeys(page, list, shown) {
  const message =
      h('p', {class: 'muted', id: 'keys-message', role: 'status', 'aria-live': 'polite'});
  fill(
      page.els.keys, heading(),
      h('p', {class: 'muted'},
        'A key lets your scripts read prices at a higher rate. It is not a sign-in: it cannot ',
        'see your portfolio or change anything.'),
      shown ? shownBox(shown) : null, createForm(page, list, message), message,
      list.keys.length ? keyTable(page, list) : emptyBox('No keys yet.'));
}

function shownBox(created) {
  const field = h('input', {
    type: 'text',
    id: 'new-key',
    class: 'key-secret',
    readonly: true,
    value: created.key,
    'aria-label': 'Your new API key'
  });
  const copied = h('span', {class: 'muted', 'aria-live': 'polite'});
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.key);
      copied.textContent = 'Copied.';
    } catch {
      field.select();
      copied.textContent = 'Select and copy it by hand.';
    }
  };
  return h(
      'div', {class: 'key-shown', role: 'alert'},
      h('p', {}, h('strong', {}, `Your key “${created.name}”. `),
        'Copy it now: it is shown only this once.'),
      h('div', {class: 'buttons'}, field,
        h('button', {type: 'button', class: 'btn small', id: 'copy-key', onclick: copy}, 'Copy'),
        copied),
      h('p', {class: 'muted small'}, 'Send it as ',
        h('code', {}, curlExample(created.key, location.origin))));
}

function createForm(page, list, message) {
  const input = h('input', {
    type: 'text',
    id: 'key-name',
    name: 'name',
    maxlength: 64,
    placeholder: 'What the key is for',
    'aria-label': 'Key name'
  });
  const button =
      h('button',
        {type: 'submit', class: 'btn primary', id: 'create-key', disabled: !canCreate(list)},
        'Create key');
  const submit = async (event) => {
    event.preventDefault();
    const problem = nameProblem(input.value);
    if (problem) {
      message.textContent = problem;
      return;
    }
    button.disabled = true;
    try {
      page.shownKey = await createKey(input.value);
    } catch (err) {
      message.textContent = err.message;
      button.disabled = false;
      return;
    }
    await loadKeys(page);
    page.shownKey = null;  // shown once: a later reload of the panel no longer has it
  };
  return h(
      'form', {class: 'buttons', id: 'key-form', onsubmit: submit}, input, button,
      canCreate(list) ? null : h('span', {class: 'muted'}, `At most ${list.limit} keys.`));
}

function keyTable(page, list) {
  return h(
      'table', {class: 'keys', id: 'keys-table'},
      h('thead', {},
        h('tr', {}, ['Name', 'Key', 'Created', 'Usage', ''].map((t) => h('th', {}, t)))),
      h('tbody', {}, list.keys.map((key) => keyRow(page, key))));
}

function keyRow(page, key) {
  const revoke = async (event) => {
    if (!window.confirm(`Revoke “${key.name}”? Scripts using it stop working.`)) return;
    event.target.disabled = true;
    try {
      await revokeKey(key.id);
    } catch (err) {
      event.target.disabled = false;
      fill(page.els.keys.querySelector('#keys-message'), err.message);
      return;
    }
    loadKeys(page);
  };
  return h(
      'tr', {dataset: {key: key.id}}, h('td', {}, key.name),
      h('td', {}, h('code', {}, `${key.prefix}…`)), h('td', {}, timeEl(key.created_at)),
      h('td', {class: 'usage'}, usageLine(key)),
      h('td', {},
        h('button', {type: 'button', class: 'btn small danger', onclick: revoke}, 'Revoke')));
}
