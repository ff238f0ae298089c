// A static file server for dist/, used by `make run` (web/serve.mjs) and the browser tests.
// Loopback only; paths outside the folder are refused. A file's .br or .gz sibling (written by
// web/build.mjs) is sent instead when the browser accepts that encoding; llmcalc_core.wasm goes
// out as application/wasm, which streaming compilation requires.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
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
      const { body, encoding } = await readEncoded(file, accepted);
      const headers = { 'content-type': TYPES[extname(file)] || 'application/octet-stream', vary: 'accept-encoding' };
      if (encoding) headers['content-encoding'] = encoding;
      response.writeHead(200, headers);
      response.end(body);
    } catch {
      response.writeHead(404).end('not found');
    }
  });
}
