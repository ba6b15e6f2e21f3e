// Lingering close for scripts/server.mjs: when a response ends the connection (the client sent
// `Connection: close`, or the server chose to close) before the request's body has all arrived
// (a 413 for a body over the cap, a 401 before the body is read), Node closes the socket as soon
// as the response is flushed. The bytes the client is still sending then meet a closed socket: the
// kernel answers with a reset, and the client sees EPIPE or ECONNRESET instead of the 413 it was
// sent, often without ever reading it. As nginx's lingering_close, the socket here keeps reading,
// discarding the rest of the body, and is closed as Node would have closed it only once the body
// has arrived, the client has closed, LINGER_MS have passed or LINGER_MAX_BYTES were discarded.
// It sends no FIN meanwhile: some clients take one as an error while their body is still going.

import { Socket } from 'node:net';

export const LINGER_MS = 5_000;
export const LINGER_MAX_BYTES = 64 * 1024 * 1024;

const requestOf = new WeakMap();

/**
 * Installs lingering close on `server` (a node:http Server). Call `track(req)` from the request
 * listener, first thing, so the socket knows which request it is answering.
 */
export function installLingeringClose(server, { lingerMs = LINGER_MS, maxBytes = LINGER_MAX_BYTES } = {}) {
  server.on('connection', (socket) => {
    // Node's http server calls destroySoon() once the last response on a connection is finished.
    socket.destroySoon = function destroySoon() {
      const req = requestOf.get(this);
      if (!req || req.complete || this.destroyed) return Socket.prototype.destroySoon.call(this);
      linger(this, req, lingerMs, maxBytes);
    };
  });
  return { track: (req) => requestOf.set(req.socket, req) };
}

function linger(socket, req, lingerMs, maxBytes) {
  // Node's parser reads the socket natively and drops a dumped body without a 'data' event, so
  // the bytes read are checked on a short tick, and a body declared too long is not waited for.
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > maxBytes) return Socket.prototype.destroySoon.call(socket);
  const readBefore = socket.bytesRead;
  let closing = false;
  // What Node would have done at once: end, and destroy once the response is flushed.
  const close = () => {
    if (closing) return;
    closing = true;
    clearTimeout(timer);
    clearInterval(tick);
    if (!socket.destroyed) Socket.prototype.destroySoon.call(socket);
  };
  const timer = setTimeout(close, lingerMs);
  const tick = setInterval(() => socket.bytesRead - readBefore > maxBytes && close(), 50);
  timer.unref?.();
  tick.unref?.();
  req.once('end', close);
  req.once('error', close);
  socket.once('end', close);
  socket.once('close', () => {
    clearTimeout(timer);
    clearInterval(tick);
  });
  req.resume();
}
