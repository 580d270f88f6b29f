// What the shell knows and pages read: the daemon's readiness (kept by the status strip,
// views/shell/strip.js) and changes of the signed-in user (a page that signs out tells
// the header's user slot). Pages import this, never the shell, so imports run one way.

let current = null;
const listeners = new EventTarget();

/** The last readiness (/readyz plus the polled sources), null before the first answer. */
export function readiness() {
  return current;
}

/** Stores `value` and tells the pages (event "readiness" on document, as before). */
export function setReadiness(value) {
  current = value;
  const e = new Event('readiness');
  e.detail = value;
  if (value && typeof document !== 'undefined') document.dispatchEvent(e);
}

/**
 * A source is fresh when it succeeded within three of its intervals (the daemon says so
 * itself since docs/api.md §12; computed here for an older daemon).
 */
export function isFresh(source, now = Date.now()) {
  if (typeof source.fresh === 'boolean') return source.fresh;
  if (!source.last_success) return false;
  const age = (now - Date.parse(source.last_success)) / 1000;
  return age <= Math.max(3 * (source.interval_seconds || 60), 60);
}

/** Calls `fn` whenever a page signs the user in or out. */
export function onUserChange(fn) {
  listeners.addEventListener('user', fn);
}

/** Says the signed-in user changed (the header's user slot refreshes). */
export function userChanged() {
  listeners.dispatchEvent(new Event('user'));
}
