// Item details (image, current price, variants) fetched once per id and shared by the
// panels of one visit; a failed fetch is forgotten so the next panel asks again.
import {getJson} from './api.js';

const details = new Map();

export function itemDetail(id) {
  if (!details.has(id)) {
    const p = getJson(`/api/v1/items/${id}`, `Item ${id}`);
    p.catch(() => details.delete(id));
    details.set(id, p);
  }
  return details.get(id);
}

/** Runs `fn` over `values` with at most `width` in flight. */
export async function pool(values, width, fn) {
  let next = 0;
  const workers = Array.from({length: Math.min(width, values.length)}, async () => {
    while (next < values.length) {
      const i = next++;
      await fn(values[i], i);
    }
  });
  await Promise.all(workers);
}
