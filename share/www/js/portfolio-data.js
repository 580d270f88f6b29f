// The Portfolio's depth (docs/api.md §23): applied stickers and charms, several game
// accounts, what was paid in bulk (a CSV previewed, then applied) and holdings that left
// the inventory. The calls the page makes and the rules and words it shows; no DOM, so
// node --test covers it (tests/js/portfolio-data.test.mjs); views/portfolio/ draws it.
import {ApiError, count, csrf, getJson, request, send} from './api.js';

export const APPLIED_PERCENT_KEY = 'skinpulse.appliedValuePercent';
export const MAX_LABEL_CHARS = 40;
export const MAX_CSV_BYTES = 1024 * 1024;

const WORDS = {
  not_found: 'That account or entry is no longer yours; reload the page.',
  payload_too_large: 'The file is larger than 1 MiB; split it and upload the parts.',
  csv_nothing_to_apply: 'No row of the file matches a holding: nothing was saved.',
  invalid_body: 'The server refused that value.',
  invalid_parameter: 'The server refused that value.',
};

/** Why a CSV row was refused (docs/api.md §23.3), in words a trader reads. */
export const REFUSALS = {
  unknown_item: 'Not in the catalogue',
  not_held: 'You hold none of this item',
  quantity_exceeds_holding: 'More than you hold',
  invalid_quantity: 'Quantity must be a whole number ≥ 1',
  invalid_cost: 'Cost must be an amount ≥ 0',
  unknown_currency: 'Currency without a rate',
  invalid_date: 'Date must be YYYY-MM-DD',
};

// The codes of this module in words; anything else (`invalid_csv` among them, whose
// detail names the line) as api.js words it.
function worded(err) {
  if (!(err instanceof ApiError) || !WORDS[err.code]) return err;
  return new ApiError(WORDS[err.code], err.status, err.code, err.response);
}

// --- the applied value percent ------------------------------------------------------------

/** "40" → 40; anything but a whole number 0..100 → null. */
export function parseAppliedPercent(text) {
  const clean = String(text ?? '').trim().replace(/\s*%$/, '');
  if (!/^\d{1,3}$/.test(clean)) return null;
  const value = Number(clean);
  return value <= 100 ? value : null;
}

/** The percent this browser chose (localStorage), null when it chose none. */
export function storedAppliedPercent(storage = globalThis.localStorage) {
  try {
    return parseAppliedPercent(storage.getItem(APPLIED_PERCENT_KEY));
  } catch {
    return null;
  }
}

/** Keeps `percent` (0..100) for the next visits; null forgets it (the server's default). */
export function storeAppliedPercent(percent, storage = globalThis.localStorage) {
  try {
    if (percent === null)
      storage.removeItem(APPLIED_PERCENT_KEY);
    else
      storage.setItem(APPLIED_PERCENT_KEY, String(percent));
  } catch { /* private mode: this page only */
  }
}

/**
 * The portfolio's path: `account` ('' = all) and the applied percent (null = the
 * server's [portfolio] applied_value_percent) as query parameters.
 */
export function portfolioPath({account = '', percent = null} = {}) {
  const query = new URLSearchParams();
  if (account) query.set('account', account);
  if (percent !== null && percent !== undefined) query.set('applied_value_percent', percent);
  const text = query.toString();
  return text ? `/api/v1/portfolio?${text}` : '/api/v1/portfolio';
}

/** GET /api/v1/portfolio for `options` (portfolioPath). */
export async function loadPortfolio(options) {
  try {
    return await getJson(portfolioPath(options), 'Portfolio');
  } catch (err) {
    throw worded(err);
  }
}

/** The CSV export's path for `account` ('' = all accounts). */
export function exportPath(account = '') {
  return account ? `/api/v1/portfolio.csv?account=${encodeURIComponent(account)}` :
                   '/api/v1/portfolio.csv';
}

// --- applied stickers and charms --------------------------------------------------------

const KIND_PREFIX = {
  sticker: /^Sticker \| /,
  charm: /^Charm \| /
};

