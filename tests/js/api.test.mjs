// The API helpers (share/www/js/api.js): a failed request becomes an ApiError whose
// message says what failed in words (RFC 9457 problem `code` → words, else its detail),
// price endpoints get `currency=`, the CSRF token is fetched once and sent. A tiny fake
// fetch stands in for the daemon.
import assert from 'node:assert/strict';
import {beforeEach, test} from 'node:test';

import {
  ApiError,
  getJson,
  PLACEHOLDER_CHARS,
  placeholderLabel,
  pricedPath,
  request,
  send
} from '../../share/www/js/api.js';

import {calls, fakeFetch} from './fake-fetch.mjs';


beforeEach(() => fakeFetch());

test('a 2xx JSON answer resolves to its data and the response', async () => {
  fakeFetch({body: [{id: 1}]});
  const {data, response} = await request('/api/v1/items?limit=1', {what: 'Search'});
  assert.deepEqual(data, [{id: 1}]);
  assert.equal(response.status, 200);
  assert.equal(calls[0].init.credentials, 'same-origin');
  assert.equal(calls[0].init.method, 'GET');
});

test('a problem with a known code says it in words, with the status', async () => {
  fakeFetch({
    status: 404,
    body: {
      type: 'about:blank',
      title: 'Not Found',
      status: 404,
      code: 'item_not_found',
      detail: 'no item 9'
    },
    type: 'application/problem+json'
  });
  await assert.rejects(request('/api/v1/items/9', {what: 'Item'}), (err) => {
    assert.ok(err instanceof ApiError);
    assert.equal(err.message, 'Item: This item is not in the catalogue. (HTTP 404)');
    assert.equal(err.status, 404);
    assert.equal(err.code, 'item_not_found');
    assert.ok(err.response);
    return true;
  });
});

test(
    'a problem with an unknown code shows its detail, then its title, then the status text',
    async () => {
      fakeFetch({
        status: 400,
        body:
            {title: 'Bad Request', code: 'invalid_window', detail: 'window must be 1h, 24h or 7d'},
        type: 'application/problem+json'
      });
      await assert.rejects(
          request('/x', {what: 'Rankings'}),
          {message: 'Rankings: window must be 1h, 24h or 7d (HTTP 400)', code: 'invalid_window'});
      fakeFetch({status: 400, body: {title: 'Bad Request'}, type: 'application/problem+json'});
      await assert.rejects(request('/x'), {message: 'Bad Request (HTTP 400)'});
      fakeFetch({status: 502, statusText: 'Bad Gateway', body: 'not json', type: 'text/plain'});
      await assert.rejects(request('/x'), {message: 'Bad Gateway (HTTP 502)', status: 502});
    });

test('an unreachable server is a network error, not a crash', async () => {
  fakeFetch(new TypeError('Failed to fetch'));
  await assert.rejects(
      request('/x', {what: 'Status'}),
      {message: 'Status failed: the server is unreachable.', status: 0, code: 'network'});
});

test('204 has no body to parse', async () => {
  fakeFetch({status: 204});
  const {data} = await request('/x', {method: 'DELETE'});
  assert.equal(data, null);
});

test('price endpoints carry currency=, others do not', () => {
  const eur = {code: 'EUR', exponent: 2, numerator: 95, denominator: 100};
  assert.equal(pricedPath('/api/v1/items/5', eur), '/api/v1/items/5?currency=EUR');
  assert.equal(
      pricedPath('/api/v1/items/5/candles?window=24h', eur),
      '/api/v1/items/5/candles?window=24h&currency=EUR');
  assert.equal(
      pricedPath('/api/v1/rankings/spread?limit=100', eur),
      '/api/v1/rankings/spread?limit=100&currency=EUR');
  assert.equal(
      pricedPath('/api/v1/portfolio/history?window=7d', eur),
      '/api/v1/portfolio/history?window=7d&currency=EUR');
  assert.equal(pricedPath('/api/v1/items?q=ak', eur), '/api/v1/items?q=ak');
  assert.equal(pricedPath('/api/v1/sources', eur), '/api/v1/sources');
  assert.equal(pricedPath('/api/v1/items/5', {code: 'USD'}), '/api/v1/items/5');
});

