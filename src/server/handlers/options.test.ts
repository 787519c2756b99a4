import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ORCH_BRAND } from '../../machinery/brand.js';
import { StatusError } from '../../machinery/status.js';
import { deleteOptionsOf, listOptionsOf, patchOptionsOf, watchOptionsOf, writeOptionsOf } from './options.js';

const q = (s: string) => new URLSearchParams(s);

function refused(fn: () => unknown, code: number, kind?: string): void {
  assert.throws(fn, (e: unknown) => e instanceof StatusError && e.code === code && (kind === undefined || e.details?.kind === kind));
}

describe('request options', () => {
  it('decode a create once: dryRun, fieldManager and fieldValidation', () => {
    assert.deepEqual(writeOptionsOf(q('dryRun=All&fieldManager=me&fieldValidation=Strict'), ORCH_BRAND, 'CreateOptions'), {
      dryRun: true,
      fieldManager: 'me',
      fieldValidation: 'Strict',
    });
    assert.deepEqual(writeOptionsOf(q(''), ORCH_BRAND, 'UpdateOptions'), { dryRun: false, fieldManager: '', fieldValidation: 'Warn' });
  });

  it('refuse what upstream refuses, with its codes', () => {
    refused(() => writeOptionsOf(q('dryRun=Some'), ORCH_BRAND, 'CreateOptions'), 400);
    refused(() => writeOptionsOf(q('fieldValidation=Loose'), ORCH_BRAND, 'UpdateOptions'), 422, 'UpdateOptions');
    refused(() => writeOptionsOf(q(`fieldManager=${'x'.repeat(200)}`), ORCH_BRAND, 'CreateOptions'), 422, 'CreateOptions');
    refused(() => patchOptionsOf(q('force=true'), ORCH_BRAND, false), 422, 'PatchOptions');
    refused(() => patchOptionsOf(q(''), ORCH_BRAND, true), 422, 'PatchOptions');
    refused(() => patchOptionsOf(q('fieldManager=me&force=maybe'), ORCH_BRAND, true), 400);
    refused(() => deleteOptionsOf(q('propagationPolicy=Orphan&orphanDependents=true'), undefined, ORCH_BRAND), 422, 'DeleteOptions');
  });

  it('give apply its force and a watch of one object its name selector', () => {
    assert.equal(patchOptionsOf(q('fieldManager=me&force=1'), ORCH_BRAND, true).force, true);
    const w = watchOptionsOf(q('fieldSelector=spec.nodeName%3Dn&timeoutSeconds=5&allowWatchBookmarks=true'), 'p', 1800);
    assert.equal(w.fieldSelector, 'spec.nodeName=n,metadata.name=p');
    assert.equal(w.timeoutSeconds, 5);
    assert.equal(w.allowWatchBookmarks, true);
  });
});

describe('integer parameters', () => {
  const message = (fn: () => unknown): string => {
    try {
      fn();
    } catch (e) {
      assert.ok(e instanceof StatusError && e.code === 400);
      return e.message;
    }
    assert.fail('not refused');
  };

  it('are refused as strconv.ParseInt refuses them, with its text alone', () => {
    assert.equal(
      message(() => listOptionsOf(q('limit=abc'))),
      'strconv.ParseInt: parsing "abc": invalid syntax',
    );
    assert.equal(
      message(() => listOptionsOf(q('limit='))),
      'strconv.ParseInt: parsing "": invalid syntax',
    );
    assert.equal(
      message(() => listOptionsOf(q('limit=1.5'))),
      'strconv.ParseInt: parsing "1.5": invalid syntax',
    );
    assert.equal(
      message(() => listOptionsOf(q('timeoutSeconds=9223372036854775808'))),
      'strconv.ParseInt: parsing "9223372036854775808": value out of range',
    );
    assert.equal(
      message(() => deleteOptionsOf(q('gracePeriodSeconds=soon'), undefined, ORCH_BRAND)),
      'strconv.ParseInt: parsing "soon": invalid syntax',
    );
  });

  it('take the first value, a sign, and int64s beyond what a timer holds', () => {
    assert.equal(listOptionsOf(q('limit=%2B5&limit=x')).limit, 5);
    assert.equal(listOptionsOf(q('limit=-1')).limit, -1);
    assert.equal(deleteOptionsOf(q('gracePeriodSeconds=0'), { gracePeriodSeconds: 30 }, ORCH_BRAND).gracePeriodSeconds, 0);
    assert.equal(watchOptionsOf(q('timeoutSeconds=9223372036854775807'), '', 1800).timeoutSeconds, Math.floor(0x7fffffff / 1000));
    assert.equal(watchOptionsOf(q('timeoutSeconds=-3'), '', 1800).timeoutSeconds, 0);
  });
});
