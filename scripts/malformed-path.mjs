// A request whose path is not valid percent-encoding (`/api/runs/%zz`, a cut UTF-8 sequence such
// as `%E0%A4%A`) names nothing, so scripts/server.mjs answers it here with a 400 in the API's
// error shape. Next's router would fail on decoding it and answer a plain 500.

/** Whether the path of a request target (before any `?`) cannot be percent-decoded. */
export function malformedPath(url) {
  if (typeof url !== 'string') return false;
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  if (!path.includes('%')) return false;
  try {
    decodeURIComponent(path);
    return false;
  } catch {
    return true;
  }
}

/** Answers 400 with a JSON error naming the path, as the API answers bad input. */
export function refuseMalformedPath(res) {
  const body = JSON.stringify({
    error: {
      code: 'bad_request',
      message: 'The URL path is not valid percent-encoding',
      fields: [
        { path: 'path', message: 'every % must start an escape of two hex digits, and the escapes must spell UTF-8' },
      ],
    },
  });
  res.statusCode = 400;
  res.setHeader('content-type', 'application/json');
  res.setHeader('content-length', Buffer.byteLength(body));
  res.end(body);
}