/**
 * A holding's applied list grouped for chips: identical things (same kind and item) once
 * with their count, stickers first, then charms, each in slot order:
 *  [{kind, name, short, count, slots, current_price, item_id}].
 */
export function groupApplied(applied) {
  const groups = new Map();
  const ordered = [...(applied || [])].sort(
      (a, b) => (a.kind === b.kind        ? 0 :
                     a.kind === 'sticker' ? -1 :
                                            1) ||
          a.slot - b.slot);
  for (const a of ordered) {
    const key = `${a.kind}|${a.item_id ?? `n:${a.name}`}`;
    let group = groups.get(key);
    if (!group) {
      const short = String(a.name).replace(KIND_PREFIX[a.kind] || /^$/, '');
      group = {
        kind: a.kind,
        name: a.name,
        short,
        count: 0,
        slots: [],
        current_price: a.current_price ?? null,
        item_id: a.item_id ?? null
      };
      groups.set(key, group);
    }
    group.count += 1;
    group.slots.push(a.slot);
  }
  return [...groups.values()];
}

/** Whether any holding or departure of `data` carries applied items. */
export function hasApplied(data) {
  const any = (list) => (list || []).some((x) => x.applied && x.applied.length);
  return !!data && (any(data.holdings) || any(data.left_holdings));
}

// --- several accounts ---------------------------------------------------------------------

/** The linked accounts of /auth/me, oldest first (an older daemon: its one `gameid`). */
export function linkedAccounts(me) {
  if (!me) return [];
  if (Array.isArray(me.gameids)) return me.gameids;
  return me.gameid ? [me.gameid] : [];
}

/** How an account is named: its label, else "…" and the id's last four digits. */
export function accountName(account, label = '') {
  const tail = `…${String(account).slice(-4)}`;
  return label ? `${label} (${tail})` : `Account ${tail}`;
}

/** Why `label` cannot label an account (the server's rule: ≤ 40 printable chars), or null. */
export function labelProblem(label) {
  const text = String(label ?? '');
  if ([...text].length > MAX_LABEL_CHARS) return `At most ${MAX_LABEL_CHARS} characters.`;
  if (/[\u0000-\u001f\u007f-\u009f]/.test(text)) return 'No control characters.';
  return null;
}

/** PATCH /api/v1/auth/gameid/:platform_id {label}; resolves to {platform_id, label, linked_at}. */
export async function labelAccount(platformId, label) {
  try {
    return (await send(
                'PATCH', `/api/v1/auth/gameid/${encodeURIComponent(platformId)}`,
                {label: String(label).trim()}, 'Naming the account'))
        .data;
  } catch (err) {
    throw worded(err);
  }
}

/** DELETE /api/v1/auth/gameid/:platform_id: unlinks it (its holdings go, departures stay). */
export async function unlinkAccount(platformId) {
  try {
    await send(
        'DELETE', `/api/v1/auth/gameid/${encodeURIComponent(platformId)}`, undefined,
        'Unlinking the account');
  } catch (err) {
    throw worded(err);
  }
}

/** POST /api/v1/portfolio/import for one account or ('' ) every linked account. */
export async function importInventory(account = '') {
  const path = account ? `/api/v1/portfolio/import?account=${encodeURIComponent(account)}` :
                         '/api/v1/portfolio/import';
  const headers = {'X-CSRF-Token': await csrf()};
  try {
    return await request(path, {method: 'POST', headers, what: 'Import'});
  } catch (err) {
    throw worded(err);
  }
}

/**
 * What an import answered, in words: the total, then each account that failed and why
 * ("storage (…0002): next import in 0:42"). `names` maps an account to its name.
 */
export function importSummary(data, names = (a) => accountName(a)) {
  const parts = [`${data.message}.`];
  if (data.unmatched_assets)
    parts.push(`${count(data.unmatched_assets)} assets are not in the catalogue and were skipped.`);
  for (const a of data.accounts || []) {
    if (a.status !== 'failed') continue;
    const wait = a.retry_after ? `next import in ${clock(a.retry_after)}` : a.detail || a.code;
    parts.push(`${names(a.account)}: ${wait}.`);
  }
  return parts.join(' ');
}

