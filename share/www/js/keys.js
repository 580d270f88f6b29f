// API keys (docs/api.md §21): the calls of the keys panel and the words it shows. No DOM,
// so node --test covers it (tests/js/keys.test.mjs); views/portfolio/keys.js draws it.
import {ago, ApiError, count, getJson, send} from './api.js';

export const MAX_NAME_BYTES = 64;

const WORDS = {
  api_key_limit: 'You hold the most keys allowed; revoke one first.',
  invalid_api_key_name: 'That name cannot be used: 1 to 64 characters, no control characters.',
  api_key_not_found: 'That key was already revoked.',
};

/** Why `name` cannot name a key (the server's rule), or null. */
export function nameProblem(name) {
  const text = String(name || '').trim();
  if (!text) return 'Give the key a name.';
  if (new TextEncoder().encode(text).length > MAX_NAME_BYTES)
    return `At most ${MAX_NAME_BYTES} bytes.`;
  // Control characters (C0, DEL, C1) are refused by the server too.
  if (/[\u0000-\u001f\u007f-\u009f]/.test(text)) return 'No control characters.';
  return null;
}

// The key panel's codes in words; anything else as api.js words it.
function worded(err) {
  if (err instanceof ApiError && WORDS[err.code]) {
    return new ApiError(WORDS[err.code], err.status, err.code, err.response);
  }
  return err;
}

/** {limit, keys: [...]}, oldest first. */
export async function listKeys() {
  return getJson('/api/v1/keys', 'API keys');
}

/** Creates a key; resolves to {id, name, prefix, key, created_at}: `key` only this once. */
export async function createKey(name) {
  try {
    return (await send('POST', '/api/v1/keys', {name: String(name).trim()}, 'Creating the key'))
        .data;
  } catch (err) {
    throw worded(err);
  }
}

export async function revokeKey(id) {
  try {
    await send('DELETE', `/api/v1/keys/${encodeURIComponent(id)}`, undefined, 'Revoking the key');
  } catch (err) {
    throw worded(err);
  }
}

/** "1,234 reads · 5 refused · used 2 min ago" */
export function usageLine(key) {
  const parts = [`${count(key.requests)} ${key.requests === 1 ? 'read' : 'reads'}`];
  if (key.rate_limited) parts.push(`${count(key.rate_limited)} over the limit`);
  parts.push(key.last_used_at ? `used ${ago(key.last_used_at)}` : 'never used');
  return parts.join(' · ');
}

/** How to send the key: a command a user can paste. */
export function curlExample(key, origin) {
  return `curl -H 'Authorization: Bearer ${key}' ${origin}/api/v1/items?limit=1`;
}

/** Whether one more key may be created. */
export function canCreate(list) {
  return !!list && list.keys.length < list.limit;
}
