/** The `/version` document: the upstream release whose API orch serves, plus orch's own build. */

/** Upstream release the served API corresponds to. */
export const SERVED_RELEASE = { major: '1', minor: '25' };

export const ORCH_VERSION = '0.1.0';

/** The version.Info object clients read from `/version`. */
export function versionInfo(): Record<string, string> {
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  return {
    major: SERVED_RELEASE.major,
    minor: SERVED_RELEASE.minor,
    gitVersion: `v${SERVED_RELEASE.major}.${SERVED_RELEASE.minor}.0-orch.${ORCH_VERSION}`,
    gitCommit: '0000000000000000000000000000000000000000',
    gitTreeState: 'clean',
    buildDate: '2026-11-22T00:00:00Z',
    goVersion: `node${process.versions.node}`,
    compiler: 'node',
    platform: `${process.platform}/${arch}`,
  };
}
