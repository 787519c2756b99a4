import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Obj } from '../machinery/object.js';
import { extensionsPrinters, networkingPrinters } from './networking.js';
import type { TablePrinter } from './types.js';

const NOW = new Date('2024-05-01T12:00:00Z');
const printers = networkingPrinters();
const row = (printer: TablePrinter, obj: Obj) => printer.rows(obj, NOW)[0];
const names = (printer: TablePrinter) => printer.columns.map((c) => c.name);

describe('networking printers', () => {
  it('ingresses: class, hosts, address, ports (TestPrintIngress)', () => {
    const ing = printers.Ingress;
    assert.deepEqual(names(ing), ['Name', 'Class', 'Hosts', 'Address', 'Ports', 'Age']);
    const obj = {
      metadata: { name: 'test1' },
      spec: { ingressClassName: 'foo', defaultBackend: { service: { name: 'svc', port: { number: 93 } } } },
      status: { loadBalancer: { ingress: [{ ip: '2.3.4.5', hostname: 'localhost.localdomain' }] } },
    };
    assert.deepEqual(row(ing, obj), ['test1', 'foo', '*', '2.3.4.5', '80', '<unknown>']);
    const rules = ['a.com', 'b.com', '', 'c.com', 'd.com'].map((host) => ({ host }));
    assert.deepEqual(row(ing, { metadata: { name: 't' }, spec: { rules, tls: [{}] } }).slice(1, 5), ['<none>', 'a.com,b.com,c.com + 2 more...', '', '80, 443']);
  });

  it('extensions serves the same ingress printer', () => {
    assert.equal(extensionsPrinters().Ingress, printers.Ingress);
  });

  it('ingress classes: controller and parameters (TestPrintIngressClass)', () => {
    const ic = printers.IngressClass;
    assert.deepEqual(names(ic), ['Name', 'Controller', 'Parameters', 'Age']);
    const obj = (parameters?: Obj): Obj => ({ metadata: { name: 'test1' }, spec: { controller: 'example.com/controller', parameters } });
    assert.deepEqual(row(ic, obj({ apiGroup: 'example.com', kind: 'customparameters', name: 'custom' })), [
      'test1',
      'example.com/controller',
      'customparameters.example.com/custom',
      '<unknown>',
    ]);
    assert.equal(row(ic, obj({ kind: 'customparameters', name: 'custom' }))[2], 'customparameters/custom');
    assert.equal(row(ic, obj())[2], '<none>');
  });

  it('network policies print their pod selector (TestPrintNetworkPolicy)', () => {
    const np = printers.NetworkPolicy;
    assert.deepEqual(names(np), ['Name', 'Pod-Selector', 'Age']);
    assert.deepEqual(row(np, { metadata: { name: 'np' }, spec: { podSelector: { matchLabels: { role: 'db' } } } }), ['np', 'role=db', '<unknown>']);
    assert.equal(row(np, { metadata: { name: 'np' }, spec: { podSelector: {} } })[1], '<none>');
    const exprs = { matchExpressions: [{ key: 'tier', operator: 'In', values: ['web', 'api'] }] };
    assert.equal(row(np, { metadata: { name: 'np' }, spec: { podSelector: exprs } })[1], 'tier in (api,web)');
  });
});
