// Assembles dist/: the page, the widget page, the bundled element script, the wasm module (its JS
// glue and llmcalc_core.wasm), and llm-calculator.html with every script, style and the wasm bytes
// inlined (works from file:// with no network).
// Usage: node web/build.mjs <path to llmcalc_core.js> <dist dir>
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, constants } from 'node:zlib';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, transform } from 'esbuild';
import { loadNodeCore } from './node-core.mjs';
import { pageListing } from './page-listing.mjs';
import { prerenderDefaultPage } from './prerender.mjs';
import { startAfterPaintScript } from './start-after-paint.mjs';

const webDir = dirname(fileURLToPath(import.meta.url));
const [corePath, distDir] = process.argv.slice(2);
if (!corePath || !distDir) {
  console.error('usage: node web/build.mjs <llmcalc_core.js> <dist dir>');
  process.exit(2);
}
mkdirSync(distDir, { recursive: true });
// Compressed siblings of an earlier build would be served in place of the new files.
for (const name of readdirSync(distDir).filter((n) => /\.(br|gz)$/.test(n))) rmSync(join(distDir, name));
const replaceOnce = (text, pattern, replacement) => {
  if (!pattern.test(text)) throw new Error(`index.html lacks ${pattern}`);
  return text.replace(pattern, () => replacement);
};
const hash = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
const CSP = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/;
const ELEMENT = /<llm-calc sync-hash><\/llm-calc>/;

// The element bundle: web/src/main.mjs and the modules it imports (the stylesheet as minified
// text), minified by esbuild into one classic script.
const TARGETS = ['chrome111', 'firefox114', 'safari16.4'];
const minifiedCssText = {
  name: 'minified-css-text',
  setup(bundler) {
    bundler.onLoad({ filter: /\.css$/ }, async (args) => ({
      contents: (await transform(readFileSync(args.path, 'utf8'), { loader: 'css', minify: true, target: TARGETS })).code,
      loader: 'text',
    }));
  },
};
const bundleOf = async (entry) => (await build({
  entryPoints: [join(webDir, 'src', entry)], bundle: true, minify: true, format: 'iife',
  target: TARGETS, plugins: [minifiedCssText], legalComments: 'none', write: false, logLevel: 'warning',
})).outputFiles[0].text;
const bundle = await bundleOf('main.mjs');
writeFileSync(join(distDir, 'llm-calc.js'), bundle);
// The same without the stylesheet, for the pages whose pre-render carries it (index.html and
// llm-calculator.html; web/src/main-prerendered.mjs).
const pageBundle = await bundleOf('main-prerendered.mjs');
writeFileSync(join(distDir, 'llm-calc-page.js'), pageBundle);
// The page's Spanish, read beside llm-calc.js when a page first shows it (web/src/30-i18n.mjs).
const spanish = await bundleOf('lang-es.mjs');
writeFileSync(join(distDir, 'llm-calc-es.js'), spanish);

const wasmPath = corePath.replace(/\.js$/, '.wasm');
// The module's glue, minified further (emscripten's own pass leaves names and its data script),
// with the part of the module's catalog listing the page reads attached to its factory: the page
// reads it at start instead of asking the module, whose first call parses every data file (issue #22).
// (An object literal: as a JSON string inside the script every quote would be escaped.)
const listing = JSON.stringify(pageListing(JSON.parse((await loadNodeCore(corePath)).catalog()).result));
const glue = `${readFileSync(corePath, 'utf8')}\ncreateLlmCalcCore.catalogListing = ${listing};\n`;
const core = (await transform(glue, { minify: true, legalComments: 'none' })).code;
writeFileSync(join(distDir, 'llmcalc_core.js'), core);
copyFileSync(wasmPath, join(distDir, 'llmcalc_core.wasm'));
for (const name of ['index.html', 'embed.html']) {
  copyFileSync(join(webDir, name), join(distDir, name));
}

