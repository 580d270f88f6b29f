// A stand-in for the browser's fetch in the node tests of share/www/js: each call is
// recorded in `calls` and answered with the next of the answers given to fakeFetch().
// Not a test file itself (CMake runs *.test.mjs only).

/** Every call since the last fakeFetch(): {path, init}. */
export const calls = [];

/**
 * Answers each call with the next of `answers`: {status, statusText, body, type, headers}
 * (body as JSON, type defaulting to application/json), or an Error to throw as a network
 * failure would.
 */
export function fakeFetch(...answers) {
  calls.length = 0;
  globalThis.fetch = async (path, init) => {
    calls.push({path, init});
    const a = answers.shift();
    if (a instanceof Error) throw a;
    const body = a.body === undefined ? '' : JSON.stringify(a.body);
    return new Response(a.status === 204 ? null : body, {
      status: a.status || 200,
      statusText: a.statusText || '',
      headers: {'Content-Type': a.type || 'application/json', ...(a.headers || {})},
    });
  };
}
