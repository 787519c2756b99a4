/**
 * Loads the Kubernetes .proto files (under ./proto/) into one shared protobufjs Root, one file
 * (with its imports) at a time, on first use: parsing every file up front costs ~70 ms, while a
 * small group costs ~10 ms and the pod spec (core/v1/pod.proto and what it imports) ~40 ms, so a
 * process pays only for the kinds it actually encodes or decodes.
 *
 * The files are read at run time from the source tree, not copied into dist/: tsc does not
 * copy non-TS files, and a build step to do so would be one more thing to forget. The
 * directory is found by trying, in order:
 *   1. `./proto/` beside this module (running from src/ with a TS loader, or a copied build);
 *   2. `<ancestor>/src/codec/protobuf/proto/` for each ancestor of this module's directory
 *      (covers dist/src/codec/protobuf/ and any other outDir/rootDir layout).
 * Set ORCH_PROTO_DIR to override (e.g. a bundled deployment).
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type protobuf from 'protobufjs';
import { protobufjs } from './protobufjs.js';

/** The file of each Protobuf package; a file's `import`s load with it. */
export const PACKAGE_FILES: Readonly<Record<string, string>> = {
  'k8s.io.apimachinery.pkg.apis.meta.v1': 'k8s.io/apimachinery/pkg/apis/meta/v1/generated.proto',
  'k8s.io.api.core.v1': 'k8s.io/api/core/v1/generated.proto',
  'k8s.io.api.admissionregistration.v1': 'k8s.io/api/admissionregistration/v1/generated.proto',
  'k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1': 'k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1/generated.proto',
  'k8s.io.kube_aggregator.pkg.apis.apiregistration.v1': 'k8s.io/kube-aggregator/pkg/apis/apiregistration/v1/generated.proto',
  'k8s.io.api.apps.v1': 'k8s.io/api/apps/v1/generated.proto',
  'k8s.io.api.authentication.v1': 'k8s.io/api/authentication/v1/generated.proto',
  'k8s.io.api.authentication.v1beta1': 'k8s.io/api/authentication/v1beta1/generated.proto',
  'k8s.io.api.authentication.v1alpha1': 'k8s.io/api/authentication/v1alpha1/generated.proto',
  'k8s.io.api.authorization.v1': 'k8s.io/api/authorization/v1/generated.proto',
  'k8s.io.api.autoscaling.v1': 'k8s.io/api/autoscaling/v1/generated.proto',
  'k8s.io.api.autoscaling.v2': 'k8s.io/api/autoscaling/v2/generated.proto',
  'k8s.io.api.autoscaling.v2beta2': 'k8s.io/api/autoscaling/v2beta2/generated.proto',
  'k8s.io.api.batch.v1': 'k8s.io/api/batch/v1/generated.proto',
  'k8s.io.api.certificates.v1': 'k8s.io/api/certificates/v1/generated.proto',
  'k8s.io.api.coordination.v1': 'k8s.io/api/coordination/v1/generated.proto',
  'k8s.io.api.discovery.v1': 'k8s.io/api/discovery/v1/generated.proto',
  'k8s.io.api.events.v1': 'k8s.io/api/events/v1/generated.proto',
  'k8s.io.api.extensions.v1beta1': 'k8s.io/api/extensions/v1beta1/generated.proto',
  'k8s.io.api.flowcontrol.v1beta1': 'k8s.io/api/flowcontrol/v1beta1/generated.proto',
  'k8s.io.api.flowcontrol.v1beta2': 'k8s.io/api/flowcontrol/v1beta2/generated.proto',
  'k8s.io.api.networking.v1': 'k8s.io/api/networking/v1/generated.proto',
  'k8s.io.api.node.v1': 'k8s.io/api/node/v1/generated.proto',
  'k8s.io.api.policy.v1': 'k8s.io/api/policy/v1/generated.proto',
  'k8s.io.api.policy.v1beta1': 'k8s.io/api/policy/v1beta1/generated.proto',
  'k8s.io.api.rbac.v1': 'k8s.io/api/rbac/v1/generated.proto',
  'k8s.io.api.scheduling.v1': 'k8s.io/api/scheduling/v1/generated.proto',
  'k8s.io.api.storage.v1': 'k8s.io/api/storage/v1/generated.proto',
};

