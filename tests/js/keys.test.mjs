// The API keys panel's calls and words (share/www/js/keys.js, docs/api.md §21): the
// requests it makes (CSRF token, JSON body, the id escaped), the refusals in words, the
// name rule the server applies, the usage line. A tiny fake fetch stands in for the daemon.
import assert from 'node:assert/strict';
import {test} from 'node:test';

import {ApiError} from '../../share/www/js/api.js';
import {
  canCreate,
  createKey,
  curlExample,
  listKeys,
  nameProblem,
  revokeKey,
  usageLine
} from '../../share/www/js/keys.js';

import {calls, fakeFetch} from './fake-fetch.mjs';


const problem = (status, code) => ({
  status,
  type: 'application/problem+json',
  body: {type: 'about:blank', title: 'x', status, code, detail: 'the server says'}
});

test('the list is a GET of /api/v1/keys', async () => {
  fakeFetch({body: {limit: 10, keys: []}});
  assert.deepEqual(await listKeys(), {limit: 10, keys: []});
  assert.equal(calls[0].path, '/api/v1/keys');
  assert.equal(calls[0].init.method, 'GET');
});

test('creating sends the trimmed name as JSON with the CSRF token', async () => {
  // The first write fetches the token (api.js keeps it for the page's life).
  fakeFetch({body: {csrf_token: 'tok'}}, {
    status: 201,
    body: {
      id: 'a',
      name: 'ci',
      prefix: 'spk_abcdefgh',
      key: 'spk_x',
      created_at: '2026-11-28T10:00:00Z'
    }
  });
  const created = await createKey('  ci ');
  assert.equal(created.key, 'spk_x');
  const post = calls.at(-1);
  assert.equal(post.path, '/api/v1/keys');
  assert.equal(post.init.method, 'POST');
  assert.equal(post.init.headers['X-CSRF-Token'], 'tok');
  assert.equal(post.init.headers['Content-Type'], 'application/json');
  assert.deepEqual(JSON.parse(post.init.body), {name: 'ci'});
});

test('the limit and a refused name are said in words', async () => {
  fakeFetch(problem(409, 'api_key_limit'));
  await assert.rejects(createKey('x'), (err) => {
    assert.ok(err instanceof ApiError);
    assert.equal(err.code, 'api_key_limit');
    assert.match(err.message, /revoke one first/);
    return true;
  });
  fakeFetch(problem(422, 'invalid_api_key_name'));
  await assert.rejects(createKey('x'), /cannot be used/);
});

test('revoking is a DELETE of the escaped id; an unknown one is said in words', async () => {
  fakeFetch({status: 204});
  await revokeKey('a/b');
  assert.equal(calls[0].path, '/api/v1/keys/a%2Fb');
  assert.equal(calls[0].init.method, 'DELETE');
  assert.equal(calls[0].init.body, undefined);
  fakeFetch(problem(404, 'api_key_not_found'));
  await assert.rejects(revokeKey('a'), /already revoked/);
});

test('names follow the server rule', () => {
  assert.equal(nameProblem('grafana'), null);
  assert.equal(nameProblem('  spaced  '), null);
  assert.equal(nameProblem('Ü'.repeat(32)), null);  // 64 bytes
  assert.match(nameProblem(''), /name/);
  assert.match(nameProblem('   '), /name/);
  assert.match(nameProblem('x'.repeat(65)), /64 bytes/);
  assert.match(nameProblem('Ü'.repeat(33)), /64 bytes/);
  assert.match(nameProblem('a\u0007b'), /control/);
  assert.match(nameProblem('a\u0085b'), /control/);
});

test('usage, the example and the create button', () => {
  assert.equal(
      usageLine({requests: 0, rate_limited: 0, last_used_at: null}), '0 reads · never used');
  const used = usageLine(
      {requests: 1, rate_limited: 2, last_used_at: new Date(Date.now() - 120000).toISOString()});
  assert.match(used, /^1 read · 2 over the limit · used /);
  assert.equal(
      curlExample('spk_k', 'https://x.test'),
      `curl -H 'Authorization: Bearer spk_k' https://x.test/api/v1/items?limit=1`);
  assert.equal(canCreate({limit: 2, keys: [{}]}), true);
  assert.equal(canCreate({limit: 2, keys: [{}, {}]}), false);
  assert.equal(canCreate(null), false);
});
