// What the "Hugging Face model" box accepts (web/src/55-model-hub.mjs): repository ids, -hf tags
// and Hub URLs become { repo, file, quant }; anything that is not one is refused before a request.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LlmCalc } from '../../web/src/00-namespace.mjs';
import '../../web/src/20-state.mjs';
import '../../web/src/55-model-hub.mjs';

const parse = (text) => JSON.parse(JSON.stringify(LlmCalc.hub.parseRepoRef(text)));

test('repository ids, tags and Hub addresses', () => {
  assert.deepEqual(parse('Qwen/Qwen3-8B'), { repo: 'Qwen/Qwen3-8B', file: '', quant: '' });
  assert.deepEqual(parse('  unsloth/Qwen3-8B-GGUF:UD-Q4_K_XL '), { repo: 'unsloth/Qwen3-8B-GGUF', file: '', quant: 'UD-Q4_K_XL' });
  assert.deepEqual(parse('hf.co/bartowski/Qwen_Qwen3-8B-GGUF:Q4_K_M'), { repo: 'bartowski/Qwen_Qwen3-8B-GGUF', file: '', quant: 'Q4_K_M' });
  assert.deepEqual(parse('https://huggingface.co/Qwen/Qwen3-8B'), { repo: 'Qwen/Qwen3-8B', file: '', quant: '' });
  assert.deepEqual(parse('https://huggingface.co/Qwen/Qwen3-8B/tree/main'), { repo: 'Qwen/Qwen3-8B', file: '', quant: '' });
  assert.deepEqual(parse('https://huggingface.co/unsloth/X-GGUF/blob/main/Q4_K_M/X-Q4_K_M-00001-of-00002.gguf?download=true'),
                   { repo: 'unsloth/X-GGUF', file: 'Q4_K_M/X-Q4_K_M-00001-of-00002.gguf', quant: '' });
  assert.deepEqual(parse('https://www.huggingface.co/a/b/resolve/main/config.json'), { repo: 'a/b', file: 'config.json', quant: '' });
});

test('what is not a repository is refused', () => {
  for (const text of ['', 'qwen3', 'https://example.com/a/b', 'http://evil.co/hf.co/a/b', 'a/b/tree/dev', 'a/b/blob/main/../../x',
    '<img src=x>/b', 'a/b;rm -rf ~', '.hidden/repo', 'a/b/blob/main/x y.gguf', 'a'.repeat(97) + '/b']) {
    assert.equal(LlmCalc.hub.parseRepoRef(text), null, text);
  }
});
