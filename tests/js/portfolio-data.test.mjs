// The Portfolio's depth (share/www/js/portfolio-data.js, docs/api.md §23): the requests the
// page makes (paths, CSRF token, bodies), the refusals in words, and the rules it shows
// (the applied percent, chips grouped, accounts merged and named, the CSV report's
// words, the import's per-account outcome). A tiny fake fetch stands in for the daemon.
import assert from 'node:assert/strict';
import {before, test} from 'node:test';

import {ApiError, csrf} from '../../share/www/js/api.js';
import {
  accountName,
  APPLIED_PERCENT_KEY,
  clock,
  cooldownsOf,
  csvFileProblem,
  exportPath,
  forgetDeparture,
  groupApplied,
  hasApplied,
  importInventory,
  importSummary,
  labelAccount,
  labelProblem,
  linkedAccounts,
  loadPortfolio,
  MAX_CSV_BYTES,
  mergeAccounts,
  parseAppliedPercent,
  portfolioPath,
  reportSummary,
  sendCostCsv,
  setSalePrice,
  storeAppliedPercent,
  storedAppliedPercent,
  unlinkAccount
} from '../../share/www/js/portfolio-data.js';

import {calls, fakeFetch} from './fake-fetch.mjs';


const problem = (status, code, detail = 'the server says') => ({
  status,
  type: 'application/problem+json',
  body: {type: 'about:blank', title: 'x', status, code, detail}
});

class MemoryStorage {
  constructor() {
    this.map = new Map();
  }
  getItem(k) {
    return this.map.has(k) ? this.map.get(k) : null;
  }
  setItem(k, v) {
    this.map.set(k, String(v));
  }
  removeItem(k) {
    this.map.delete(k);
  }
}

before(async () => {
  // api.js fetches the CSRF token once for the page's life: every write below sends it.
  fakeFetch({body: {csrf_token: 'tok'}});
  assert.equal(await csrf(), 'tok');
});

test('the applied percent is a whole number from 0 to 100', () => {
  assert.equal(parseAppliedPercent('0'), 0);
  assert.equal(parseAppliedPercent(' 40 '), 40);
  assert.equal(parseAppliedPercent('100%'), 100);
  for (const bad of ['101', '-1', '12.5', '', 'abc', null, undefined, '1e2'])
    assert.equal(parseAppliedPercent(bad), null, String(bad));
});

test('the chosen percent is kept in the browser, and forgotten', () => {
  const storage = new MemoryStorage();
  assert.equal(storedAppliedPercent(storage), null);
  storeAppliedPercent(35, storage);
  assert.equal(storage.getItem(APPLIED_PERCENT_KEY), '35');
  assert.equal(storedAppliedPercent(storage), 35);
  storage.setItem(APPLIED_PERCENT_KEY, '250');  // edited by hand: not a percent
  assert.equal(storedAppliedPercent(storage), null);
  storeAppliedPercent(null, storage);
  assert.equal(storage.getItem(APPLIED_PERCENT_KEY), null);
  assert.equal(
      storedAppliedPercent({
        getItem() {
          throw new Error('private mode');
        }
      }),
      null);
});

test(
    'the portfolio is asked with the account filter and the percent only when chosen', async () => {
      assert.equal(portfolioPath(), '/api/v1/portfolio');
      assert.equal(portfolioPath({account: '', percent: null}), '/api/v1/portfolio');
      assert.equal(portfolioPath({percent: 0}), '/api/v1/portfolio?applied_value_percent=0');
      assert.equal(
          portfolioPath({account: '76561197960400001', percent: 40}),
          '/api/v1/portfolio?account=76561197960400001&applied_value_percent=40');
      fakeFetch({body: {holdings: []}});
      assert.deepEqual(await loadPortfolio({account: '7656', percent: 10}), {holdings: []});
      assert.equal(calls[0].path, '/api/v1/portfolio?account=7656&applied_value_percent=10');
      assert.equal(exportPath(), '/api/v1/portfolio.csv');
      assert.equal(exportPath('7656'), '/api/v1/portfolio.csv?account=7656');
    });

