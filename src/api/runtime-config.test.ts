import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KUBERNETES_BRAND, ORCH_BRAND } from '../machinery/brand.js';
import { ALL_RESOURCES } from './catalogue.js';
import { apiGroup } from './define.js';
import { parseRuntimeConfig, servedDefinitions } from './runtime-config.js';
import type { ResourceDefinition } from './types.js';

/** An alpha version, as 1.25's networking v1alpha1 ClusterCIDR (orch serves no alpha API itself). */
const ALPHA: ResourceDefinition = apiGroup('networking', 'v1alpha1')({ kind: 'ClusterCIDR', plural: 'clustercidrs', namespaced: false });
const DEFS = [...ALL_RESOURCES, ALPHA];

function served(config: string, brand = ORCH_BRAND): Set<string> {
  return new Set(servedDefinitions(DEFS, parseRuntimeConfig(config), brand).map((d) => `${brand.group(d.groupStem, d.branded)}/${d.version}/${d.plural}`));
}

describe('--runtime-config', () => {
  it('parses as cliflag.ConfigurationMap: trimmed pairs, bare keys empty, later pairs win, empty items skipped', () => {
    assert.deepEqual(
      [...parseRuntimeConfig(' batch/v1 = false ,,api/alpha=true,batch/v1')],
      [
        ['batch/v1', ''],
        ['api/alpha', 'true'],
      ],
    );
    const repeated = parseRuntimeConfig('a/v1=false', parseRuntimeConfig('b/v1'));
    assert.deepEqual(
      [...repeated],
      [
        ['b/v1', ''],
        ['a/v1', 'false'],
      ],
    );
  });

  it('serves everything but alpha versions by default', () => {
    const all = served('');
    const alphas = DEFS.filter((d) => /alpha/.test(d.version));
    assert.equal(all.size, DEFS.length - alphas.length);
    assert.ok(!all.has('authentication.orch.io/v1alpha1/selfsubjectreviews'));
    assert.ok(!all.has('networking.orch.io/v1alpha1/clustercidrs'));
    assert.ok(all.has('autoscaling/v2beta2/horizontalpodautoscalers'));
  });

  it('switches one group version, a bare key meaning true', () => {
    assert.ok(!served('autoscaling/v2beta2=false').has('autoscaling/v2beta2/horizontalpodautoscalers'));
    assert.ok(served('autoscaling/v2beta2=false').has('autoscaling/v2/horizontalpodautoscalers'));
    assert.ok(served('networking.orch.io/v1alpha1').has('networking.orch.io/v1alpha1/clustercidrs'));
    assert.ok(served('networking.k8s.io/v1alpha1=t', KUBERNETES_BRAND).has('networking.k8s.io/v1alpha1/clustercidrs'));
  });

  it('applies api/all, api/ga, api/beta and api/alpha in that order, then group versions over them', () => {
    const noBeta = served('api/beta=false');
    assert.ok(![...noBeta].some((k) => /\/v\d+beta\d+\//.test(k)));
    assert.ok(noBeta.has('autoscaling/v2/horizontalpodautoscalers'));
    const onlyOne = served('api/all=false,flowcontrol.apiserver.orch.io/v1beta2=true');
    assert.ok(onlyOne.has('flowcontrol.apiserver.orch.io/v1beta2/flowschemas'));
    assert.ok(!onlyOne.has('apps/v1/deployments'));
    // The core group is not switchable.
    assert.ok(onlyOne.has('/v1/pods'));
    assert.deepEqual(
      [...new Set([...onlyOne].filter((k) => !k.startsWith('/v1/')).map((k) => k.split('/').slice(0, 2).join('/')))],
      ['flowcontrol.apiserver.orch.io/v1beta2'],
    );
    assert.ok(served('api/all=false,api/alpha=true').has('networking.orch.io/v1alpha1/clustercidrs'));
  });

  it('switches single resources over their version', () => {
    const one = served('autoscaling/v2beta2=false,autoscaling/v2beta2/horizontalpodautoscalers=true');
    assert.ok(one.has('autoscaling/v2beta2/horizontalpodautoscalers'));
    assert.ok(!served('flowcontrol.apiserver.orch.io/v1beta1/flowschemas=false').has('flowcontrol.apiserver.orch.io/v1beta1/flowschemas'));
    assert.ok(served('flowcontrol.apiserver.orch.io/v1beta1/flowschemas=false').has('flowcontrol.apiserver.orch.io/v1beta1/prioritylevelconfigurations'));
  });

  it("refuses what it cannot apply with upstream's messages", () => {
    const message = (config: string): string => {
      try {
        served(config);
      } catch (e) {
        return (e as Error).message;
      }
      return '';
    };
    assert.equal(message('api/all=yes'), 'invalid value api/all=yes');
    assert.equal(message('api/beta'), 'invalid value api/beta=');
    assert.equal(message('autoscaling/v2beta2=yes'), 'invalid value of autoscaling/v2beta2: yes, err: strconv.ParseBool: parsing "yes": invalid syntax');
    assert.equal(message('batch/v1beta1=true'), 'group version batch/v1beta1 that has not been registered');
    assert.equal(message('nope.example.com/v1'), 'group version nope.example.com/v1 that has not been registered');
    assert.equal(message('autoscaling.k8s.io/v1'), 'group version autoscaling.k8s.io/v1 that has not been registered');
    assert.equal(message('flowcontrol.apiserver.k8s.io/v1beta1'), 'group version flowcontrol.apiserver.k8s.io/v1beta1 that has not been registered');
    assert.equal(message('batch'), 'invalid key batch');
    assert.equal(message('a/b/c/d'), 'invalid key a/b/c/d');
    assert.equal(
      message('autoscaling/v2/HorizontalPodAutoscalers=false'),
      'invalid key autoscaling/v2/HorizontalPodAutoscalers: group/version/resource and resource is always lowercase plural, not "HorizontalPodAutoscalers"',
    );
    assert.equal(message('autoscaling/v2/nopes=false'), 'resource autoscaling/v2/nopes that has not been registered');
    // The legacy group's keys are skipped, as upstream's named-group registry skips them.
    assert.equal(message('api/v1=false,api/legacy=false'), '');
  });
});
