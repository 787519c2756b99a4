/**
 * Which requests each built-in signer signs, as kube-controller-manager's csrsigning decides
 * (`pkg/controller/certificates/signer/signer.go`, `pkg/apis/certificates/helpers.go`): a
 * request for a signer it does not serve (e.g. `legacy-unknown`) is left alone; one it serves
 * but whose usages or subject break the signer's rules fails with the returned message.
 */
import type { Brand } from '../machinery/brand.js';

/** The fields of a parsed PKCS#10 request a signer's rules read. */
export interface RequestSubject {
  commonName: string;
  organizations: string[];
  dnsNames: string[];
  ipAddresses: string[];
  emailAddresses: string[];
  uris: string[];
}

/** `undefined`: not this controller's signer; `ok`: sign; otherwise the Failed message. */
export type SignerVerdict = undefined | { ok: true } | { ok: false; message: string };

const NODE_PREFIX = 'system:node:';
const NODES_GROUP = 'system:nodes';

/** The signer names signed by this controller, for a brand (`orch.io/...`, `kubernetes.io/...`). */
export function signerNames(brand: Brand): { apiServerClient: string; kubeletClient: string; kubeletServing: string } {
  return {
    apiServerClient: `${brand.labelDomain}/kube-apiserver-client`,
    kubeletClient: `${brand.labelDomain}/kube-apiserver-client-kubelet`,
    kubeletServing: `${brand.labelDomain}/kubelet-serving`,
  };
}

/** The verdict of the signer `signerName` on a request with these usages; pure. */
export function judgeRequest(brand: Brand, signerName: string, req: RequestSubject, usages: readonly string[]): SignerVerdict {
  const names = signerNames(brand);
  const message =
    signerName === names.apiServerClient
      ? apiServerClientProblem(usages)
      : signerName === names.kubeletClient
        ? kubeletClientProblem(req, usages)
        : signerName === names.kubeletServing
          ? kubeletServingProblem(req, usages)
          : null;
  if (message === null) return undefined;
  return message === undefined ? { ok: true } : { ok: false, message };
}

const API_SERVER_CLIENT_USAGES = new Set(['digital signature', 'key encipherment', 'client auth']);

/** Upstream checks only that every usage is a client one (no usage at all is accepted). */
function apiServerClientProblem(usages: readonly string[]): string | undefined {
  for (const u of usages) if (!API_SERVER_CLIENT_USAGES.has(u)) return `invalid usage for client certificate: ${u}`;
  return undefined;
}

const KUBELET_CLIENT_USAGES = ['client auth', 'digital signature', 'key encipherment'];
const KUBELET_CLIENT_USAGES_NO_RSA = ['client auth', 'digital signature'];

function kubeletClientProblem(req: RequestSubject, usages: readonly string[]): string | undefined {
  if (!onlyNodesGroup(req)) return 'subject organization is not system:nodes';
  if (req.dnsNames.length > 0) return 'DNS subjectAltNames are not allowed';
  if (req.emailAddresses.length > 0) return 'Email subjectAltNames are not allowed';
  if (req.ipAddresses.length > 0) return 'IP subjectAltNames are not allowed';
  if (req.uris.length > 0) return 'URI subjectAltNames are not allowed';
  if (!req.commonName.startsWith(NODE_PREFIX)) return 'subject common name does not begin with system:node:';
  if (!sameSet(usages, KUBELET_CLIENT_USAGES) && !sameSet(usages, KUBELET_CLIENT_USAGES_NO_RSA))
    return `usages did not match [${KUBELET_CLIENT_USAGES.join(' ')}]`;
  return undefined;
}

const KUBELET_SERVING_USAGES = ['digital signature', 'key encipherment', 'server auth'];
const KUBELET_SERVING_USAGES_NO_RSA = ['digital signature', 'server auth'];

function kubeletServingProblem(req: RequestSubject, usages: readonly string[]): string | undefined {
  if (!onlyNodesGroup(req)) return 'subject organization is not system:nodes';
  if (req.dnsNames.length === 0 && req.ipAddresses.length === 0) return 'DNS or IP subjectAltName is required';
  if (req.emailAddresses.length > 0) return 'Email subjectAltNames are not allowed';
  if (req.uris.length > 0) return 'URI subjectAltNames are not allowed';
  if (!sameSet(usages, KUBELET_SERVING_USAGES) && !sameSet(usages, KUBELET_SERVING_USAGES_NO_RSA))
    return `usages did not match [${KUBELET_SERVING_USAGES.join(' ')}]`;
  if (!req.commonName.startsWith(NODE_PREFIX)) return 'subject common name does not begin with system:node:';
  return undefined;
}

/** Upstream compares the organization list with `[system:nodes]` exactly. */
function onlyNodesGroup(req: RequestSubject): boolean {
  return req.organizations.length === 1 && req.organizations[0] === NODES_GROUP;
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const set = new Set(a);
  return set.size === b.length && b.every((x) => set.has(x));
}