test('an unknown account filter is refused in words', async () => {
  fakeFetch(problem(404, 'not_found'));
  await assert.rejects(loadPortfolio({account: '1'}), (err) => {
    assert.ok(err instanceof ApiError);
    assert.equal(err.code, 'not_found');
    assert.match(err.message, /no longer yours/);
    return true;
  });
});

test('applied items are grouped for chips: stickers by slot, then charms', () => {
  const applied = [
    {kind: 'charm', slot: 0, item_id: 9001, name: 'Charm | Baby Karat T', current_price: 120},
    {kind: 'sticker', slot: 3, item_id: 5013, name: 'Sticker | Crown (Foil)', current_price: 9000},
    {
      kind: 'sticker',
      slot: 0,
      item_id: 5012,
      name: 'Sticker | Titan (Holo) | Katowice 2014',
      current_price: 100
    },
    {
      kind: 'sticker',
      slot: 1,
      item_id: 5012,
      name: 'Sticker | Titan (Holo) | Katowice 2014',
      current_price: 100
    },
    {
      kind: 'sticker',
      slot: 2,
      item_id: null,
      name: 'Sticker | Gone, Not Listed',
      current_price: null
    },
  ];
  const groups = groupApplied(applied);
  assert.deepEqual(groups.map((g) => [g.kind, g.short, g.count, g.slots]), [
    ['sticker', 'Titan (Holo) | Katowice 2014', 2, [0, 1]],
    ['sticker', 'Gone, Not Listed', 1, [2]],
    ['sticker', 'Crown (Foil)', 1, [3]],
    ['charm', 'Baby Karat T', 1, [0]],
  ]);
  assert.equal(groups[1].item_id, null);
  assert.equal(groups[1].current_price, null);
  assert.deepEqual(groupApplied(undefined), []);
  assert.deepEqual(groupApplied([]), []);
});

test('a portfolio has applied items when a holding or a departure carries some', () => {
  assert.equal(hasApplied(null), false);
  assert.equal(hasApplied({holdings: [{applied: []}]}), false);
  assert.equal(hasApplied({holdings: [{}]}), false);  // an older daemon: no field
  assert.equal(hasApplied({holdings: [{applied: [{kind: 'sticker'}]}]}), true);
  assert.equal(hasApplied({holdings: [], left_holdings: [{applied: [{kind: 'charm'}]}]}), true);
});

test('linked accounts come from gameids, else the one gameid of an older daemon', () => {
  const a = {platform_id: '1', label: '', linked_at: 'x'};
  assert.deepEqual(linkedAccounts(null), []);
  assert.deepEqual(linkedAccounts({gameid: null}), []);
  assert.deepEqual(linkedAccounts({gameid: a}), [a]);
  assert.deepEqual(linkedAccounts({gameid: a, gameids: [a, {platform_id: '2'}]}).length, 2);
});

test('an account is named by its label and the last four digits of its id', () => {
  assert.equal(accountName('76561197960400001'), 'Account …0001');
  assert.equal(accountName('76561197960400002', 'storage'), 'storage (…0002)');
});

test('a label is at most 40 printable characters', () => {
  assert.equal(labelProblem(''), null);
  assert.equal(labelProblem('storage'), null);
  assert.equal(labelProblem('x'.repeat(40)), null);
  assert.match(labelProblem('x'.repeat(41)), /At most 40/);
  assert.equal(labelProblem('ü'.repeat(40)), null);  // characters, not bytes
  assert.match(labelProblem('a\tb'), /control/);
});

