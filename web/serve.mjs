// `make run`: serves dist/ on http://127.0.0.1:8080 (loopback only) until interrupted.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';

const distDir = resolve(process.argv[2] || 'dist');
const port = Number(process.env.PORT || 8080);
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css' };

createServer(async (request, response) => {
  const path = normalize(decodeURIComponent(new URL(request.url, 'http://x').pathname));
  const file = join(distDir, path === '/' ? 'index.html' : path);
  if (!file.startsWith(distDir)) {
    response.writeHead(403).end();
    return;
  }
  try {
    const body = await readFile(file);
    response.writeHead(200, { 'content-type': TYPES[extname(file)] || 'application/octet-stream' });
    response.end(body);
  } catch {
    response.writeHead(404).end('not found');
  }
}).listen(port, '127.0.0.1', () => {
  console.log(`Serving the calculator at http://127.0.0.1:${port}/`);
  console.log(`Offline single file: ${join(distDir, 'llm-calculator.html')}`);
});
