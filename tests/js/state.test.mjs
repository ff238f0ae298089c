// The URL-state decoder (web/src/20-state.mjs) on hostile hashes: bounded random and crafted
// inputs never throw and only ever yield values of the right kind.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LlmCalc } from '../../web/src/00-namespace.mjs';
import '../../web/src/20-state.mjs';

const S = LlmCalc.state;

function check(state) {
  for (const key of S.KEYS) {
    const value = state[key];
    if (typeof S.DEFAULTS[key] === 'number') {
      assert.ok(Number.isInteger(value) && value >= 0 && value <= 99999999, `${key}=${value}`);
    } else if (key === 'hf' || key === 'hf_file') {
      // A repository id and a path in it: no markup, no shell characters, no '..' segment.
      assert.equal(typeof value, 'string');
      assert.match(value, /^[A-Za-z0-9._+\/-]{0,256}$/, `${key}=${value}`);
      assert.ok(!value.split('/').includes('..'), `${key}=${value}`);
    } else if (key === 'more') {
      // Device groups: lower-case ids, counts and machine numbers only.
      assert.match(value, /^([a-z0-9._-]{1,40}\*\d{1,4}(@\d{1,2})?(,|$))*$/, `${key}=${value}`);
    } else {
      assert.equal(typeof value, 'string');
      assert.match(value, /^[A-Za-z0-9._:-]{0,80}$/, `${key}=${value}`);
    }
  }
}

test('crafted hashes decode to safe values', () => {
  const cases = ['', '#', '#v=1', '#v=2&model=x', '#v=1&model=<script>alert(1)</script>',
    '#v=1&ctx=-5', '#v=1&ctx=1e9', '#v=1&ctx=NaN', '#v=1&ctx=Infinity', '#v=1&n=9007199254740993',
    '#v=1&model=' + 'a'.repeat(100000), '#v=1&hw=%E0%A4%A', '#v=1&lang=es&lang=en', '#%%%%',
    '#v=1&hf=a/b/c', '#v=1&hf=<x>/y', '#v=1&hf=a/b&hf_file=../../x.gguf', '#v=1&hf_file=a%20b.gguf',
    '#v=1&hf=' + 'a'.repeat(300) + '/b', '#v=1&hf=a/b&hf_file=x.gguf;rm%20-rf'];
  for (const hash of cases) {
    const { state } = S.decodeHash(hash);
    check(state);
    assert.equal(S.decodeHash(S.encodeHash(state)).state.model, state.model);
  }
});

test('20,000 random hashes never throw', () => {
  let seed = 12345;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const alphabet = 'v=1&#%<>"\'/\\;:,.-_abcXYZ0123456789 \u00e9\u0000\ud83d\ude00';
  for (let i = 0; i < 20000; ++i) {
    const length = Math.floor(random() * 60);
    let hash = '#v=1&';
    for (let j = 0; j < length; ++j) hash += alphabet[Math.floor(random() * alphabet.length)];
    let decoded;
    assert.doesNotThrow(() => { decoded = S.decodeHash(hash); }, hash);
    check(decoded.state);
  }
});

test('assumption keys become the core request keys; 0 leaves the core default', () => {
  const { state } = S.decodeHash('#v=1&bw_eff=55&qcmp_eff=12&attn_eff=7&reserve_mib=300&gpu_util=85');
  const request = S.toRequest(state);
  // 55 % -> 0.55, 12 % -> 0.12, 7 % -> 0.07, 300 MiB = 300 x 1,048,576 = 314,572,800 bytes, 85 % -> 0.85.
  assert.deepEqual(JSON.parse(JSON.stringify(request.assumptions)),
                   { bandwidth_efficiency: 0.55, quantized_compute_efficiency: 0.12, attention_compute_efficiency: 0.07,
                     reserved_bytes: 314572800 });
  assert.equal(request.gpu_memory_utilization, 0.85);
  const defaults = S.toRequest(S.decodeHash('#v=1').state);
  assert.deepEqual(JSON.parse(JSON.stringify(defaults.assumptions)), {});
  assert.equal(defaults.gpu_memory_utilization, undefined);
  assert.equal(S.keyForPath('/assumptions/reserved_bytes'), 'reserve_mib');
  assert.equal(S.keyForPath('/assumptions/attention_compute_efficiency'), 'attn_eff');
  assert.equal(S.keyForPath('/gpu_memory_utilization'), 'gpu_util');
});

