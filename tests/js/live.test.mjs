// The live-update socket (share/www/js/live.js): frames dispatched as page events,
// reconnects with exponential back-off (1 s doubling to 30 s, reset on open), the
// subscription re-sent on every open. A fake WebSocket and a fake clock stand in.
import assert from 'node:assert/strict';
import {test} from 'node:test';

import {decodeFrame, FIRST_DELAY, Live, MAX_DELAY} from '../../share/www/js/live.js';

class FakeSocket extends EventTarget {
  static all = [];
  constructor(url) {
    super();
    this.url = url;
    this.readyState = 0;
    this.sent = [];
    FakeSocket.all.push(this);
  }
  send(text) {
    this.sent.push(JSON.parse(text));
  }
  open() {
    this.readyState = 1;
    this.dispatchEvent(new Event('open'));
  }
  receive(data) {
    const e = new Event('message');
    e.data = typeof data === 'string' ? data : JSON.stringify(data);
    this.dispatchEvent(e);
  }
  drop() {
    this.readyState = 3;
    this.dispatchEvent(new Event('close'));
  }
}

function harness({online = true} = {}) {
  FakeSocket.all = [];
  const timers = [];
  const live = new Live({
    url: () => 'ws://test/api/v1/ws',
    WebSocket: FakeSocket,
    setTimeout: (fn, ms) => timers.push({fn, ms}) - 1,
    clearTimeout: () => {},
    online: () => online,
  });
  const states = [];
  live.addEventListener('state', (e) => states.push(e.detail));
  return {live, timers, states, socket: () => FakeSocket.all[FakeSocket.all.length - 1]};
}

test('frames become events; junk and unknown types are dropped', () => {
  assert.deepEqual(
      decodeFrame('{"type":"prices","data":[{"item_id":1,"price":5}]}'),
      {type: 'prices', detail: [{item_id: 1, price: 5}]});
  assert.deepEqual(decodeFrame('{"type":"volatility"}'), {type: 'volatility', detail: []});
  assert.equal(decodeFrame('{"type":"alert","alert_id":3}').detail.alert_id, 3);
  assert.equal(decodeFrame('not json'), null);
  assert.equal(decodeFrame('"prices"'), null);
  assert.equal(decodeFrame('null'), null);
  assert.equal(decodeFrame('{"type":"hello"}'), null);
});

test('an open socket goes live, sends the subscription and dispatches frames', () => {
  const {live, states, socket} = harness();
  live.watch([3, 4]);  // before the connection: kept, sent on open
  live.connect();
  assert.equal(socket().url, 'ws://test/api/v1/ws');
  socket().open();
  assert.deepEqual(states, ['connecting', 'live']);
  assert.deepEqual(
      socket().sent, [{type: 'unsubscribe', items: '*'}, {type: 'subscribe', items: [3, 4]}]);
  const seen = [];
  live.addEventListener('prices', (e) => seen.push(['prices', e.detail]));
  live.addEventListener('alert', (e) => seen.push(['alert', e.detail.alert_id]));
  socket().receive({type: 'prices', data: [{item_id: 3, price: 120}]});
  socket().receive('garbage');
  socket().receive({type: 'alert', alert_id: 9});
  assert.deepEqual(seen, [['prices', [{item_id: 3, price: 120}]], ['alert', 9]]);
  live.watch('*');
  assert.deepEqual(
      socket().sent.slice(2), [{type: 'unsubscribe', items: '*'}, {type: 'subscribe', items: '*'}]);
});

test('a dropped socket reconnects with a doubling delay, capped, reset once open', () => {
  const {live, timers, states, socket} = harness();
  live.connect();
  const delays = [];
  for (let i = 0; i < 7; i++) {
    socket().drop();
    delays.push(timers[timers.length - 1].ms);
    timers[timers.length - 1].fn();  // the timer fires: a new socket
  }
  assert.deepEqual(delays, [1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  assert.equal(delays[0], FIRST_DELAY);
  assert.equal(delays[6], MAX_DELAY);
  assert.ok(states.includes('reconnecting'));
  socket().open();
  socket().drop();
  assert.equal(timers[timers.length - 1].ms, FIRST_DELAY);
});

test('nothing is sent while the socket is not open; offline says so', () => {
  const {live, socket, states} = harness({online: false});
  live.connect();
  live.watch([1]);
  assert.deepEqual(socket().sent, []);
  socket().drop();
  assert.equal(states[states.length - 1], 'offline');
});

test('a socket that cannot be built retries instead of throwing', () => {
  const timers = [];
  const live = new Live({
    url: () => 'ws://bad',
    WebSocket: class {
      constructor() {
        throw new Error('SyntaxError');
      }
    },
    setTimeout: (fn, ms) => timers.push(ms),
    clearTimeout: () => {},
    online: () => true,
  });
  live.connect();
  assert.deepEqual(timers, [1000]);
  assert.equal(live.state, 'reconnecting');
});
