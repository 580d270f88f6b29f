// The live-update socket (docs/api.md §7): one connection per tab, reconnected with
// exponential back-off (1 s doubling to 30 s, reset once a connection opens); pages
// subscribe to the items they show and listen for "prices" / "volatility" events, a
// signed-in socket also gets "alert". "state" tells the status strip how the link is.
// The socket, the timer and the page's address are passed in (see `Live`'s options), so
// tests/js/live.test.mjs drives it with a fake WebSocket and a fake clock.

export const FIRST_DELAY = 1000;
export const MAX_DELAY = 30000;

/** An event carrying `detail` (Event with a property: CustomEvent is not global in node 18). */
function event(type, detail) {
  const e = new Event(type);
  e.detail = detail;
  return e;
}

/** Parses one frame; null when it is not JSON or not a type a page listens for. */
export function decodeFrame(text) {
  let msg;
  try {
    msg = JSON.parse(text);
  } catch {
    return null;
  }
  if (!msg || typeof msg !== 'object') return null;
  if (msg.type === 'prices' || msg.type === 'volatility') {
    return {type: msg.type, detail: msg.data || []};
  }
  if (msg.type === 'alert') return {type: 'alert', detail: msg};  // signed-in sockets only
  return null;
}

export class Live extends EventTarget {
  /** options: url() → the socket's address, WebSocket, setTimeout/clearTimeout, online(). */
  constructor(options = {}) {
    super();
    this.options = options;
    this.ws = null;
    this.items = new Set();
    this.all = false;
    this.delay = FIRST_DELAY;
    this.state = 'connecting';
    this.timer = null;
  }

  connect() {
    const {url = defaultUrl, WebSocket: Socket = globalThis.WebSocket} = this.options;
    this.setState('connecting');
    let ws;
    try {
      ws = new Socket(url());
    } catch {
      this.retry();
      return;
    }
    this.ws = ws;
    ws.addEventListener('open', () => {
      this.delay = FIRST_DELAY;
      this.setState('live');
      this.sync();
    });
    ws.addEventListener('message', (message) => {
      const frame = decodeFrame(message.data);
      if (frame) this.dispatchEvent(event(frame.type, frame.detail));
    });
    ws.addEventListener('close', () => {
      if (this.ws === ws) this.retry();
    });
    ws.addEventListener('error', () => {/* close follows */});
  }

  retry() {
    const {
      setTimeout: later = globalThis.setTimeout,
      clearTimeout: cancel = globalThis.clearTimeout,
      online = defaultOnline
    } = this.options;
    this.ws = null;
    this.setState(online() ? 'reconnecting' : 'offline');
    cancel(this.timer);
    this.timer = later(() => this.connect(), this.delay);
    this.delay = Math.min(this.delay * 2, MAX_DELAY);
  }

  setState(state) {
    this.state = state;
    this.dispatchEvent(event('state', state));
  }

  send(message) {
    // 1 is WebSocket.OPEN (a fake socket class need not carry the constant).
    if (this.ws && this.ws.readyState === 1) this.ws.send(JSON.stringify(message));
  }

  sync() {
    this.send({type: 'unsubscribe', items: '*'});
    if (this.all) {
      this.send({type: 'subscribe', items: '*'});
    } else if (this.items.size) {
      this.send({type: 'subscribe', items: [...this.items].slice(0, 1000)});
    }
  }

  /** Replaces the subscription with `ids` (an array) or every item ("*"). */
  watch(ids) {
    this.all = ids === '*';
    this.items = new Set(this.all ? [] : ids);
    this.sync();
  }
}

function defaultUrl() {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/v1/ws`;
}

function defaultOnline() {
  return typeof navigator === 'undefined' || navigator.onLine !== false;
}

/** The tab's one connection. */
export const live = new Live();