const CORE_POD = 'k8s.io/api/core/v1/pod.proto';
const CORE_NODE = 'k8s.io/api/core/v1/node.proto';
const CORE_PV = 'k8s.io/api/core/v1/persistentvolume.proto';

/**
 * Messages outside their package's file: core/v1 is split so that ConfigMap & co. (in its
 * generated.proto) load without the pod spec; these kinds live in the other parts.
 */
export const MESSAGE_FILES: Readonly<Record<string, string>> = {
  'k8s.io.api.core.v1.Pod': CORE_POD,
  'k8s.io.api.core.v1.PodList': CORE_POD,
  'k8s.io.api.core.v1.PodTemplate': CORE_POD,
  'k8s.io.api.core.v1.PodTemplateList': CORE_POD,
  'k8s.io.api.core.v1.ReplicationController': CORE_POD,
  'k8s.io.api.core.v1.ReplicationControllerList': CORE_POD,
  'k8s.io.api.core.v1.Node': CORE_NODE,
  'k8s.io.api.core.v1.NodeList': CORE_NODE,
  'k8s.io.api.core.v1.PersistentVolume': CORE_PV,
  'k8s.io.api.core.v1.PersistentVolumeList': CORE_PV,
  'k8s.io.api.core.v1.PersistentVolumeClaim': CORE_PV,
  'k8s.io.api.core.v1.PersistentVolumeClaimList': CORE_PV,
};

const MARKER = 'k8s.io/apimachinery/pkg/apis/meta/v1/generated.proto';
const RELATIVE_FROM_ROOT = join('src', 'codec', 'protobuf', 'proto');

/** Returns the directory holding the .proto tree; throws (listing where it looked) if none is found. */
export function findProtoDir(): string {
  const tried: string[] = [];
  const candidates: string[] = [];
  if (process.env.ORCH_PROTO_DIR) candidates.push(process.env.ORCH_PROTO_DIR);
  const here = dirname(fileURLToPath(import.meta.url));
  candidates.push(join(here, 'proto'));
  for (let dir = here; ; dir = dirname(dir)) {
    candidates.push(join(dir, RELATIVE_FROM_ROOT));
    if (dirname(dir) === dir) break;
  }
  for (const dir of candidates) {
    if (existsSync(join(dir, MARKER))) return dir;
    tried.push(dir);
  }
  throw new Error(`Kubernetes .proto files not found; looked in: ${tried.join(', ')}`);
}

/** The .proto file (relative to the proto directory) defining a fully qualified message; throws for an unknown package. */
export function protoFileFor(messageName: string): string {
  const pkg = messageName.slice(0, messageName.lastIndexOf('.'));
  const file = MESSAGE_FILES[messageName] ?? PACKAGE_FILES[pkg];
  if (file === undefined) throw new Error(`no .proto file for package ${pkg}`);
  return file;
}

/** A new Root that loads files (and their imports) from `dir`, resolving upstream import paths there. */
export function newProtoRoot(dir: string): protobuf.Root {
  const root = new (protobufjs().Root)();
  // Imports name upstream paths ("k8s.io/apimachinery/..."); all live under one directory.
  root.resolvePath = (_origin, target) => join(dir, target);
  return root;
}

let root: protobuf.Root | undefined;
const loadedFiles = new Set<string>();

/** The shared Root with the file defining `messageName` (and what it imports) loaded and resolved. */
export function protoRootFor(messageName: string): protobuf.Root {
  const file = protoFileFor(messageName);
  if (root && loadedFiles.has(file)) return root;
  root ??= newProtoRoot(findProtoDir());
  // keepCase: field names are the upstream names (FieldsV1 has `Raw`). protobufjs skips files
  // the Root already holds, so shared imports (meta/v1, core/v1) are parsed once.
  root.loadSync(file, { keepCase: true });
  root.resolveAll();
  loadedFiles.add(file);
  return root;
}
