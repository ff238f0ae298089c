// Every JSON file of data/ and tests/ names each key once per object. JSON.parse and nlohmann
// keep the last of two equal keys without a word, so a record whose closing brace was lost
// silently became the next record (tests/data/multi_device_runs.json, found 2026-12-02).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

function jsonFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return jsonFiles(path);
    return name.endsWith('.json') ? [path] : [];
  });
}

// The keys an object repeats, as "line N: key". Walks the text once: strings (with escapes),
// and a stack of the keys seen in each open object (null for an array).
function repeatedKeys(text) {
  const found = [];
  const stack = [];
  let expectKey = false;
  let line = 1;
  for (let i = 0; i < text.length; ++i) {
    const c = text[i];
    if (c === '\n') ++line;
    else if (c === '{') { stack.push(new Set()); expectKey = true; }
    else if (c === '[') { stack.push(null); expectKey = false; }
    else if (c === '}' || c === ']') { stack.pop(); expectKey = false; }
    else if (c === ',') expectKey = stack.length > 0 && stack[stack.length - 1] !== null;
    else if (c === '"') {
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      if (expectKey) {
        const key = JSON.parse(text.slice(i, end + 1));
        const keys = stack[stack.length - 1];
        if (keys.has(key)) found.push(`line ${line}: ${key}`);
        keys.add(key);
        expectKey = false;
      }
      i = end;
    }
  }
  return found;
}

test('the scanner finds a repeated key and accepts the same key in sibling objects', () => {
  assert.deepEqual(repeatedKeys('{"a": 1,\n "b": {"a": 2}, "a": "x,\\"a\\""}'), ['line 2: a']);
  assert.deepEqual(repeatedKeys('[{"id": 1, "v": [1, {"id": 2}]}, {"id": 3}]'), []);
});

test('no JSON file of data/ or tests/ repeats a key in an object', () => {
  const files = [...jsonFiles(join(root, 'data')), ...jsonFiles(join(root, 'tests'))];
  assert.ok(files.length > 100, `only ${files.length} JSON files found`);
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    JSON.parse(text);  // valid JSON first
    assert.deepEqual(repeatedKeys(text), [], relative(root, file));
  }
});
