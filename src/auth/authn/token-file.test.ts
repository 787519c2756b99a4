import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tokenFileAuthenticator, TokenFileError } from './token-file.js';
import { parseCsv } from './csv.js';

test('csv: quoted cells hold commas, quotes and newlines; blank lines skipped; no trimming', () => {
  assert.deepEqual(parseCsv('a,b,c\n\n"x,y","say ""hi""","l1\nl2"\r\n d ,e,f'), [
    ['a', 'b', 'c'],
    ['x,y', 'say "hi"', 'l1\nl2'],
    [' d ', 'e', 'f'],
  ]);
  assert.throws(() => parseCsv('a,b"c,d'), /bare " in non-quoted-field/);
  assert.throws(() => parseCsv('"abc'), /extraneous or missing " in quoted-field/);
  assert.throws(() => parseCsv('"ab"c,d'), /extraneous or missing " in quoted-field/);
});

test('token file: token, user, uid, quoted group list; columns past the 4th ignored', async () => {
  const auth = tokenFileAuthenticator('t.csv', 'tok1,alice,1\ntok2,bob,2,"dev,ops",ignored\ntok3,carol,3,solo\n');
  assert.deepEqual(await auth.authenticateToken('tok1'), { name: 'alice', uid: '1', groups: [] });
  assert.deepEqual(await auth.authenticateToken('tok2'), { name: 'bob', uid: '2', groups: ['dev', 'ops'] });
  assert.deepEqual(await auth.authenticateToken('tok3'), { name: 'carol', uid: '3', groups: ['solo'] });
  assert.equal(await auth.authenticateToken('tok'), undefined);
  assert.equal(await auth.authenticateToken('TOK1'), undefined);
});

test('token file: fewer than 3 columns or a malformed quote stop start-up with upstream text', () => {
  assert.throws(
    () => tokenFileAuthenticator('/etc/t.csv', 'tok1,alice\n'),
    (e: unknown) => e instanceof TokenFileError && e.message === "token file '/etc/t.csv' must have at least 3 columns (token, user name, user uid), found 2",
  );
  assert.throws(() => tokenFileAuthenticator('/etc/t.csv', 'to"k,alice,1\n'), TokenFileError);
});

test('token file: empty tokens skipped with a warning; a duplicate token warns and the last one wins', async () => {
  const warnings: string[] = [];
  const auth = tokenFileAuthenticator('t.csv', ',nobody,0\ndup,first,1\ndup,second,2\n', (w) => warnings.push(w));
  assert.equal((await auth.authenticateToken('dup'))?.name, 'second');
  assert.equal(await auth.authenticateToken(''), undefined);
  assert.equal(warnings.length, 2);
  assert.ok(
    warnings.every((w) => !w.includes('dup,')),
    'warnings never carry a token',
  );
});