test('a llama.cpp build number becomes llama_cpp_build; none leaves the newest modelled', () => {
  assert.equal(S.toRequest(S.decodeHash('#v=1&llama_build=11146').state).llama_cpp_build, 11146);
  assert.equal(S.toRequest(S.decodeHash('#v=1').state).llama_cpp_build, undefined);
  assert.equal(S.keyForPath('/llama_cpp_build'), 'llama_build');
});

test('overhead and comfort keys map to the core assumptions', () => {
  const request = S.toRequest(S.decodeHash('#v=1&ovh_us=150&comfort_pct=80&uma_pct=90').state);
  // 150 us -> 0.00015 s; 80 % -> 0.8; 90 % -> 0.9.
  assert.equal(request.assumptions.per_layer_overhead_s, 150 / 1e6);
  assert.equal(request.assumptions.comfortable_fraction, 0.8);
  assert.equal(request.assumptions.unified_memory_fraction, 0.9);
  assert.equal(S.keyForPath('/assumptions/comfortable_fraction'), 'comfort_pct');
});

test('a Hub repository and file survive the link; anything else is refused', () => {
  const { state, notice } = S.decodeHash('#v=1&hf=unsloth/Qwen3-8B-GGUF&hf_file=Q4_K_M/Qwen3-8B-Q4_K_M-00001-of-00002.gguf');
  assert.equal(notice, null);
  assert.equal(state.hf, 'unsloth/Qwen3-8B-GGUF');
  assert.equal(state.hf_file, 'Q4_K_M/Qwen3-8B-Q4_K_M-00001-of-00002.gguf');
  assert.equal(S.decodeHash(S.encodeHash(state)).state.hf_file, state.hf_file);
  for (const bad of ['#v=1&hf=a/b/c', '#v=1&hf=.a/b', '#v=1&hf=a/b&hf_file=../x.gguf', '#v=1&hf=a/b&hf_file=/x.gguf']) {
    const decoded = S.decodeHash(bad);
    assert.equal(decoded.notice, 'link_broken', bad);
    assert.ok(decoded.rejected.includes(bad.includes('hf_file') ? 'hf_file' : 'hf'), bad);
  }
});

test('hand-typed links: no version means this one, ids in any case, and the refused keys are named', () => {
  const typed = S.decodeHash('#lang=es&model=Qwen3-8B&hw=RTX-4090&engine=vLLM');
  assert.equal(typed.notice, null);
  assert.equal(typed.state.lang, 'es');
  assert.equal(typed.state.model, 'qwen3-8b');
  assert.equal(typed.state.hw, 'rtx-4090');
  assert.equal(typed.state.engine, 'vllm');
  // Another version is not read; its settings stay at their defaults.
  const other = S.decodeHash('#v=2&model=qwen3-8b');
  assert.equal(other.notice, 'link_version');
  assert.equal(other.state.model, S.DEFAULTS.model);
  const broken = S.decodeHash('#v=1&ctx=abc&model=qwen3-8b&batch=-2');
  assert.equal(broken.notice, 'link_broken');
  assert.deepEqual([...broken.rejected].sort(), ['batch', 'ctx']);
  assert.equal(broken.state.model, 'qwen3-8b');
});