test('getJson asks in the chosen currency (USD by default) and returns the data', async () => {
  fakeFetch({body: {id: 5, current_price: 1234}});
  assert.deepEqual(await getJson('/api/v1/items/5', 'Item'), {id: 5, current_price: 1234});
  assert.equal(calls[0].path, '/api/v1/items/5');
});

test('send fetches the CSRF token once and sends it with a JSON body', async () => {
  fakeFetch({body: {csrf_token: 't0k'}}, {body: {ok: true}}, {status: 204});
  await send('PATCH', '/api/v1/portfolio/holdings/5', {cost_basis: 100}, 'Saving');
  await send('DELETE', '/api/v1/alerts/2', undefined, 'Deleting');
  assert.equal(calls.length, 3);
  assert.equal(calls[0].path, '/api/v1/auth/csrf');
  assert.equal(calls[1].init.headers['X-CSRF-Token'], 't0k');
  assert.equal(calls[1].init.headers['Content-Type'], 'application/json');
  assert.equal(calls[1].init.body, '{"cost_basis":100}');
  assert.equal(calls[2].init.headers['X-CSRF-Token'], 't0k');
  assert.equal(calls[2].init.body, undefined);
});

// An item tile without an image names the type in a label that fits the tile (never a
// clipped "ARAMBI" or a wrapped "DESERT EAGLE").
const TYPES = [
  'AK-47',
  'AUG',
  'AWP',
  'CZ75-Auto',
  'Desert Eagle',
  'Dual Berettas',
  'FAMAS',
  'Five-SeveN',
  'G3SG1',
  'Galil AR',
  'Glock-18',
  'M249',
  'M4A1-S',
  'M4A4',
  'MAC-10',
  'MAG-7',
  'MP5-SD',
  'MP7',
  'MP9',
  'Negev',
  'Nova',
  'P2000',
  'P250',
  'P90',
  'PP-Bizon',
  'R8 Revolver',
  'Sawed-Off',
  'SCAR-20',
  'SG 553',
  'SSG 08',
  'Tec-9',
  'UMP-45',
  'USP-S',
  'XM1014',
  'Zeus x27',
  'Karambit',
  'Bayonet',
  'M9 Bayonet',
  'Butterfly Knife',
  'Shadow Daggers',
  'Skeleton Knife',
  'Sport Gloves',
  'Container',
  'Sticker',
  'Sealed Graffiti',
  'Music Kit',
  'Patch',
  'Agent',
  'Operation Riptide Case',
  'Kilowatt Case',
  '',
  'Thisisaverylongtypewithoutspaces'
];

test('a placeholder label never exceeds its tile, at any size', () => {
  for (const [size, max] of Object.entries(PLACEHOLDER_CHARS)) {
    for (const type of TYPES) {
      const label = placeholderLabel(type, max);
      assert.ok(label.length >= 1 && label.length <= max, `${size} ${type} -> ${label}`);
    }
  }
});

test('a type that fits is shown whole; one that does not, as a trader would shorten it', () => {
  const sm = PLACEHOLDER_CHARS.sm;
  assert.equal(placeholderLabel('AWP', sm), 'AWP');
  assert.equal(placeholderLabel('AK-47', sm), 'AK-47');
  assert.equal(placeholderLabel('Karambit', PLACEHOLDER_CHARS.lg), 'Karambit');
  assert.equal(placeholderLabel('Desert Eagle', PLACEHOLDER_CHARS.lg), 'Desert Eagle');
  assert.equal(placeholderLabel('Karambit', sm), 'Kara');
  assert.equal(placeholderLabel('Desert Eagle', sm), 'DE');
  assert.equal(placeholderLabel('M4A1-S', sm), 'M4A1S');  // still not an M4A4
  assert.equal(placeholderLabel('SSG 08', sm), 'SSG');
  assert.equal(placeholderLabel('Glock-18', sm), 'Glock');
  assert.equal(placeholderLabel('Container', sm), 'Case');
  assert.equal(placeholderLabel('Butterfly Knife', PLACEHOLDER_CHARS.md), 'Butterfly');
  assert.equal(placeholderLabel('Skeleton Knife', sm), 'Skel.');
  assert.equal(placeholderLabel('', sm), 'Item');
});
