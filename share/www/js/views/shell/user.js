// The header's user slot: "Sign in", or the signed-in name; refreshed when a page signs
// the user in or out (session.js userChanged).
import {currentUser, fill, h} from '../../api.js';
import {onUserChange} from '../../session.js';

export function startUserSlot() {
  onUserChange(refreshUser);
  refreshUser();
}

async function refreshUser() {
  const slot = document.getElementById('user-slot');
  try {
    const me = await currentUser();
    if (!me) {
      fill(slot, h('a', {href: '/portfolio', 'data-link': '', class: 'btn small'}, 'Sign in'));
    } else {
      fill(
          slot,
          h('a', {href: '/portfolio', 'data-link': '', class: 'user-name'},
            me.name || me.email || 'Signed in'));
    }
  } catch (err) {
    fill(slot, h('span', {class: 'warn', title: err.message}, 'Account unavailable'));
  }
}
