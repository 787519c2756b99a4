/**
 * The headers `kubectl get` prints for built-in types when the server renders Tables, as
 * upstream's printers define them (pkg/printers/internalversion/printers.go): kubectl upper-cases
 * each column name; `-o wide` adds the columns of priority 1.
 */

export interface Columns {
  /** Columns of priority 0, shown by default. */
  readonly normal: readonly string[];
  /** Every column, shown by `-o wide`. */
  readonly wide: readonly string[];
}

function columns(normal: string[], extraWide: string[] = []): Columns {
  return { normal, wide: [...normal, ...extraWide] };
}

export const UPSTREAM_COLUMNS = {
  pods: columns(['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE'], ['IP', 'NODE', 'NOMINATED NODE', 'READINESS GATES']),
  deployments: columns(['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE'], ['CONTAINERS', 'IMAGES', 'SELECTOR']),
  services: columns(['NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE'], ['SELECTOR']),
  nodes: columns(['NAME', 'STATUS', 'ROLES', 'AGE', 'VERSION'], ['INTERNAL-IP', 'EXTERNAL-IP', 'OS-IMAGE', 'KERNEL-VERSION', 'CONTAINER-RUNTIME']),
  // Core v1 events interleave wide columns with default ones (Subobject and Source before Message).
  events: {
    normal: ['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE'],
    wide: ['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'SUBOBJECT', 'SOURCE', 'MESSAGE', 'FIRST SEEN', 'COUNT', 'NAME'],
  },
  namespaces: columns(['NAME', 'STATUS', 'AGE']),
  configmaps: columns(['NAME', 'DATA', 'AGE']),
} satisfies Record<string, Columns>;
