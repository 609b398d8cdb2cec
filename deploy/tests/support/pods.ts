import { type Manifest } from './chart';

/** The parts of the Kubernetes pod API the assertions read. */
export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: {
    secretKeyRef?: { name: string; key: string };
    configMapKeyRef?: { name: string; key: string };
  };
}

export interface Probe {
  httpGet?: { path: string; port: string | number };
  periodSeconds?: number;
}

export interface Container {
  name: string;
  image: string;
  command?: string[];
  env?: EnvVar[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  ports?: { name?: string; containerPort: number }[];
  startupProbe?: Probe;
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: {
    runAsNonRoot?: boolean;
    allowPrivilegeEscalation?: boolean;
    readOnlyRootFilesystem?: boolean;
    privileged?: boolean;
    capabilities?: { drop?: string[]; add?: string[] };
  };
  volumeMounts?: { name: string; mountPath: string }[];
}

export interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number; fsGroup?: number };
  automountServiceAccountToken?: boolean;
  restartPolicy?: string;
  volumes?: {
    name: string;
    emptyDir?: { sizeLimit?: string };
    persistentVolumeClaim?: { claimName: string };
  }[];
}

interface WithPodTemplate {
  spec: { template: { spec: PodSpec } };
}

/** The pod spec of a Deployment or a Job. */
export function podSpecOf(manifest: Manifest): PodSpec {
  const spec = (manifest as unknown as WithPodTemplate).spec?.template?.spec;
  if (!spec) {
    throw new Error(`${manifest.kind}/${manifest.metadata.name} has no pod template`);
  }
  return spec;
}

export function onlyContainer(manifest: Manifest): Container {
  const [container, ...others] = podSpecOf(manifest).containers;
  if (!container || others.length > 0) {
    throw new Error(`${manifest.kind}/${manifest.metadata.name} should have exactly one container`);
  }
  return container;
}

/** The Secret variables a container reads: name → `secret/key`. */
export function secretRefs(container: Container): Record<string, string> {
  return Object.fromEntries(
    (container.env ?? [])
      .filter((env) => env.valueFrom?.secretKeyRef)
      .map((env) => [env.name, `${env.valueFrom?.secretKeyRef?.name}/${env.valueFrom?.secretKeyRef?.key}`]),
  );
}

/** Every variable that carries a secret in this system (libs/platform config and the ledger/broker ones). */
export const SECRET_VARIABLES = [
  'ADMIN_TOKEN',
  'CUSTODY_MASTER_KEY',
  'DATA_SEALING_KEY',
  'API_KEY_HASH_KEY',
  'INTERNAL_TOKEN',
  'DATABASE_URL',
  'REDIS_URL',
  'LEDGER_FEE_PAYER_KEY_TEST',
  'LEDGER_FEE_PAYER_KEY_LIVE',
  'KAFKA_SASL_USERNAME',
  'KAFKA_SASL_PASSWORD',
] as const;
