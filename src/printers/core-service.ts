/** Services and Endpoints, as upstream's printService and printEndpoints. */
import type { Obj } from '../machinery/object.js';
import { AGE_COLUMN, NAME_COLUMN, column, wide } from './columns.js';
import { CORE_V1 } from './descriptions.js';
import { listAt, numAt, strAt, valueAt } from '../machinery/fields.js';
import { ageOf, formatLabelsAt, joinHostPort, nameOf, sortedSet } from './format.js';
import type { TablePrinter } from './types.js';

/** The first element when it is a string, else "". */
function firstString(values: unknown[]): string {
  return typeof values[0] === 'string' ? values[0] : '';
}

/**
 * loadBalancerStatusStringer: the ingress IPs (else hostnames), sorted and unique. Never
 * clipped: the server prints wide output, which upstream does not shorten.
 */
export function loadBalancerStatus(status: unknown): string {
  const addresses = listAt(status, 'ingress')
    .map((ing) => strAt(ing, 'ip') || strAt(ing, 'hostname'))
    .filter((a) => a !== '');
  return sortedSet(addresses).join(',');
}

/** getServiceExternalIP. */
function externalIP(svc: Obj): string {
  const externalIPs = listAt(svc, 'spec.externalIPs').filter((ip): ip is string => typeof ip === 'string');
  switch (strAt(svc, 'spec.type')) {
    case 'ClusterIP':
    case 'NodePort':
      return externalIPs.length > 0 ? externalIPs.join(',') : '<none>';
    case 'LoadBalancer': {
      const lbIPs = loadBalancerStatus(valueAt(svc, 'status.loadBalancer'));
      if (externalIPs.length > 0) return [...(lbIPs === '' ? [] : lbIPs.split(',')), ...externalIPs].join(',');
      return lbIPs === '' ? '<pending>' : lbIPs;
    }
    case 'ExternalName':
      return strAt(svc, 'spec.externalName');
    default:
      return '<unknown>';
  }
}

/** makePortString: port/protocol, or port:nodePort/protocol. */
function portString(svc: Obj): string {
  return listAt(svc, 'spec.ports')
    .map((p) => {
      const nodePort = numAt(p, 'nodePort');
      return nodePort > 0 ? `${numAt(p, 'port')}:${nodePort}/${strAt(p, 'protocol')}` : `${numAt(p, 'port')}/${strAt(p, 'protocol')}`;
    })
    .join(',');
}

/** The first cluster IP; spec.clusterIP wins over clusterIPs as upstream's v1 conversion decides. */
function clusterIP(svc: Obj): string {
  return strAt(svc, 'spec.clusterIP') || firstString(listAt(svc, 'spec.clusterIPs')) || '<none>';
}

export const servicePrinter: TablePrinter = {
  columns: [
    NAME_COLUMN,
    column('Type', 'string', CORE_V1['ServiceSpec.type']),
    column('Cluster-IP', 'string', CORE_V1['ServiceSpec.clusterIP']),
    column('External-IP', 'string', CORE_V1['ServiceSpec.externalIPs']),
    column('Port(s)', 'string', CORE_V1['ServiceSpec.ports']),
    AGE_COLUMN,
    wide('Selector', 'string', CORE_V1['ServiceSpec.selector']),
  ],
  rows: (svc, now) => [
    [nameOf(svc), strAt(svc, 'spec.type'), clusterIP(svc), externalIP(svc), portString(svc) || '<none>', ageOf(svc, now), formatLabelsAt(svc, 'spec.selector')],
  ],
};

/** formatEndpoints with every port: up to 3 ip:port (or bare ip without ports), then "+ N more...". */
function formatEndpoints(ep: Obj): string {
  const subsets = listAt(ep, 'subsets');
  if (subsets.length === 0) return '<none>';
  const max = 3;
  const shown: string[] = [];
  let more = false;
  let count = 0;
  const add = (text: string): boolean => {
    if (shown.length === max) {
      more = true;
      return false;
    }
    shown.push(text);
    return true;
  };
  for (const ss of subsets) {
    const addresses = listAt(ss, 'addresses');
    const ports = listAt(ss, 'ports');
    if (ports.length === 0) {
      // Headless services may have no ports.
      count += addresses.length;
      for (const a of addresses) if (!add(strAt(a, 'ip'))) break;
      continue;
    }
    for (const port of ports) {
      count += addresses.length;
      for (const a of addresses) if (!add(joinHostPort(strAt(a, 'ip'), numAt(port, 'port')))) break;
    }
  }
  const joined = shown.join(',');
  return more ? `${joined} + ${count - max} more...` : joined;
}

export const endpointsPrinter: TablePrinter = {
  columns: [NAME_COLUMN, column('Endpoints', 'string', CORE_V1['Endpoints.subsets']), AGE_COLUMN],
  rows: (ep, now) => [[nameOf(ep), formatEndpoints(ep), ageOf(ep, now)]],
};
