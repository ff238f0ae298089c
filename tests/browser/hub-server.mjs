// A local server shaped like the Hugging Face Hub for the browser tests: the same URL layout
// (GET /api/models/<repo>?blobs=true lists files with sizes; /<repo>/resolve/main/<path> serves
// small files and redirects large ones to the storage host, which answers Range requests with
// 206), the same answers for gated and unknown repositories (401) and missing files (404), and
// CORS headers on everything. Chromium reaches it through `routeHub`, so the page still asks for
// https://huggingface.co and its CSP is what lets the request through.
import { createServer } from 'node:http';

export const HUB_ORIGIN = 'https://huggingface.co';
export const STORAGE_ORIGIN = 'https://cas-bridge.xethub.hf.co';
const LARGE = /\.(gguf|safetensors)$/;

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'range, content-type',
  'access-control-expose-headers': 'content-range, accept-ranges, content-length',
};

// repos: { 'owner/name': { gated?: true, files: { path: { head, size } } } }. Also counts the
// requests it saw, for the tests' "nothing before the click" checks.
export function createHubServer(repos) {
  const seen = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url, 'http://hub');
    seen.push(request.method + ' ' + url.pathname);
    const send = (status, headers, body) => {
      response.writeHead(status, Object.assign({}, CORS, headers));
      response.end(body);
    };
    const json = (status, value) => send(status, { 'content-type': 'application/json' }, JSON.stringify(value));
    if (request.method === 'OPTIONS') return send(204, { 'access-control-allow-methods': 'GET, HEAD' });

    const api = url.pathname.match(/^\/api\/models\/([^/]+\/[^/]+)$/);
    if (api) {
      const repo = repos[decodeURIComponent(api[1])];
      if (!repo) return json(401, { error: 'Repository not found' });
      const siblings = Object.entries(repo.files).map(([path, file]) => ({ rfilename: path, size: file.size }));
      return json(200, { id: api[1], gated: repo.gated ? 'manual' : false, siblings });
    }
    const resolve = url.pathname.match(/^\/([^/]+\/[^/]+)\/resolve\/main\/(.+)$/);
    const storage = url.pathname.match(/^\/xet-bridge-us\/([^/]+\/[^/]+)\/(.+)$/);
    const match = resolve || storage;
    if (!match) return json(404, { error: 'Not found' });
    const repo = repos[decodeURIComponent(match[1])];
    if (!repo) return json(401, { error: 'Repository not found' });
    if (repo.gated) return json(401, { error: 'Access to model ' + match[1] + ' is restricted.' });
    const path = match[2].split('/').map(decodeURIComponent).join('/');
    const file = repo.files[path];
    if (!file) return json(404, { error: 'Entry not found' });
    if (resolve && LARGE.test(path)) {
      return send(302, { location: STORAGE_ORIGIN + '/xet-bridge-us/' + match[1] + '/' + match[2] + '?X-Amz-Signature=test' });
    }
    const range = /^bytes=(\d+)-(\d+)$/.exec(request.headers.range || '');
    const start = range ? Number(range[1]) : 0;
    const end = range ? Math.min(Number(range[2]) + 1, file.size) : file.size;
    const body = Buffer.alloc(end - start);
    if (start < file.head.length) file.head.copy(body, 0, start, Math.min(end, file.head.length));
    const headers = { 'accept-ranges': 'bytes', 'content-length': String(body.length) };
    if (range) headers['content-range'] = `bytes ${start}-${end - 1}/${file.size}`;
    return send(range ? 206 : 200, headers, body);
  });
  return { server, seen };
}

// Sends the page's requests for the Hub and its storage host to the local server and passes its
// answers back. Playwright does not route the second request of a redirect it fulfilled (it goes
// to DNS), so the hop to the storage host is followed here with the page's headers (Range); the
// CSP's word on that host is tested by a direct request.
export async function routeHub(context, localOrigin) {
  const local = (address) => {
    const url = new URL(address);
    return localOrigin + url.pathname + url.search;
  };
  const handler = async (route) => {
    let response = await route.fetch({ url: local(route.request().url()), maxRedirects: 0 });
    const location = response.headers().location;
    if (response.status() === 302 && location && new URL(location).origin === STORAGE_ORIGIN) {
      response = await route.fetch({ url: local(location), headers: route.request().headers(), maxRedirects: 0 });
    }
    await route.fulfill({ response });
  };
  await context.route((url) => url.origin === HUB_ORIGIN || url.origin === STORAGE_ORIGIN, handler);
}
