// The live-update socket (docs/api.md §7): one connection per tab, reconnected with
// exponential back-off; pages subscribe to the items they show and listen for
// "prices" / "volatility" events. "state" tells the status strip how the link is.

class Live extends EventTarget {
  constructor() {
    super();
    this.ws = null;
    this.items = new Set();
    this.all = false;
    this.delay = 1000;
    this.state = 'connecting';
    this.timer = null;
  }

  connect() {
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/v1/ws`;
    this.setState('connecting');
    let ws;
    try { ws = new WebSocket(url); } catch { this.retry(); return; }
    this.ws = ws;
    ws.addEventListener('open', () => {
      this.delay = 1000;
      this.setState('live');
      this.sync();
    });
    ws.addEventListener('message', (event) => {
      let msg;
      try { msg = JSON.parse(event.data); } catch { return; }
      if (msg.type === 'prices' || msg.type === 'volatility') {
        this.dispatchEvent(new CustomEvent(msg.type, { detail: msg.data || [] }));
      } else if (msg.type === 'alert') {
        this.dispatchEvent(new CustomEvent('alert', { detail: msg }));  // signed-in sockets only
      }
    });
    ws.addEventListener('close', () => { if (this.ws === ws) this.retry(); });
    ws.addEventListener('error', () => { /* close follows */ });
  }

  retry() {
    this.ws = null;
    this.setState(navigator.onLine === false ? 'offline' : 'reconnecting');
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), this.delay);
    this.delay = Math.min(this.delay * 2, 30000);
  }

  setState(state) {
    this.state = state;
    this.dispatchEvent(new CustomEvent('state', { detail: state }));
  }

  send(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  sync() {
    this.send({ type: 'unsubscribe', items: '*' });
    if (this.all) this.send({ type: 'subscribe', items: '*' });
    else if (this.items.size) this.send({ type: 'subscribe', items: [...this.items].slice(0, 1000) });
  }

  /** Replaces the subscription with `ids` (an array) or every item ("*"). */
  watch(ids) {
    this.all = ids === '*';
    this.items = new Set(this.all ? [] : ids);
    this.sync();
  }
}

export const live = new Live();
