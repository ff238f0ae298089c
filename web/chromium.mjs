// Headless Chromium through playwright-core, for the build's pre-render (web/prerender.mjs) and the
// browser tests: Debian's /usr/bin/chromium unless CHROMIUM_PATH names another.
import { chromium } from 'playwright-core';

export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
           '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
