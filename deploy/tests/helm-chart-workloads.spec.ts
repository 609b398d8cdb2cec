import { AppConfigSchema } from '../../libs/platform/src/config/app-config';
import {
  APPS,
  type AppName,
  appResource,
  dataOf,
  type HpaSpec,
  type Manifest,
  named,
  ofKind,
  renderChart,
  specOf,
  VALUE_SETS,
} from './support/chart';
import { onlyContainer, podSpecOf, SECRET_VARIABLES, secretRefs } from './support/pods';

jest.setTimeout(60_000);

/**
 * What each app reads from the Secret with the shipped values, besides INTERNAL_TOKEN, which every app
 * gets (the ledger's keys only in cluster mode).
 */
const SECRETS_BY_APP: Record<AppName, string[]> = {
  gateway: ['ADMIN_TOKEN', 'API_KEY_HASH_KEY', 'DATA_SEALING_KEY', 'REDIS_URL'],
  'account-service': ['DATABASE_URL'],
  'transfer-service': ['DATABASE_URL', 'CUSTODY_MASTER_KEY', 'DATA_SEALING_KEY'],
  'agent-policy-service': ['DATABASE_URL', 'DATA_SEALING_KEY'],
  'approval-service': ['DATABASE_URL'],
  'webhook-dispatcher': ['DATABASE_URL', 'DATA_SEALING_KEY'],
};
const LEDGER_SECRETS = ['LEDGER_FEE_PAYER_KEY_TEST', 'LEDGER_FEE_PAYER_KEY_LIVE'];

