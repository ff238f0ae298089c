// Assembles dist/: the page, the widget page, the bundled element script, the wasm module, and
// llm-calculator.html with every script and style inlined (works from file:// with no network).
// Usage: node web/build.mjs <path to llmcalc_core.js> <dist dir>
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const webDir = dirname(fileURLToPath(import.meta.url));
const [corePath, distDir] = process.argv.slice(2);
if (!corePath || !distDir) {
  console.error('usage: node web/build.mjs <llmcalc_core.js> <dist dir>');
  process.exit(2);
}
mkdirSync(distDir, { recursive: true });

// The element bundle: namespace first, then the stylesheet text, then the sources in name order.
const sources = readdirSync(join(webDir, 'src')).filter((name) => name.endsWith('.js')).sort();
const css = readFileSync(join(webDir, 'llm-calc.css'), 'utf8');
const parts = sources.map((name) => `// ---- ${name}\n` + readFileSync(join(webDir, 'src', name), 'utf8'));
parts.splice(1, 0, `// ---- llm-calc.css\nwindow.LlmCalc.styles = ${JSON.stringify(css)};\n`);
const bundle = parts.join('\n');
writeFileSync(join(distDir, 'llm-calc.js'), bundle);

copyFileSync(corePath, join(distDir, 'llmcalc_core.js'));
for (const name of ['index.html', 'embed.html', 'page.css']) {
  copyFileSync(join(webDir, name), join(distDir, name));
}

// The offline single file. Inline code is allowed by hash in the CSP, not by 'unsafe-inline'.
const core = readFileSync(corePath, 'utf8');
const pageCss = readFileSync(join(webDir, 'page.css'), 'utf8');
const safeScript = (code) => code.replace(/<\/script/gi, '<\\/script').replace(/<!--/g, '<\\!--');
const inlineCore = safeScript(core);
const inlineBundle = safeScript(bundle);
const hash = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
let single = readFileSync(join(webDir, 'index.html'), 'utf8');
// The page's own connect-src (data: and the Hugging Face hosts "fetch by name" reads from).
const connectSrc = /connect-src ([^;"]*)/.exec(single);
if (!connectSrc) throw new Error('index.html has no connect-src');
const csp = `default-src 'none'; script-src ${hash(inlineCore)} ${hash(inlineBundle)} 'wasm-unsafe-eval'; ` +
  `style-src ${hash(pageCss)}; img-src data:; connect-src ${connectSrc[1]}; base-uri 'none'; form-action 'none'`;
const replaceOnce = (text, pattern, replacement) => {
  if (!pattern.test(text)) throw new Error(`index.html lacks ${pattern}`);
  return text.replace(pattern, () => replacement);
};
single = replaceOnce(single, /<meta http-equiv="Content-Security-Policy" content="[^"]*">/,
  `<meta http-equiv="Content-Security-Policy" content="${csp}">`);
single = replaceOnce(single, /<link rel="stylesheet" href="page.css">/, `<style>${pageCss}</style>`);
single = replaceOnce(single, /<script src="llmcalc_core.js"><\/script>/, `<script>${inlineCore}</script>`);
single = replaceOnce(single, /<script src="llm-calc.js"><\/script>/, `<script>${inlineBundle}</script>`);
writeFileSync(join(distDir, 'llm-calculator.html'), single);
console.log(`dist: ${readdirSync(distDir).sort().join(', ')}`);