test('accounts merge the links (oldest first) with the portfolio figures', () => {
  const linked = [
    {platform_id: '1', label: 'main', linked_at: '2026-01-01T00:00:00Z'},
    {platform_id: '2', label: '', linked_at: '2026-02-01T00:00:00Z'},
  ];
  const figures = [
    {account: '2', label: 'storage', item_count: 3, total_value: 900, last_imported_at: 't2'},
    {account: '3', label: '', item_count: 1, total_value: 5, last_imported_at: null},
  ];
  assert.deepEqual(mergeAccounts(linked, figures), [
    {
      account: '1',
      label: 'main',
      linked_at: '2026-01-01T00:00:00Z',
      item_count: 0,
      total_value: 0,
      last_imported_at: null
    },
    {
      account: '2',
      label: 'storage',
      linked_at: '2026-02-01T00:00:00Z',
      item_count: 3,
      total_value: 900,
      last_imported_at: 't2'
    },
    {
      account: '3',
      label: '',
      linked_at: null,
      item_count: 1,
      total_value: 5,
      last_imported_at: null
    },
  ]);
  assert.deepEqual(mergeAccounts([], undefined), []);
});

test('naming and unlinking an account send the token to its own path', async () => {
  fakeFetch({body: {platform_id: '7656', label: 'storage', linked_at: 't'}}, {status: 204});
  assert.equal((await labelAccount('7656', '  storage ')).label, 'storage');
  assert.equal(calls[0].path, '/api/v1/auth/gameid/7656');
  assert.equal(calls[0].init.method, 'PATCH');
  assert.equal(calls[0].init.headers['X-CSRF-Token'], 'tok');
  assert.deepEqual(JSON.parse(calls[0].init.body), {label: 'storage'});
  await unlinkAccount('7656');
  assert.equal(calls[1].path, '/api/v1/auth/gameid/7656');
  assert.equal(calls[1].init.method, 'DELETE');
  fakeFetch(problem(404, 'not_found'));
  await assert.rejects(unlinkAccount('9'), /no longer yours/);
});

test('an import asks one account or every one, and says what each did', async () => {
  const answer = {
    message: 'Imported 5 assets',
    imported_assets: 5,
    unmatched_assets: 1200,
    accounts: [
      {
        account: '76561197960400001',
        status: 'imported',
        imported_assets: 5,
        unmatched_assets: 1200
      },
      {
        account: '76561197960400002',
        status: 'failed',
        code: 'import_cooldown',
        detail: 'wait',
        retry_after: 42
      },
      {
        account: '76561197960400003',
        status: 'failed',
        code: 'inventory_private',
        detail: 'It is private'
      },
    ]
  };
  fakeFetch({body: answer}, {body: answer});
  await importInventory();
  assert.equal(calls[0].path, '/api/v1/portfolio/import');
  assert.equal(calls[0].init.method, 'POST');
  assert.equal(calls[0].init.headers['X-CSRF-Token'], 'tok');
  const {data} = await importInventory('76561197960400002');
  assert.equal(calls[1].path, '/api/v1/portfolio/import?account=76561197960400002');
  const summary = importSummary(data, (a) => accountName(a, a.endsWith('2') ? 'storage' : ''));
  assert.match(summary, /^Imported 5 assets\. /);
  assert.match(summary, /1,200 assets are not in the catalogue/);
  assert.match(summary, /storage \(…0002\): next import in 0:42\./);
  assert.match(summary, /Account …0003: It is private\./);
  assert.doesNotMatch(summary, /…0001/);
  assert.deepEqual(cooldownsOf(data, 1000), [{account: '76561197960400002', until: 43000}]);
  assert.deepEqual(cooldownsOf({message: 'x'}), []);
});

test('an import refused for every account keeps the first account\'s error', async () => {
  fakeFetch({...problem(429, 'import_cooldown'), headers: {'Retry-After': '42'}});
  await assert.rejects(importInventory(), (err) => {
    assert.equal(err.status, 429);
    assert.equal(err.code, 'import_cooldown');
    assert.equal(err.response.headers.get('Retry-After'), '42');
    return true;
  });
});

test('clock counts minutes and seconds', () => {
  assert.equal(clock(42), '0:42');
  assert.equal(clock(605), '10:05');
  assert.equal(clock(0.2), '0:01');
  assert.equal(clock(-3), '0:00');
});