// The page with its default answer pre-rendered and its few lines of style inline (no
// render-blocking request before the first paint); its <style> elements are allowed by hash.
// The page is pre-rendered with its own style (its margins set the width the cards' heights are
// measured at), which only the served index.html carries inline.
copyFileSync(join(webDir, 'page.css'), join(distDir, 'page.css'));
const prerendered = await prerenderDefaultPage(distDir);
rmSync(join(distDir, 'page.css'));
const pageCss = readFileSync(join(webDir, 'page.css'), 'utf8');
let pageSource = replaceOnce(readFileSync(join(webDir, 'index.html'), 'utf8'), ELEMENT,
  `<llm-calc sync-hash aria-busy="true">${prerendered.template}</llm-calc>`);
pageSource = replaceOnce(pageSource, /<link rel="stylesheet" href="page.css">/,
  `<style>${pageCss}</style><script>${prerendered.guard}</script>`);
const styleHashes = [pageCss, ...prerendered.styles].map(hash).join(' ');
// Over http the scripts start once the pre-rendered answer is painted (web/start-after-paint.mjs).
const starter = startAfterPaintScript(['llm-calc-page.js', 'llmcalc_core.js']);
const servedPage = replaceOnce(pageSource,
  /<script defer src="llm-calc.js"><\/script>\n<script defer src="llmcalc_core.js"><\/script>/,
  `<script>${starter}</script>`);
writeFileSync(join(distDir, 'index.html'), replaceOnce(servedPage, CSP, (() => {
  const csp = CSP.exec(servedPage)[1].replace("style-src 'self'", `style-src ${styleHashes}`)
    .replace("script-src 'self'", `script-src 'self' ${hash(prerendered.guard)} ${hash(starter)}`);
  return `<meta http-equiv="Content-Security-Policy" content="${csp}">`;
})()));

// The offline single file. Inline code is allowed by hash in the CSP, not by 'unsafe-inline'.
const safeScript = (code) => code.replace(/<\/script/gi, '<\\/script').replace(/<!--/g, '<\\!--');
const inlineCore = safeScript(core);
const inlineBundle = safeScript(pageBundle);
const inlineSpanish = safeScript(spanish);
let single = pageSource;
// The page's own connect-src (data: and the Hugging Face hosts "fetch by name" reads from).
const connectSrc = /connect-src ([^;"]*)/.exec(single);
if (!connectSrc) throw new Error('index.html has no connect-src');
const csp = `default-src 'none'; script-src ${hash(prerendered.guard)} ${hash(inlineCore)} ${hash(inlineBundle)} ${hash(inlineSpanish)} ` +
  `'wasm-unsafe-eval'; worker-src blob:; ` +
  `style-src ${styleHashes}; img-src data:; connect-src ${connectSrc[1]}; ` +
  `base-uri 'none'; form-action 'none'`;
single = replaceOnce(single, CSP, `<meta http-equiv="Content-Security-Policy" content="${csp}">`);
// A file in gzip format as zopfli writes it (Debian's zopfli, installed by make deps): what any
// gzip reader takes, 4-6% smaller than zlib's level 9 on the module and the scripts.
const gzipped = (path) => execFileSync('zopfli', ['--i15', '-c', path], { maxBuffer: 1 << 28 });

// The wasm bytes, gzipped and in base64, as a data block (never executed; web/src/10-core.mjs
// decompresses them and hands them to the factory): a third of the size of the bare base64.
const wasmBlock = `<script type="application/gzip" id="llmcalc-wasm">` +
  `${gzipped(wasmPath).toString('base64')}</script>`;
// The glue's script carries an id: the page's worker's source starts with its text
// (web/src/12-core-worker.mjs).
single = replaceOnce(single, /<script defer src="llmcalc_core.js"><\/script>/,
  `${wasmBlock}<script id="llmcalc-core">${inlineCore}</script>`);
// Spanish first: its tables are in place before the element picks its language.
single = replaceOnce(single, /<script defer src="llm-calc.js"><\/script>/,
  `<script>${inlineSpanish}</script><script>${inlineBundle}</script>`);
writeFileSync(join(distDir, 'llm-calculator.html'), single);

// Compressed siblings for the server (web/static-server.mjs sends the one the browser accepts).
for (const name of readdirSync(distDir)) {
  const bytes = readFileSync(join(distDir, name));
  writeFileSync(join(distDir, `${name}.gz`), gzipped(join(distDir, name)));
  writeFileSync(join(distDir, `${name}.br`), brotliCompressSync(bytes, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
  }));
}
console.log(`dist: ${readdirSync(distDir).sort().join(', ')}`);
