/**
 * Well-known label, taint and resource names the scheduler reads. Upstream spells them under
 * `kubernetes.io`; orch under its brand's label domain (machinery/brand.ts).
 */
import { type Brand, ORCH_BRAND } from '../../machinery/brand.js';

export interface WellKnownNames {
  /** `kubernetes.io` or `orch.io`: the domain of well-known labels, taints and resources. */
  readonly labelDomain: string;
  /** `<domain>/hostname` node label. */
  readonly hostnameLabel: string;
  /** `topology.<domain>/zone` and `/region` node labels. */
  readonly zoneLabel: string;
  readonly regionLabel: string;
  /** Legacy `failure-domain.beta.<domain>/zone` and `/region` labels, still read upstream in 1.21. */
  readonly legacyZoneLabel: string;
  readonly legacyRegionLabel: string;
  /** `node.<domain>/unschedulable`, the taint a cordoned node carries. */
  readonly unschedulableTaint: string;
  /** `node.<domain>/not-ready`, `node.<domain>/unreachable`. */
  readonly notReadyTaint: string;
  readonly unreachableTaint: string;
  /** Prefix of prefixed native resource names (`<domain>/`). */
  readonly nativeResourcePrefix: string;
}

/** The well-known names under a brand; Kubernetes' own brand gives upstream's exact names. */
export function wellKnownNames(brand: Brand): WellKnownNames {
  const d = brand.labelDomain;
  return {
    labelDomain: d,
    hostnameLabel: `${d}/hostname`,
    zoneLabel: `topology.${d}/zone`,
    regionLabel: `topology.${d}/region`,
    legacyZoneLabel: `failure-domain.beta.${d}/zone`,
    legacyRegionLabel: `failure-domain.beta.${d}/region`,
    unschedulableTaint: `node.${d}/unschedulable`,
    notReadyTaint: `node.${d}/not-ready`,
    unreachableTaint: `node.${d}/unreachable`,
    nativeResourcePrefix: `${d}/`,
  };
}

/** orch's names, the default for code that is not handed a brand. */
export const ORCH_NAMES: WellKnownNames = wellKnownNames(ORCH_BRAND);
