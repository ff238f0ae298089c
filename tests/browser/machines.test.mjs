// Browser tier, issue #20: the device-list editor, machines, network, system RAM, the parallel
// layout and a custom device, in the real page over http and from file://, all in the share link.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { distDir, figure, openCalculator, openPage, browserSuite } from './harness.mjs';

const suite = browserSuite();

test('adding a group of other cards splits the layers by free memory and lands in the link', async () => {
  const { context, page, errors } = await openCalculator(suite.browser, `${suite.base}/index.html`);
  await page.locator('llm-calc #machines summary').click();
  await page.locator('llm-calc #add-group').click();
  const group = page.locator('llm-calc [data-testid="device-group"]').first();
  await group.locator('select').selectOption('rtx-3060-12gb');
  await page.waitForFunction(() => location.hash.includes('more=rtx-3060-12gb*1'));
  // An RTX 4090 (23.64 GiB as its driver reports) and an RTX 3060, less the 512 MiB reserve each:
  // 23,695 / 35,471 MiB = 0.668 of Llama 3.1 8B's 33 slots (32 layers + output): 23 layers on the
  // 4090, 9 and the output on the 3060 (llama.cpp's default split by free memory).
  await page.locator('llm-calc [data-testid="device-1"]').waitFor();
  assert.match(await figure(page, 'device-0'), /· 23 layers$/);
  assert.match(await figure(page, 'device-1'), /· 9 layers$/);
  assert.match(await page.locator('llm-calc [data-testid="device-1"] dt').textContent(), /RTX 3060/);
  // The group on another machine: llama.cpp reaches it over RPC, and the commands say so.
  await group.locator('input').nth(1).fill('1');
  await group.locator('input').nth(1).dispatchEvent('change');
  await page.waitForFunction(() => location.hash.includes('more=rtx-3060-12gb*1%401') || location.hash.includes('more=rtx-3060-12gb*1@1'));
  const commands = await page.locator('llm-calc [data-engine="llama.cpp"] pre').textContent();
  assert.match(commands, /llama-server .* --rpc <node1-ip>:50052/);
  assert.match(commands, /rpc-server -H 0\.0\.0\.0 -p 50052/);
  // The head's device comes last in llama.cpp's list: the 3060 on machine 1 is device 1.
  assert.match(await page.locator('llm-calc [data-testid="device-0"] dt').textContent(), /RTX 3060.*machine 1/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a share link with two machines of eight GPUs gives vLLM its Ray commands for each', async () => {
  const { context, page, errors } = await openCalculator(suite.browser,
    `${suite.base}/index.html#v=1&model=llama-3.1-405b&weights=FP8&engine=vllm&hw=h100-sxm&n=8&nodes=2&net=infiniband-ndr&ctx=32768`);
  assert.equal(await page.locator('llm-calc #f-nodes').inputValue(), '2');
  assert.equal(await page.locator('llm-calc #f-net').inputValue(), 'infiniband-ndr');
  const commands = await page.locator('llm-calc [data-engine="vllm"] pre').textContent();
  assert.match(commands, /# On <head-ip> \(machine 0, head\)\nray start --head --port=6379\nvllm serve .*--tensor-parallel-size 8 --pipeline-parallel-size 2/);
  assert.match(commands, /# On <node1-ip> \(machine 1, worker\)\nray start --block --address=<head-ip>:6379/);
  // 16 devices, stage by stage: get_pp_indices gives Llama 3.1 405B's 126 layers as 63 + 63.
  assert.match(await figure(page, 'device-15'), /· 63 layers$/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a parallel layout that does not cover the devices is reset with a notice that names it', async () => {
  // The core refuses it (/parallel: "tensor x pipeline x data must equal the 8 devices"); the
  // page resets the key, as for any setting the core refuses, and says which.
  const { context, page, errors } = await openCalculator(suite.browser,
    `${suite.base}/index.html#v=1&engine=vllm&hw=h100-sxm&n=8&tp=3`);
  await page.locator('llm-calc .notice:not([hidden])').waitFor();
  assert.match(await page.locator('llm-calc .notice:not([hidden])').first().textContent(), /Tensor parallel/);
  assert.equal(await page.locator('llm-calc #f-tp').inputValue(), '');
  // A layout that covers them is kept: tensor 2, the pipeline taking the rest (8 / 2 = 4).
  await page.locator('llm-calc #machines').evaluate((details) => { details.open = true; });
  await page.locator('llm-calc #f-tp').fill('2');
  await page.locator('llm-calc #f-tp').dispatchEvent('change');
  await page.waitForFunction(() => location.hash.includes('tp=2'));
  assert.match(await page.locator('llm-calc [data-engine="vllm"] pre').textContent(),
    /--tensor-parallel-size 2 --pipeline-parallel-size 4/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('from file:// a custom device and a machine over RPC work with the network blocked', async () => {
  const { context, page, errors } = await openPage(suite.browser);
  await context.route('**/*', (route) => {
    const url = route.request().url();
    return url.startsWith('file:') || url.startsWith('data:') ? route.continue() : route.abort();
  });
  await page.goto(pathToFileURL(join(distDir, 'llm-calculator.html')).href +
    '#v=1&hw=custom&cdev=48:960:120&more=rtx-3090*1@1&net=ethernet-2.5g');
  await page.locator('llm-calc [data-testid="device-1"]').waitFor();
  assert.match(await page.locator('llm-calc [data-testid="device-1"] dt').textContent(), /Custom device/);
  assert.equal(await page.locator('llm-calc #f-cdev_mem').inputValue(), '48');
  assert.match(await page.locator('llm-calc [data-engine="llama.cpp"] pre').textContent(), /--rpc <node1-ip>:50052/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a custom device picked from the menu starts from the figures of the device shown, in its own group', async () => {
  const { context, page, errors } = await openCalculator(suite.browser, `${suite.base}/index.html`);
  await page.locator('llm-calc #machines summary').click();
  // A catalog device (the default RTX 4090): neither the group's legend nor its menus show.
  await page.locator('llm-calc #f-ep').waitFor({ state: 'visible' });
  for (const id of ['f-cdev_mem', 'f-cdev_arch', 'f-cdev_p2p']) {
    assert.equal(await page.locator(`llm-calc #${id}`).isVisible(), false, `${id} shown for a catalog device`);
  }
  await page.locator('llm-calc #f-hw').selectOption('custom');
  // data/devices/rtx-4090.json: 24 GiB, 1,008 GB/s, 165.2 TFLOPS FP16 (rounded to the boxes' whole
  // numbers), compute capability 8.9 (no Pascal mark), a GeForce card (no peer-to-peer).
  await page.waitForFunction(() => /hw=custom&cdev=24(%3A|:)1008(%3A|:)165(&|$)/.test(location.hash));
  for (const id of ['f-cdev_mem', 'f-cdev_arch', 'f-cdev_p2p']) {
    await page.locator(`llm-calc #${id}`).waitFor({ state: 'visible' });
  }
  assert.equal(await page.locator('llm-calc #f-cdev_mem').inputValue(), '24');
  assert.equal(await page.locator('llm-calc #f-cdev_bw').inputValue(), '1008');
  assert.equal(await page.locator('llm-calc #f-cdev_tflops').inputValue(), '165');
  assert.equal(await page.locator('llm-calc #f-hw').inputValue(), 'custom');
  // No "part of this link was not valid" notice: the menu's choice stands.
  assert.equal(await page.locator('llm-calc .notice:not([data-testid])').isVisible(), false);
  assert.ok(parseFloat(await figure(page, 'decode')) > 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a custom device marked Pascal decodes slower (no CUDA graphs) and keeps the mark in the link', async () => {
  const { context, page, errors } = await openCalculator(suite.browser,
    `${suite.base}/index.html#v=1&model=llama-3.1-8b&hw=custom&cdev=11:484:11`);
  const modern = parseFloat(await figure(page, 'decode'));
  assert.equal(await page.locator('llm-calc #f-cdev_arch').inputValue(), '');
  await page.locator('llm-calc #f-cdev_arch').selectOption('61');
  await page.waitForFunction(() => location.hash.includes('cdev=11%3A484%3A11%3A61') || location.hash.includes('cdev=11:484:11:61'));
  // Llama 3.1 8B's decode graph: 32 x 32.19 = 1,030 nodes launched one by one, 4.92 us each:
  // about 5.1 ms more per token (core/src/speed.cpp).
  await page.waitForFunction((before) => parseFloat(document.querySelector('llm-calc').shadowRoot
    .querySelector('[data-testid="decode"] dd').textContent) < before, modern);
  const pascal = parseFloat(await figure(page, 'decode'));
  const added = 1 / pascal - 1 / modern;
  assert.ok(Math.abs(added - 1030.08 * 4.92e-6) < 2e-4, `${(added * 1e3).toFixed(2)} ms added per token`);
  // The link restores the choice.
  await page.reload();
  await page.locator('llm-calc [data-testid="decode"]').waitFor();
  assert.equal(await page.locator('llm-calc #f-cdev_arch').inputValue(), '61');
  assert.deepEqual(errors, []);
  await context.close();
});

test('two custom cards marked peer-to-peer reduce with vLLM\'s one-shot kernel, and the link keeps the mark', async () => {
  const { context, page, errors } = await openCalculator(suite.browser,
    `${suite.base}/index.html#v=1&model=llama-3.1-8b&weights=BF16&engine=vllm&hw=custom&cdev=96:1792:500&n=2`);
  const hostMemory = parseFloat(await figure(page, 'decode'));
  assert.equal(await page.locator('llm-calc #f-cdev_p2p').isChecked(), false);
  await page.locator('llm-calc #f-cdev_p2p').check();
  await page.waitForFunction(() => location.hash.includes('cdev_p2p=1'));
  // 32 layers x 2 all-reduces at 5.0 us instead of NCCL's 48 us through host memory: 2.752 ms
  // less per token (core/src/speed.cpp device_link).
  await page.waitForFunction((before) => parseFloat(document.querySelector('llm-calc').shadowRoot
    .querySelector('[data-testid="decode"] dd').textContent) > before, hostMemory);
  const peer = parseFloat(await figure(page, 'decode'));
  const saved = 1 / hostMemory - 1 / peer;
  assert.ok(Math.abs(saved - 64 * 43e-6) < 2e-4, `${(saved * 1e3).toFixed(2)} ms saved per token`);
  await page.reload();
  await page.locator('llm-calc [data-testid="decode"]').waitFor();
  assert.equal(await page.locator('llm-calc #f-cdev_p2p').isChecked(), true);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the Deployment panel plans setups for the users and opens one in the calculator', async () => {
  const { context, page, errors } = await openCalculator(suite.browser,
    `${suite.base}/index.html#v=1&model=qwen3-32b&ctx=8192&users=8&tps=10`);
  assert.equal(await page.locator('llm-calc #f-users').inputValue(), '8');
  await page.locator('llm-calc #plan-button').click();
  await page.locator('llm-calc #plan-table tbody tr').first().waitFor();
  const summary = await page.locator('llm-calc [data-testid="plan-summary"]').textContent();
  // The page's one RTX 4090 cannot hold 8 x 8,192 tokens of cache beside 18.4 GiB of weights.
  assert.match(summary, /This setup: does not serve them/);
  assert.match(summary, /Cheapest to rent: .+ \$[\d.]+\/h/);
  // Every row serves them; its link opens that setup with the users as parallel sequences.
  const link = page.locator('llm-calc #plan-table tbody tr a').first();
  const href = await link.getAttribute('href');
  assert.match(href, /batch=8/);
  await link.click();
  await page.waitForFunction(() => location.hash.includes('batch=8'));
  await page.locator('llm-calc [data-testid="plan-stale"]').waitFor();
  assert.notEqual(await page.locator('llm-calc .verdict').getAttribute('class'), 'verdict oom');
  assert.deepEqual(errors, []);
  await context.close();
});

test('with the experts in RAM the GPU-to-RAM link sets the time to first token, and lands in the link', async () => {
  const { context, page, errors } = await openCalculator(suite.browser,
    `${suite.base}/index.html#v=1&model=qwen3.6-35b-a3b&weights=Q4_K_M&hw=rtx-4090&cmoe=40&prompt=4096`);
  await page.locator('llm-calc #machines summary').click();
  // The RTX 4090's PCIe 4.0 x16: 16 lanes x 1.969 GB/s (data/devices/rtx-4090.json).
  assert.equal(await page.locator('llm-calc #f-pcie').getAttribute('placeholder'), '31.5');
  const full = parseFloat(await figure(page, 'ttft'));
  // Every ubatch of 512 tokens copies all the experts in RAM (about 19 GB) at 0.62 of the link:
  // nearly all of the time, so a link a quarter as fast makes the prompt about four times slower.
  await page.locator('llm-calc #f-pcie').fill('8');
  await page.locator('llm-calc #f-pcie').dispatchEvent('change');
  await page.waitForFunction(() => location.hash.includes('pcie=8'));
  await page.waitForFunction((before) => parseFloat(document.querySelector('llm-calc').shadowRoot
    .querySelector('[data-testid="ttft"] dd').textContent) > 3 * before, full);
  await page.reload();
  await page.locator('llm-calc [data-testid="ttft"]').waitFor();
  assert.equal(await page.locator('llm-calc #f-pcie').inputValue(), '8');
  assert.deepEqual(errors, []);
  await context.close();
});