/** The accounts of an import answer that are cooling down: [{account, until}] (ms). */
export function cooldownsOf(data, now = Date.now()) {
  return (data.accounts || [])
      .filter((a) => a.status === 'failed' && a.retry_after)
      .map((a) => ({account: a.account, until: now + a.retry_after * 1000}));
}

/** 42 → "0:42", 605 → "10:05". */
export function clock(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

// --- what was paid, in bulk (CSV) ---------------------------------------------------------

/** Why `file` cannot be sent ({size}), or null: the server's 1 MiB cap, said before upload. */
export function csvFileProblem(file) {
  if (!file) return 'Choose a CSV file.';
  if (file.size === 0) return 'The file is empty.';
  if (file.size > MAX_CSV_BYTES)
    return 'The file is larger than 1 MiB; split it and upload the parts.';
  return null;
}

/**
 * POST /api/v1/portfolio/cost-basis.csv: `dryRun` previews (nothing written), else the
 * matched rows are saved in one transaction. Resolves to the report (docs/api.md §23.3).
 */
export async function sendCostCsv(text, dryRun) {
  const headers = {'X-CSRF-Token': await csrf(), 'Content-Type': 'text/csv; charset=utf-8'};
  const path = `/api/v1/portfolio/cost-basis.csv${dryRun ? '?dry_run=true' : ''}`;
  try {
    return (await request(path, {
             method: 'POST',
             headers,
             body: text,
             what: dryRun ? 'Checking the file' : 'Saving what you paid'
           }))
        .data;
  } catch (err) {
    throw worded(err);
  }
}

/** "3 rows match, 1 refused" and the apply button's words ("Apply 3 rows"). */
export function reportSummary(report) {
  const rows = (n) => `${n} ${n === 1 ? 'row' : 'rows'}`;
  return {
    line: `${rows(report.matched_rows)} match, ${report.refused_rows} refused`,
    apply: `Apply ${rows(report.matched_rows)}`,
  };
}

// --- sold / left ----------------------------------------------------------------------------

/** PATCH /api/v1/portfolio/left/:id {sale_price} (USD cents per unit, null clears). */
export async function setSalePrice(departureId, salePrice) {
  try {
    return (await send(
                'PATCH', `/api/v1/portfolio/left/${encodeURIComponent(departureId)}`,
                {sale_price: salePrice}, 'Saving the sale price'))
        .data;
  } catch (err) {
    throw worded(err);
  }
}

/** DELETE /api/v1/portfolio/left/:id: the user says it was not sold. */
export async function forgetDeparture(departureId) {
  try {
    await send(
        'DELETE', `/api/v1/portfolio/left/${encodeURIComponent(departureId)}`, undefined,
        'Removing the entry');
  } catch (err) {
    throw worded(err);
  }
}

/**
 * The accounts the page shows, oldest link first: each linked account (/auth/me) with
 * the portfolio's figures for it ({item_count, total_value, last_imported_at}; zero and
 * null before its first import) — an account the portfolio names but /auth/me does not
 * (linked meanwhile in another tab) comes last.
 */
export function mergeAccounts(linked, fromPortfolio) {
  const figures = new Map((fromPortfolio || []).map((a) => [a.account, a]));
  const rows = (linked || []).map((l) => {
    const f = figures.get(l.platform_id) || {};
    figures.delete(l.platform_id);
    return {
      account: l.platform_id,
      label: f.label ?? l.label ?? '',  // the portfolio's is the newer answer
      linked_at: l.linked_at ?? null,
      item_count: f.item_count ?? 0,
      total_value: f.total_value ?? 0,
      last_imported_at: f.last_imported_at ?? null,
    };
  });
  for (const f of figures.values()) {
    rows.push({
      account: f.account,
      label: f.label || '',
      linked_at: null,
      item_count: f.item_count ?? 0,
      total_value: f.total_value ?? 0,
      last_imported_at: f.last_imported_at ?? null,
    });
  }
  return rows;
}
