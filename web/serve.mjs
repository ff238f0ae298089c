// `make run`: serves dist/ on http://127.0.0.1:8080 (loopback only) until interrupted.
import { join, resolve } from 'node:path';
import { createStaticServer } from './static-server.mjs';

const distDir = resolve(process.argv[2] || 'dist');
const port = Number(process.env.PORT || 8080);
createStaticServer(distDir).listen(port, '127.0.0.1', () => {
  console.log(`Serving the calculator at http://127.0.0.1:${port}/`);
  console.log(`Offline single file: ${join(distDir, 'llm-calculator.html')}`);
});
