// A static file server for dist/, used by `make run` (web/serve.mjs) and the browser tests.
// Loopback only; paths outside the folder are refused. A file's .br or .gz sibling (written by
// web/build.mjs) is sent instead when the browser accepts that encoding; llmcalc_core.wasm goes
// out as application/wasm, which streaming compilation requires. Every answer carries an ETag
// and `cache-control: no-cache`: a second load of the same file (the page's worker reads the
// module's script and .wasm again, web/src/12-core-worker.mjs) is answered 304 with no body, and
// a rebuilt dist/ is never served stale.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm',
};
const ENCODINGS = [['br', '.br'], ['gzip', '.gz']];

async function readEncoded(file, accepted) {
  for (const [encoding, suffix] of ENCODINGS) {
    if (!accepted.includes(encoding)) continue;
    try {
      return { body: await readFile(file + suffix), encoding };
    } catch {
      // no sibling in this encoding
    }
  }
  return { body: await readFile(file), encoding: null };
}

export function createStaticServer(directory) {
  const root = resolve(directory);
  return createServer(async (request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url, 'http://x').pathname));
    const file = join(root, path === '/' ? 'index.html' : path);
    if (!file.startsWith(root)) {
      response.writeHead(403).end();
      return;
    }
    try {
      const accepted = String(request.headers['accept-encoding'] || '').split(',').map((e) => e.trim().split(';')[0]);
      const { size, mtimeMs } = await stat(file);
      const { body, encoding } = await readEncoded(file, accepted);
      const tag = `"${size.toString(36)}-${Math.round(mtimeMs).toString(36)}-${encoding || 'identity'}"`;
      const headers = { 'content-type': TYPES[extname(file)] || 'application/octet-stream', vary: 'accept-encoding',
                        etag: tag, 'cache-control': 'no-cache' };
      if (encoding) headers['content-encoding'] = encoding;
      if (request.headers['if-none-match'] === tag) {
        response.writeHead(304, headers).end();
        return;
      }
      response.writeHead(200, headers);
      response.end(body);
    } catch {
      response.writeHead(404).end('not found');
    }
  });
}
