/**
 * Printers of the networking group, keyed by kind. The extensions group's Ingress prints the
 * same way (upstream converts both views to one internal Ingress).
 */
import type { Obj } from '../machinery/object.js';
import { AGE_COLUMN, NAME_COLUMN, column } from './columns.js';
import { loadBalancerStatus } from './core-service.js';
import { EXTENSIONS_V1BETA1 } from './descriptions.js';
import { isSetAt, listAt, strAt, valueAt } from '../machinery/fields.js';
import { ageOf, formatLabelSelector, nameOf } from './format.js';
import type { TablePrinter } from './types.js';

/** formatHosts: up to 3 rule hosts, then "+ N more..." counted over all rules; "*" for none. */
function formatHosts(ingress: Obj): string {
  const rules = listAt(ingress, 'spec.rules');
  const max = 3;
  const hosts: string[] = [];
  let more = false;
  for (const rule of rules) {
    if (hosts.length === max) more = true;
    const host = strAt(rule, 'host');
    if (!more && host !== '') hosts.push(host);
  }
  if (hosts.length === 0) return '*';
  return more ? `${hosts.join(',')} + ${rules.length - max} more...` : hosts.join(',');
}

export const ingressPrinter: TablePrinter = {
  columns: [
    NAME_COLUMN,
    column('Class', 'string', 'The name of the IngressClass resource that should be used for additional configuration'),
    column('Hosts', 'string', 'Hosts that incoming requests are matched against before the ingress rule'),
    column('Address', 'string', 'Address is a list containing ingress points for the load-balancer'),
    column('Ports', 'string', 'Ports of TLS configurations that open'),
    AGE_COLUMN,
  ],
  rows: (obj, now) => [
    [
      nameOf(obj),
      isSetAt(obj, 'spec.ingressClassName') ? strAt(obj, 'spec.ingressClassName') : '<none>',
      formatHosts(obj),
      loadBalancerStatus(valueAt(obj, 'status.loadBalancer')),
      listAt(obj, 'spec.tls').length > 0 ? '80, 443' : '80',
      ageOf(obj, now),
    ],
  ],
};

/** "Kind[.apiGroup]/name" of the class parameters, "<none>" without them. */
function ingressClassParameters(obj: Obj): string {
  if (!isSetAt(obj, 'spec.parameters')) return '<none>';
  const group = isSetAt(obj, 'spec.parameters.apiGroup') ? `.${strAt(obj, 'spec.parameters.apiGroup')}` : '';
  return `${strAt(obj, 'spec.parameters.kind')}${group}/${strAt(obj, 'spec.parameters.name')}`;
}

const ingressClassPrinter: TablePrinter = {
  columns: [
    NAME_COLUMN,
    column('Controller', 'string', 'Controller that is responsible for handling this class'),
    column('Parameters', 'string', 'A reference to a resource with additional parameters'),
    AGE_COLUMN,
  ],
  rows: (obj, now) => [[nameOf(obj), strAt(obj, 'spec.controller'), ingressClassParameters(obj), ageOf(obj, now)]],
};

const networkPolicyPrinter: TablePrinter = {
  columns: [NAME_COLUMN, column('Pod-Selector', 'string', EXTENSIONS_V1BETA1['NetworkPolicySpec.podSelector']), AGE_COLUMN],
  // spec.podSelector is a struct upstream: absent reads as the empty selector.
  rows: (obj, now) => [[nameOf(obj), formatLabelSelector(valueAt(obj, 'spec.podSelector') ?? {}), ageOf(obj, now)]],
};

/** The networking group's printers by kind. */
export function networkingPrinters(): Record<string, TablePrinter> {
  return { Ingress: ingressPrinter, IngressClass: ingressClassPrinter, NetworkPolicy: networkPolicyPrinter };
}

/** The extensions group's printers by kind. */
export function extensionsPrinters(): Record<string, TablePrinter> {
  return { Ingress: ingressPrinter };
}
