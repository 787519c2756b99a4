/**
 * Loads the Kubernetes .proto files (under ./proto/) into one protobufjs Root, once.
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
import protobuf from 'protobufjs';

/** The .proto files to load; imports among them resolve against the same directory. */
export const PROTO_FILES: readonly string[] = [
  'k8s.io/apimachinery/pkg/runtime/generated.proto',
  'k8s.io/apimachinery/pkg/util/intstr/generated.proto',
  'k8s.io/apimachinery/pkg/api/resource/generated.proto',
  'k8s.io/apimachinery/pkg/apis/meta/v1/generated.proto',
  'k8s.io/api/core/v1/generated.proto',
  'k8s.io/api/events/v1/generated.proto',
];

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

let cached: protobuf.Root | undefined;

/** The loaded, fully resolved Root; the files are parsed on the first call only (~20 ms). */
export function kubernetesProtoRoot(): protobuf.Root {
  if (cached) return cached;
  const dir = findProtoDir();
  const root = new protobuf.Root();
  // Imports name upstream paths ("k8s.io/apimachinery/..."); all live under one directory.
  root.resolvePath = (_origin, target) => join(dir, target);
  // keepCase: field names are already the JSON names (and FieldsV1 has `Raw`).
  root.loadSync(PROTO_FILES as string[], { keepCase: true });
  root.resolveAll();
  cached = root;
  return root;
}
