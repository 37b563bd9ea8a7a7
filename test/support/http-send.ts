import { request } from 'node:http';

/**
 * A raw HTTP request to a server under test (fetch cannot send a wrong Content-Length, a foreign Host
 * header or read a refused upload): the status and the JSON body (`{}` when the body is empty).
 * A body is sent with its Content-Length, and with `content-type: application/json` unless `headers`
 * names another.
 */
export function sendRaw(
  url: string,
  method: string,
  path: string,
  body?: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const h: Record<string, string> =
      body !== undefined
        ? { 'content-type': 'application/json', ...headers, 'content-length': String(Buffer.byteLength(body)) }
        : headers;
    const req = request(`${url}${path}`, { method, headers: h }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          json: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>,
        }),
      );
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}
