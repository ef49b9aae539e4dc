/**
 * The file_path guard (src/io/file-path-guard.ts) over generated spellings:
 * dots and separators in every encoding a URL parser or server may decode
 * (escaped, escaped again, overlong UTF-8, backslashes, control characters
 * between the dots), under a local and a URL base. Whatever it lets through
 * must stay in the folder as a file system resolves it and as a naive server
 * reads the URL fetch sends (decoded once and twice, `\` a separator); what
 * a plain relative name spells must pass.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { posix } from 'node:path';
import { UnsupportedError } from '../../src/errors.js';
import { resolveFilePath } from '../../src/io/file-path-guard.js';
import { staysUnder } from './http-server.js';

const DOTS = ['.', '%2e', '%2E', '%252e', '%25252E', '%c0%ae', '%C0%AE', '%e0%80%ae', '%f0%80%80%ae', '．', '%EF%BC%8E'];
const SEPARATORS = ['/', '\\', '%2f', '%2F', '%5c', '%5C', '%252f', '%255C', '//', '/./', '%2f.%2f'];
const BETWEEN = ['', '\t', '\n', '\r', '\0', '%09', '%0a', '%00', '%2509', '%7f', ' '];

/** `..` spelled from two dots and something between them, followed by a separator, many ways. */
function* spellings(): Generator<string> {
  for (const a of DOTS) {
    for (const b of DOTS) {
      for (const sep of SEPARATORS) {
        yield `${a}${b}${sep}outside${sep}secret.parquet`;
        yield `sub${sep}${a}${b}${sep}${a}${b}${sep}outside${sep}secret.parquet`;
      }
    }
  }
  for (const between of BETWEEN) for (const sep of SEPARATORS) yield `.${between}.${sep}outside/secret.parquet`;
  for (const lead of ['/', '//', '\\\\', 'C:', 'c|', 'file:', 'http:', 'HTTP://127.0.0.1/', ' /', '\t/', '%2f', '%252f', '%5c']) yield `${lead}outside/secret.parquet`;
}

/** What a file system opens: the path resolved, nothing decoded. */
function localInside(resolved: string): boolean {
  return posix.resolve('/r', resolved).startsWith('/r/ds/');
}

test('no generated spelling the guard lets through leaves the folder, for a file system or a server', () => {
  let refused = 0;
  let passed = 0;
  for (const named of spellings()) {
    for (const file of ['/r/ds/_metadata', 'http://127.0.0.1:9/ds/_metadata']) {
      let resolved: string;
      try {
        resolved = resolveFilePath(file, named, '', false, { file, rowGroup: 1 });
      } catch (e) {
        assert.ok(e instanceof UnsupportedError, `${JSON.stringify(named)}: ${String(e)}`);
        assert.match(e.message, /row group 1\b/);
        refused++;
        continue;
      }
      passed++;
      if (file.startsWith('/')) {
        assert.ok(localInside(resolved), `${JSON.stringify(named)} → ${resolved}`);
        // The same folder served over HTTP: the name must stay inside once a server decodes it.
        assert.ok(staysUnder('/ds/', `/ds/${named}`), `${JSON.stringify(named)} passes, yet climbs once served`);
      } else {
        const url = new URL(resolved);
        assert.equal(url.origin, 'http://127.0.0.1:9', `${JSON.stringify(named)} → ${resolved}`);
        assert.ok(staysUnder('/ds/', url.pathname), `${JSON.stringify(named)} → ${url.pathname}`);
      }
    }
  }
  assert.ok(refused > 1000 && passed > 100, `${refused} refused, ${passed} passed`);
});

test('plain relative names pass, local and as URLs, and lead where a file system would', () => {
  for (const named of ['a.parquet', './a.parquet', 'x/../a.parquet', 'x//a.parquet', 'k=a%2Fb/part-0.parquet', 'k=a%5Cb/p.parquet', 'k=2024-01-02%2010%3A00/p.parquet',
    'é/p.parquet', '%C3%A9/p.parquet', 'a b.parquet', '...', 'x/..a', 'a..', '.hidden/p.parquet', 'a%zz.parquet', '100%.parquet', 'x/a:b.parquet']) {
    const local = resolveFilePath('/r/ds/_metadata', named, '', false, {});
    assert.equal(local, posix.join('/r/ds', named), named);
    const url = resolveFilePath('http://h/ds/_metadata', named, '', false, {});
    assert.ok(new URL(url).pathname.startsWith('/ds/'), `${named} → ${url}`);
  }
});

test('a root other than the naming file\'s directory bounds the path; allowOutsideRoot takes it as written', () => {
  assert.equal(resolveFilePath('/r/ds/sub/_metadata', '../a.parquet', '/r/ds', false, {}), '/r/ds/a.parquet');
  assert.throws(() => resolveFilePath('/r/ds/sub/_metadata', '../../a.parquet', '/r/ds', false, {}), UnsupportedError);
  assert.equal(resolveFilePath('http://h/ds/sub/_metadata', '../a.parquet', 'http://h/ds', false, {}), 'http://h/ds/a.parquet');
  assert.throws(() => resolveFilePath('http://h/ds/sub/_metadata', '../../ds-x/a.parquet', 'http://h/ds', false, {}), UnsupportedError);
  assert.equal(resolveFilePath('/r/ds/_metadata', '/elsewhere/a.parquet', '', true, {}), '/elsewhere/a.parquet');
  assert.equal(resolveFilePath('/r/ds/_metadata', '../x.parquet', '', true, {}), '/r/x.parquet');
});
