/**
 * The names of the objects a pod or a persistent volume refers to, as upstream's
 * VisitPodSecretNames, VisitPodConfigmapNames and VisitPVSecretNames list them: what the Node
 * authorizer lets a kubelet read and what NodeRestriction keeps out of mirror pods. Reads are
 * Go-typed (a field of the wrong type reads as absent), so a malformed object never throws.
 */
import { type Rec, rec, recOrNil, records, str } from './fields.js';

/** Every container of a pod spec: init, regular and ephemeral (upstream's AllContainers). */
function allContainers(spec: Rec): Rec[] {
  return [...records(spec.initContainers), ...records(spec.containers), ...records(spec.ephemeralContainers)];
}

/** Secret names of a pod (image pull secrets, env, envFrom, volumes), empty names skipped, in upstream's order. */
export function podSecretNames(pod: Rec): string[] {
  const spec = rec(pod.spec);
  const out: string[] = [];
  const add = (name: string): void => {
    if (name !== '') out.push(name);
  };
  for (const ref of records(spec.imagePullSecrets)) add(str(ref.name));
  for (const c of allContainers(spec)) {
    for (const from of records(c.envFrom)) {
      const ref = recOrNil(from.secretRef);
      if (ref) add(str(ref.name));
    }
    for (const env of records(c.env)) {
      const ref = recOrNil(recOrNil(env.valueFrom)?.secretKeyRef);
      if (ref) add(str(ref.name));
    }
  }
  for (const volume of records(spec.volumes)) {
    // One volume has one source; upstream's switch takes the first it knows.
    const secretRefOf = (key: string): void => {
      const ref = recOrNil(rec(volume[key]).secretRef);
      if (ref) add(str(ref.name));
    };
    if (recOrNil(volume.azureFile)) add(str(rec(volume.azureFile).secretName));
    else if (recOrNil(volume.cephfs)) secretRefOf('cephfs');
    else if (recOrNil(volume.cinder)) secretRefOf('cinder');
    else if (recOrNil(volume.flexVolume)) secretRefOf('flexVolume');
    else if (recOrNil(volume.projected)) {
      for (const source of records(rec(volume.projected).sources)) {
        const secret = recOrNil(source.secret);
        if (secret) add(str(secret.name));
      }
    } else if (recOrNil(volume.rbd)) secretRefOf('rbd');
    else if (recOrNil(volume.secret)) add(str(rec(volume.secret).secretName));
    else if (recOrNil(volume.scaleIO)) secretRefOf('scaleIO');
    else if (recOrNil(volume.iscsi)) secretRefOf('iscsi');
    else if (recOrNil(volume.storageos)) secretRefOf('storageos');
    else if (recOrNil(volume.csi)) {
      const ref = recOrNil(rec(volume.csi).nodePublishSecretRef);
      if (ref) add(str(ref.name));
    }
  }
  return out;
}

/** ConfigMap names of a pod (env, envFrom, configMap and projected volumes), empty names skipped. */
export function podConfigMapNames(pod: Rec): string[] {
  const spec = rec(pod.spec);
  const out: string[] = [];
  const add = (name: string): void => {
    if (name !== '') out.push(name);
  };
  for (const c of allContainers(spec)) {
    for (const from of records(c.envFrom)) {
      const ref = recOrNil(from.configMapRef);
      if (ref) add(str(ref.name));
    }
    for (const env of records(c.env)) {
      const ref = recOrNil(recOrNil(env.valueFrom)?.configMapKeyRef);
      if (ref) add(str(ref.name));
    }
  }
  for (const volume of records(spec.volumes)) {
    if (recOrNil(volume.projected)) {
      for (const source of records(rec(volume.projected).sources)) {
        const cm = recOrNil(source.configMap);
        if (cm) add(str(cm.name));
      }
    } else if (recOrNil(volume.configMap)) add(str(rec(volume.configMap).name));
  }
  return out;
}

/**
 * Claim names of a pod's volumes: `persistentVolumeClaim.claimName`, and for a generic
 * ephemeral volume the claim its controller creates, `<pod>-<volume>` (upstream's VolumeClaimName).
 */
export function podClaimNames(pod: Rec): string[] {
  const podName = str(rec(pod.metadata).name);
  const out: string[] = [];
  for (const volume of records(rec(pod.spec).volumes)) {
    const pvc = recOrNil(volume.persistentVolumeClaim);
    const claim = pvc ? str(pvc.claimName) : recOrNil(volume.ephemeral) ? `${podName}-${str(volume.name)}` : '';
    if (claim !== '') out.push(claim);
  }
  return out;
}

/** True when a pod mounts a persistentVolumeClaim volume (ephemeral volumes aside, as upstream's NodeRestriction checks). */
export function podMountsClaim(pod: Rec): boolean {
  return records(rec(pod.spec).volumes).some((v) => recOrNil(v.persistentVolumeClaim) !== undefined);
}

export interface SecretReference {
  namespace: string;
  name: string;
  /** False for secrets only the controller uses (CSI controller publish/expand): a kubelet may not read them. */
  kubeletVisible: boolean;
}

/** Secrets a persistent volume refers to (upstream's VisitPVSecretNames); namespace defaults to the claim's. */
export function persistentVolumeSecrets(pv: Rec): SecretReference[] {
  const spec = rec(pv.spec);
  const claimNamespace = str(rec(spec.claimRef).namespace);
  const out: SecretReference[] = [];
  const add = (namespace: string, name: string, kubeletVisible = true): void => {
    if (name !== '') out.push({ namespace, name, kubeletVisible });
  };
  // Sources whose secretRef may name its namespace, else the claim's (previously persisted PVs).
  const defaultedRef = (key: string): void => {
    const ref = recOrNil(rec(spec[key]).secretRef);
    if (ref) add(str(ref.namespace) || claimNamespace, str(ref.name));
  };
  const explicitRef = (key: string): void => {
    const ref = recOrNil(rec(spec[key]).secretRef);
    if (ref) add(str(ref.namespace), str(ref.name));
  };
  if (recOrNil(spec.azureFile)) {
    const az = rec(spec.azureFile);
    add(str(az.secretNamespace) || claimNamespace, str(az.secretName));
  } else if (recOrNil(spec.cephfs)) defaultedRef('cephfs');
  else if (recOrNil(spec.cinder)) explicitRef('cinder');
  else if (recOrNil(spec.flexVolume)) defaultedRef('flexVolume');
  else if (recOrNil(spec.rbd)) defaultedRef('rbd');
  else if (recOrNil(spec.scaleIO)) defaultedRef('scaleIO');
  else if (recOrNil(spec.iscsi)) defaultedRef('iscsi');
  else if (recOrNil(spec.storageos)) explicitRef('storageos');
  else if (recOrNil(spec.csi)) {
    const csi = rec(spec.csi);
    const ref = (key: string, visible: boolean): void => {
      const r = recOrNil(csi[key]);
      if (r) add(str(r.namespace), str(r.name), visible);
    };
    ref('controllerPublishSecretRef', false);
    ref('controllerExpandSecretRef', false);
    ref('nodePublishSecretRef', true);
    ref('nodeStageSecretRef', true);
  }
  return out;
}