describe.each(Object.keys(VALUE_SETS) as (keyof typeof VALUE_SETS)[])('with %s values', (valueSet) => {
  let manifests: Manifest[];
  beforeAll(() => {
    ({ manifests } = renderChart({ valuesFiles: VALUE_SETS[valueSet] }));
  });
  const deployment = (app: AppName) => named(manifests, 'Deployment', appResource(app));

  describe.each(APPS)('%s', (app) => {
    it('runs its own main.js from the one image', () => {
      expect(onlyContainer(deployment(app)).command).toEqual(['node', `dist/apps/${app}/main.js`]);
    });

    it('has a startup and liveness probe on /healthz and a readiness probe on /readyz, on its serving port', () => {
      const container = onlyContainer(deployment(app));
      const port = app === 'gateway' ? 'http' : 'health';
      expect(container.ports?.map((p) => p.name)).toEqual(
        app === 'gateway' ? ['http', 'metrics'] : ['health'],
      );
      expect(container.startupProbe?.httpGet).toEqual({ path: '/healthz', port });
      expect(container.livenessProbe?.httpGet).toEqual({ path: '/healthz', port });
      expect(container.readinessProbe?.httpGet).toEqual({ path: '/readyz', port });
    });

    it('is scraped on its metrics port (the gateway never on its API port)', () => {
      const annotations = (
        deployment(app).spec as { template: { metadata: { annotations: Record<string, string> } } }
      ).template.metadata.annotations;
      expect(annotations).toMatchObject({
        'prometheus.io/scrape': 'true',
        'prometheus.io/port': app === 'gateway' ? '9465' : '9464',
        'prometheus.io/path': '/metrics',
      });
      if (app === 'gateway') {
        expect(onlyContainer(deployment(app)).ports?.find((p) => p.name === 'metrics')?.containerPort).toBe(
          9465,
        );
      }
    });

    it('has CPU and memory requests and limits', () => {
      const { resources } = onlyContainer(deployment(app));
      expect(Object.keys(resources?.requests ?? {}).sort()).toEqual(['cpu', 'memory']);
      expect(Object.keys(resources?.limits ?? {}).sort()).toEqual(['cpu', 'memory']);
    });

    it('runs as non-root on a read-only root filesystem, without privilege escalation or capabilities, with an emptyDir /tmp', () => {
      const pod = podSpecOf(deployment(app));
      const container = onlyContainer(deployment(app));
      expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
      expect(pod.automountServiceAccountToken).toBe(false);
      expect(container.securityContext).toMatchObject({
        runAsNonRoot: true,
        readOnlyRootFilesystem: true,
        allowPrivilegeEscalation: false,
        privileged: false,
        capabilities: { drop: ['ALL'] },
      });
      expect(container.securityContext?.capabilities?.add).toBeUndefined();
      expect(container.volumeMounts).toContainEqual({ name: 'tmp', mountPath: '/tmp' });
      expect(pod.volumes?.find((v) => v.name === 'tmp')?.emptyDir).toBeDefined();
    });

    it('reads its configuration from the shared and its own ConfigMap, both rendered', () => {
      const names = (onlyContainer(deployment(app)).envFrom ?? []).map((source) => source.configMapRef?.name);
      expect(names).toEqual(['cts-config', appResource(app)]);
      for (const name of names) {
        expect(named(manifests, 'ConfigMap', name ?? '')).toBeDefined();
      }
    });

    it('gets exactly the secrets it needs, each by reference to the external Secret', () => {
      const container = onlyContainer(deployment(app));
      const ledger = app === 'transfer-service' && valueSet === 'production' ? LEDGER_SECRETS : [];
      const expected = [...SECRETS_BY_APP[app], 'INTERNAL_TOKEN', ...ledger];
      expect(secretRefs(container)).toEqual(
        Object.fromEntries(expected.map((name) => [name, `cts-secrets/${name}`])),
      );
      // Nothing else in env but the gateway's own address: every other setting comes from the ConfigMaps.
      expect((container.env ?? []).filter((env) => env.valueFrom?.secretKeyRef === undefined)).toEqual(
        app === 'gateway'
          ? [{ name: 'REPLY_HOST', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } }]
          : [],
      );
    });

    it('has a PodDisruptionBudget selecting its pods', () => {
      const selector = (manifest: Manifest) => specOf<{ selector: unknown }>(manifest).selector;
      expect(selector(named(manifests, 'PodDisruptionBudget', appResource(app)))).toEqual(
        selector(deployment(app)),
      );
    });
  });

  it('gives each app an HPA on CPU targeting its Deployment (dev: transfer-service is a single in-process-ledger replica)', () => {
    const hpas = ofKind(manifests, 'HorizontalPodAutoscaler');
    const scaled = valueSet === 'dev' ? APPS.filter((app) => app !== 'transfer-service') : [...APPS];
    expect(hpas.map((hpa) => hpa.metadata.name).sort()).toEqual(scaled.map(appResource).sort());
    for (const hpa of hpas) {
      const spec = specOf<HpaSpec>(hpa);
      expect(spec.scaleTargetRef).toEqual({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        name: hpa.metadata.name,
      });
      expect(spec.metrics).toEqual([
        {
          type: 'Resource',
          resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } },
        },
      ]);
      expect(spec.maxReplicas).toBeGreaterThanOrEqual(spec.minReplicas);
    }
    if (valueSet === 'dev') {
      const transfer = specOf<{ replicas: number; strategy: unknown }>(deployment('transfer-service'));
      expect(transfer.replicas).toBe(1);
      expect(transfer.strategy).toEqual({ type: 'Recreate' });
    }
  });

  it('gives every app INTERNAL_TOKEN from the Secret, without any listing it in secretEnv, and no Job', () => {
    for (const app of APPS) {
      expect({ app, ref: secretRefs(onlyContainer(deployment(app))).INTERNAL_TOKEN }).toEqual({
        app,
        ref: 'cts-secrets/INTERNAL_TOKEN',
      });
    }
    for (const job of ofKind(manifests, 'Job')) {
      expect(secretRefs(onlyContainer(job))).not.toHaveProperty('INTERNAL_TOKEN');
    }
  });

  it('gives only transfer-service the custody master key', () => {
    const holders = APPS.filter((app) => 'CUSTODY_MASTER_KEY' in secretRefs(onlyContainer(deployment(app))));
    expect(holders).toEqual(['transfer-service']);
  });

  it('never inlines a secret: no Secret object, no secret variable as a value, none in a ConfigMap', () => {
    expect(ofKind(manifests, 'Secret')).toEqual([]);
    const workloads = [...ofKind(manifests, 'Deployment'), ...ofKind(manifests, 'Job')];
    for (const workload of workloads) {
      const pod = podSpecOf(workload);
      for (const container of [...pod.containers, ...(pod.initContainers ?? [])]) {
        const inlined = (container.env ?? []).filter(
          (env) => (SECRET_VARIABLES as readonly string[]).includes(env.name) && !env.valueFrom?.secretKeyRef,
        );
        expect(inlined).toEqual([]);
      }
    }
    for (const configMap of ofKind(manifests, 'ConfigMap')) {
      expect(
        Object.keys(dataOf(configMap)).filter((key) => (SECRET_VARIABLES as readonly string[]).includes(key)),
      ).toEqual([]);
    }
  });

  it('puts only variables the apps read into the ConfigMaps', () => {
    const known = Object.keys(AppConfigSchema.shape);
    for (const configMap of ofKind(manifests, 'ConfigMap')) {
      expect(Object.keys(dataOf(configMap)).filter((key) => !known.includes(key))).toEqual([]);
    }
  });

  it('configures the distributed mode: brokers, no topic provisioning or migrations at start, data dir on /tmp', () => {
    const shared = dataOf(named(manifests, 'ConfigMap', 'cts-config'));
    expect(shared).toMatchObject({
      KAFKA_PROVISION_TOPICS: 'false',
      MIGRATE_ON_START: 'false',
      HEALTH_PORT: '9464',
      METRICS_PORT: '9465',
      CTS_DATA_DIR: '/tmp/cts',
      COMMAND_TIMEOUT_MS: '15000',
    });
    expect(shared.KAFKA_BROKERS).toMatch(/^[\w.-]+:\d+(,[\w.-]+:\d+)*$/);
    expect(shared.LOG_LEVEL).toMatch(/^(info|debug)$/);
    const data = (app: AppName) => dataOf(named(manifests, 'ConfigMap', appResource(app)));
    expect(Object.keys(data('gateway')).sort()).toEqual([
      'PORT',
      'RATE_LIMIT_PER_MINUTE',
      'SERVICE_QUERY_URLS',
    ]);
    // Reads take the direct query path to every service's health-port Service.
    expect(
      data('gateway')
        .SERVICE_QUERY_URLS?.split(';')
        .map((route) => route.split('=')[0]),
    ).toEqual([
      'account-service',
      'agent-policy-service',
      'approval-service',
      'transfer-service',
      'webhook-dispatcher',
    ]);
    expect(data('gateway').SERVICE_QUERY_URLS).toMatch(
      new RegExp(`transfer-service=http://[a-z0-9-]*transfer-service:${9464}(;|$)`),
    );
    // Services that ask another (transfer-service resolves a recipient at account-service) read
    // directly too; the ones that send no command get no routes.
    for (const app of ['account-service', 'transfer-service', 'approval-service'] as const) {
      expect(data(app).SERVICE_QUERY_URLS).toBe(data('gateway').SERVICE_QUERY_URLS);
    }
    for (const app of ['agent-policy-service', 'webhook-dispatcher'] as const) {
      expect(data(app).SERVICE_QUERY_URLS).toBeUndefined();
    }
    expect(Object.keys(data('webhook-dispatcher')).sort()).toEqual([
      'WEBHOOK_ALLOW_PRIVATE_NETWORKS',
      'WEBHOOK_RETRY_SCHEDULE',
      'WEBHOOK_TIMEOUT_MS',
    ]);
    const ledgerKeys = Object.keys(data('transfer-service')).filter((key) => key.startsWith('LEDGER_'));
    expect(ledgerKeys.sort()).toEqual(
      valueSet === 'dev'
        ? ['LEDGER_STATE_DIR']
        : ['LEDGER_ASSETS_LIVE', 'LEDGER_ASSETS_TEST', 'LEDGER_RPC_URL_LIVE', 'LEDGER_RPC_URL_TEST'],
    );
  });

  it('exposes the gateway on a Service to its HTTP port, and each service on its health port', () => {
    const ports = (app: AppName) =>
      specOf<{ ports: unknown[] }>(named(manifests, 'Service', appResource(app))).ports;
    expect(ports('gateway')).toEqual([{ name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' }]);
    for (const app of APPS.filter((name) => name !== 'gateway')) {
      expect(ports(app)).toEqual([{ name: 'health', port: 9464, targetPort: 'health', protocol: 'TCP' }]);
    }
  });
});
