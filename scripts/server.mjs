// Gatehouse's production server: Next's request handler behind a plain node HTTP server, so that
// a few hot routes (a human's decision, POST /api/chat/relay/:relayId; Claude Code's hook; an MCP
// client's POST /api/mcp) can skip Next's router (1.5-2 ms per request on a small VM). The fast path is installed by instrumentation.ts once the runtime is
// up (lib/server/routes/fast-routes.ts) and runs the same handler as the Next route; every other request,
// and that one whenever the fast path declines, goes to Next. Started by scripts/serve.sh.
//
// Arguments as `next start`: [dir] --hostname/-H <host> --port/-p <port> (default $PORT, else
// 3000) --keepAliveTimeout <ms>. NEXT_DIST_DIR selects the build (next.config.mjs reads it).
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { appendForwardedFor } from './forwarded-for.mjs';
import { installLingeringClose } from './lingering-close.mjs';
import { malformedPath, refuseMalformedPath } from './malformed-path.mjs';
import { setSecurityHeaders } from './security-headers.mjs';

const FAST_ROUTES = Symbol.for('gatehouse.fastRoutes');
const USAGE =
  'usage: node scripts/server.mjs [dir] [--hostname|-H <host>] [--port|-p <port>] [--keepAliveTimeout <ms>]';

function fail(message) {
  console.error(`[gatehouse] ${message}`);
  process.exit(1);
}

function parseArgs(argv) {
  const options = {
    dir: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'),
    hostname: undefined,
    port: process.env.PORT || '3000',
    keepAliveTimeout: undefined,
  };
  const names = {
    '--hostname': 'hostname',
    '-H': 'hostname',
    '--port': 'port',
    '-p': 'port',
    '--keepAliveTimeout': 'keepAliveTimeout',
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const flag = eq === -1 ? arg : arg.slice(0, eq);
    if (flag === '--help' || flag === '-h') {
      console.log(USAGE);
      process.exit(0);
    }
    if (names[flag]) {
      const value = eq === -1 ? argv[++i] : arg.slice(eq + 1);
      if (value === undefined || value === '') fail(`${flag} needs a value\n${USAGE}`);
      options[names[flag]] = value;
    } else if (!arg.startsWith('-')) {
      options.dir = path.resolve(arg);
    } else {
      fail(`unknown option ${arg}\n${USAGE}`);
    }
  }
  const port = Number(options.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    fail(`invalid port ${JSON.stringify(options.port)}\n${USAGE}`);
  const keepAliveTimeout = options.keepAliveTimeout === undefined ? undefined : Number(options.keepAliveTimeout);
  if (keepAliveTimeout !== undefined && !(Number.isInteger(keepAliveTimeout) && keepAliveTimeout >= 0))
    fail(`invalid --keepAliveTimeout ${JSON.stringify(options.keepAliveTimeout)}`);
  return { ...options, port, keepAliveTimeout };
}

const options = parseArgs(process.argv.slice(2));
process.env.NODE_ENV ||= 'production';
// Next installs no signal handlers under a custom server: Gatehouse's graceful shutdown must exit
// the process itself (lib/server/shutdown.ts), so it is on here whatever the caller set.
process.env.NEXT_MANUAL_SIG_HANDLE ||= 'true';

let handle; // Next's request handler, once prepared
let prepared;
const preparing = new Promise((resolve) => (prepared = resolve));
const listen = { hostname: options.hostname, port: options.port };

async function onRequest(req, res) {
  lingering.track(req);
  // Every answer, whoever writes it (the fast path, Next, the refusals here), carries them.
  setSecurityHeaders(res);
  if (malformedPath(req.url)) return refuseMalformedPath(res);
  appendForwardedFor(req);
  if (!handle) await preparing;
  const fast = globalThis[FAST_ROUTES];
  if (fast && fast(req, res, listen)) return;
  try {
    await handle(req, res);
  } catch (error) {
    // As `next start`: a failure outside any route's own handling.
    console.error(`[gatehouse] failed to handle ${req.method} ${req.url}:`, error);
    if (res.headersSent) res.destroy();
    else {
      res.statusCode = 500;
      res.end('Internal Server Error');
    }
  }
}

const server = http.createServer((req, res) => void onRequest(req, res));
// A response that closes the connection before the request's body has arrived (a 413 over the
// cap) is read by the client instead of being lost to a reset (scripts/lingering-close.mjs).
const lingering = installLingeringClose(server);
if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;

// Listen first, as `next start` does: a taken port fails before the database is opened and paused
// runs are resumed. Requests that arrive meanwhile wait for Next.
server.on('error', (error) =>
  fail(`could not listen on ${options.hostname ?? '(all addresses)'}:${options.port}: ${error.message}`),
);
await new Promise((resolve) => server.listen(options.port, options.hostname, resolve));
const address = server.address();
listen.port = typeof address === 'object' && address ? address.port : options.port;
// The one-time login link printed at first start (lib/server/runtime.ts) uses it.
process.env.PORT = String(listen.port);

const { default: next } = await import('next');
// httpServer: Next attaches its upgrade handler (the one `next start` uses) to this server itself.
const app = next({ dev: false, dir: options.dir, hostname: options.hostname, port: listen.port, httpServer: server });
// Preparing starts instrumentation.ts register() (runtime, resumed runs, shutdown handling, then
// the fast path) without waiting for it, as under `next start`; Next's handler waits for it.
try {
  await app.prepare();
} catch (error) {
  fail(`could not start Next (${options.dir}): ${error?.message ?? error}`);
}
handle = app.getRequestHandler();
prepared();

const shown =
  !options.hostname || options.hostname === '0.0.0.0' || options.hostname === '::'
    ? 'localhost'
    : options.hostname.includes(':')
      ? `[${options.hostname}]`
      : options.hostname;
console.log(`▲ Gatehouse ready on http://${shown}:${listen.port}`);
