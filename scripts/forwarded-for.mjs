// scripts/server.mjs adds the connecting socket's address to X-Forwarded-For, as a reverse proxy
// does (nginx's $proxy_add_x_forwarded_for), before Next or the fast path reads it. The login
// limits take the client's address from the right of that list, skipping GATEHOUSE_TRUSTED_PROXIES
// entries (lib/auth/rate-limit.ts clientIp): the right-most entry is now always one that nobody
// but the network chose, so a client connecting directly can no longer pick its own address by
// sending the header. (Next alone only fills the header in when it is missing.)

/** Appends `req.socket.remoteAddress` to the request's X-Forwarded-For (sets it when absent). */
export function appendForwardedFor(req) {
  const address = req.socket?.remoteAddress;
  if (!address) return;
  const sent = req.headers['x-forwarded-for'];
  const chain = Array.isArray(sent) ? sent.join(', ') : sent;
  req.headers['x-forwarded-for'] = chain && chain.trim() !== '' ? `${chain}, ${address}` : address;
}