test('device groups, machines, network, RAM and the parallel layout become the core request', () => {
  const { state, notice } = S.decodeHash('#v=1&hw=rtx-4090&n=2&more=rtx-3090*1@1,rtx-3060-12gb*2&net=ethernet-10g&ram=128&ram_bw=90&pcie=16');
  assert.equal(notice, null);
  const request = JSON.parse(JSON.stringify(S.toRequest(state)));
  assert.deepEqual(request.hardware, [{ device: 'rtx-4090', count: 2, node: 0 }, { device: 'rtx-3090', count: 1, node: 1 },
    { device: 'rtx-3060-12gb', count: 2, node: 0 }]);
  assert.equal(request.devices, undefined);  // the list's counts give the devices
  assert.equal(request.network, 'ethernet-10g');
  // 128 GiB = 128 x 1,073,741,824 B; 90 GB/s = 9e10 B/s.
  assert.equal(request.system_memory_bytes, 137438953472);
  assert.equal(request.system_memory_bandwidth_bytes_per_s, 9e10);
  // The GPU-to-RAM link: 16 GB/s (a PCIe 4.0 x8 slot) = 1.6e10 B/s; unset, the core's own.
  assert.equal(request.host_link_bytes_per_s, 1.6e10);
  assert.equal(S.toRequest(S.decodeHash('#v=1&hw=rtx-4090').state).host_link_bytes_per_s, undefined);
  assert.equal(S.decodeHash(S.encodeHash(state)).state.more, state.more);
  // Copies of one machine, and a layout given in part: tensor 8 over 16 devices leaves 2 stages.
  const copies = JSON.parse(JSON.stringify(S.toRequest(S.decodeHash('#v=1&hw=h100-sxm&n=8&nodes=2&tp=8&ep=1').state)));
  assert.equal(copies.hardware, 'h100-sxm');
  assert.equal(copies.nodes, 2);
  assert.deepEqual(copies.parallel, { tensor: 8, pipeline: 2, data: 1, expert: true });
  // A custom device: GiB, GB/s and FP16 TFLOPS -> bytes, bytes/s, FLOP/s.
  const custom = S.toRequest(S.decodeHash('#v=1&hw=custom&cdev=48:960:120').state);
  assert.deepEqual(JSON.parse(JSON.stringify(custom.hardware)), { name: 'Custom device', memory_bytes: 51539607552,
    memory_bandwidth_bytes_per_s: 960e9, fp16_flops_per_s: 120e12 });
  // With its NVIDIA generation: compute capability x 10 (a GTX 1080 Ti: 11 GiB, 484 GB/s, 11 TFLOPS, Pascal 6.1).
  const pascal = S.toRequest(S.decodeHash('#v=1&hw=custom&cdev=11:484:11:61').state);
  assert.equal(pascal.hardware.cuda_compute_capability, 6.1);
  assert.equal(S.decodeHash(S.encodeHash(S.decodeHash('#v=1&hw=custom&cdev=11:484:11:61').state)).state.cdev, '11:484:11:61');
  // Cards that read each other over PCIe (vLLM's one-shot all-reduce for two of them).
  const p2p = S.toRequest(S.decodeHash('#v=1&hw=custom&cdev=96:1792:500&cdev_p2p=1&n=2').state);
  assert.equal(p2p.hardware.pcie_peer_to_peer, true);
  assert.equal(custom.hardware.pcie_peer_to_peer, undefined);
  assert.equal(S.decodeHash(S.encodeHash(S.decodeHash('#v=1&cdev_p2p=1').state)).state.cdev_p2p, 1);
  for (const bad of ['#v=1&more=RTX*1', '#v=1&more=a*1@1@2', '#v=1&more=a*99999', '#v=1&more=%3Cx%3E*1',
                     '#v=1&cdev=48:x:1', '#v=1&cdev=1:2', '#v=1&cdev=1:2:3:4', '#v=1&cdev=1:2:3:6.1', '#v=1&nodes=0', '#v=1&tp=-1']) {
    assert.equal(S.decodeHash(bad).notice, 'link_broken', bad);
  }
  assert.equal(S.keyForPath('/parallel'), 'tp');
  assert.equal(S.keyForPath('/network'), 'net');
});

test('a custom device starts from a described device\'s figures, which decode back to them', () => {
  // NVIDIA Tesla P40 (data/devices/tesla-p40.json): 24 GiB, 346 GB/s, 11.76 TFLOPS (its FP32
  // rate; FP16 runs at 1/64), compute capability 6.1: rounded 24:346:12 and Pascal's mark 61.
  const p40 = { memory_bytes: 24 * 1073741824, memory_bandwidth_bytes_per_s: 346e9, fp16_flops_per_s: 11.76e12,
                cuda_compute_capability: 6.1 };
  const cdev = S.customDeviceFrom(p40);
  assert.equal(cdev, '24:346:12:61');
  const decoded = S.decodeHash('#v=1&hw=custom&cdev=' + cdev);
  assert.equal(decoded.state.cdev, cdev);
  assert.deepEqual(decoded.rejected, []);
  // A CPU's fraction of a TFLOPS still gives a device the core accepts: at least 1 of each.
  assert.equal(S.customDeviceFrom({ memory_bytes: 0.4 * 1073741824, memory_bandwidth_bytes_per_s: 0.2e9,
                                    fp16_flops_per_s: 0.3e12, cuda_compute_capability: 0 }), '1:1:1');
});