test('a CSV file over 1 MiB or empty is refused before it is sent', () => {
  assert.match(csvFileProblem(null), /Choose/);
  assert.match(csvFileProblem({size: 0}), /empty/);
  assert.equal(csvFileProblem({size: MAX_CSV_BYTES}), null);
  assert.match(csvFileProblem({size: MAX_CSV_BYTES + 1}), /1 MiB/);
});

const REPORT = {
  dry_run: true,
  rows: [
    {
      line: 2,
      market_hash_name: 'AK-47 | Redline (Field-Tested)',
      item_id: 7,
      quantity: 2,
      cost_each: 1250,
      currency: 'EUR',
      acquired_at: null,
      status: 'matched'
    },
    {
      line: 3,
      market_hash_name: 'Nope',
      item_id: null,
      quantity: 1,
      cost_each: 100,
      currency: 'USD',
      acquired_at: null,
      status: 'refused',
      code: 'unknown_item',
      detail: 'not in the catalogue'
    },
  ],
  items: [{
    item_id: 7,
    market_hash_name: 'AK-47 | Redline (Field-Tested)',
    quantity: 2,
    cost_basis: 1316,
    acquired_at: null,
    previous_cost_basis: null
  }],
  matched_rows: 1,
  refused_rows: 1
};

test('the cost CSV is previewed as a dry run, then applied, as text/csv with the token', async () => {
  const text =
      'market_hash_name,quantity,cost_each,currency\nAK-47 | Redline (Field-Tested),2,12.50,EUR\n';
  fakeFetch({body: REPORT}, {body: {...REPORT, dry_run: false}});
  assert.equal((await sendCostCsv(text, true)).dry_run, true);
  assert.equal(calls[0].path, '/api/v1/portfolio/cost-basis.csv?dry_run=true');
  assert.equal(calls[0].init.method, 'POST');
  assert.equal(calls[0].init.body, text);
  assert.equal(calls[0].init.headers['Content-Type'], 'text/csv; charset=utf-8');
  assert.equal(calls[0].init.headers['X-CSRF-Token'], 'tok');
  assert.equal((await sendCostCsv(text, false)).dry_run, false);
  assert.equal(calls[1].path, '/api/v1/portfolio/cost-basis.csv');
  assert.deepEqual(reportSummary(REPORT), {line: '1 row match, 1 refused', apply: 'Apply 1 row'});
  assert.equal(reportSummary({matched_rows: 3, refused_rows: 0}).apply, 'Apply 3 rows');
});

test(
    'a malformed CSV keeps the line the server names; the cap and an empty match in words',
    async () => {
      fakeFetch(problem(400, 'invalid_csv', 'line 3: a quote is not closed'));
      await assert.rejects(sendCostCsv('x', true), /line 3: a quote is not closed/);
      fakeFetch(problem(413, 'payload_too_large'));
      await assert.rejects(sendCostCsv('x', true), /larger than 1 MiB/);
      fakeFetch(problem(422, 'csv_nothing_to_apply'));
      await assert.rejects(sendCostCsv('x', false), /nothing was saved/);
    });

test('a sale price is PATCHed per departure, null clears it; "not sold" deletes it', async () => {
  fakeFetch(
      {body: {departure_id: 7, sale_price: 1300, realised_pl: 600}},
      {body: {departure_id: 7, sale_price: null}}, {status: 204});
  assert.equal((await setSalePrice(7, 1300)).realised_pl, 600);
  assert.equal(calls[0].path, '/api/v1/portfolio/left/7');
  assert.equal(calls[0].init.method, 'PATCH');
  assert.deepEqual(JSON.parse(calls[0].init.body), {sale_price: 1300});
  await setSalePrice(7, null);
  assert.deepEqual(JSON.parse(calls[1].init.body), {sale_price: null});
  await forgetDeparture(7);
  assert.equal(calls[2].path, '/api/v1/portfolio/left/7');
  assert.equal(calls[2].init.method, 'DELETE');
  fakeFetch(problem(400, 'invalid_body'));
  await assert.rejects(setSalePrice(7, -1), /refused that value/);
});
