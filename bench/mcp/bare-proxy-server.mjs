// The bare proxy's process (bench/mcp/bare-proxy.ts starts it): node's http server reading each
// request and forwarding it to the upstream (argv[2]) over a kept-alive connection, then sending
// the upstream's answer back. Prints its port on stdout once listening. Plain JS, so it runs on
// bare node as Gatehouse's server does (no tsx loader in the process).
import http from 'node:http';

const target = new URL(process.argv[2]);
const FORWARDED = ['content-type', 'accept', 'mcp-session-id', 'mcp-protocol-version', 'last-event-id'];
const agent = new http.Agent({ keepAlive: true });

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    const headers = { 'content-length': body.length };
    for (const name of FORWARDED) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const forward = http.request(
      { host: target.hostname, port: target.port, path: target.pathname, method: req.method, headers, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => {
      res.statusCode = 502;
      res.end();
    });
    forward.end(body);
  });
});
server.listen(0, '127.0.0.1', () => console.log(String(server.address().port)));
process.on('SIGTERM', () => process.exit(0));
