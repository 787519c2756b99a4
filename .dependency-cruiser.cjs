// Import-layer rules from DESIGN.md: imports point down only.
// Each layer lists the src/ folders it may import (besides itself and node/npm modules).
const layers = {
  machinery: [],
  pki: ['machinery'],
  storage: ['machinery'],
  api: ['machinery'],
  codec: ['machinery', 'api'],
  printers: ['machinery', 'api'],
  apply: ['machinery', 'api', 'codec'],
  registry: ['machinery', 'api', 'codec', 'apply', 'storage'],
  admission: ['machinery', 'api', 'codec', 'apply', 'registry'],
  auth: ['machinery', 'pki'],
  server: ['machinery', 'api', 'codec', 'apply', 'storage', 'registry', 'admission', 'auth', 'pki', 'printers'],
  client: ['machinery', 'codec'],
  controllers: ['machinery', 'codec', 'client'],
  scheduler: ['machinery', 'codec', 'client'],
  // A component's secure serving (scheduler, controller manager): delegated authn/authz, health, metrics.
  serving: ['machinery', 'pki', 'auth', 'codec'],
  cmd: ['machinery', 'api', 'codec', 'apply', 'storage', 'registry', 'admission', 'auth', 'pki', 'printers', 'server', 'client', 'controllers', 'scheduler', 'serving'],
};

const forbidden = Object.entries(layers).map(([layer, allowed]) => ({
  name: `layer-${layer}`,
  comment: `src/${layer} may import only ${allowed.length ? allowed.join(', ') : 'itself'} (DESIGN.md layers)`,
  severity: 'error',
  from: { path: `^src/${layer}/` },
  to: { path: '^src/', pathNot: [`^src/${layer}/`, ...allowed.map((a) => `^src/${a}/`)] },
}));

module.exports = {
  forbidden: [
    ...forbidden,
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    { name: 'src-not-test', severity: 'error', from: { path: '^src/' }, to: { path: '^(test|bench)/' } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.test\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
