import {
  appResource,
  dataOf,
  type HpaSpec,
  named,
  renderChart,
  renderFailure,
  specOf,
  validateAgainstKubernetes,
  VALUE_SETS,
} from './support/chart';
import { onlyContainer, SECRET_VARIABLES, secretRefs } from './support/pods';

jest.setTimeout(60_000);

const production = VALUE_SETS.production;
const dev = VALUE_SETS.dev;

describe('the partition check (replicas beyond a topic family’s partitions get no messages)', () => {
  it('refuses a gateway that can scale past the reply partitions', () => {
    const error = renderFailure({ valuesFiles: production, set: ['apps.gateway.autoscaling.maxReplicas=8'] });
    expect(error).toContain('topics.partitions.reply is 6 but gateway can run 8 replicas');
  });

  it('accepts it once the reply topics have as many partitions', () => {
    expect(() =>
      renderChart({
        valuesFiles: production,
        set: ['apps.gateway.autoscaling.maxReplicas=8', 'topics.partitions.reply=8'],
      }),
    ).not.toThrow();
  });

  it('checks every family: command topics against each service, event topics against webhook-dispatcher', () => {
    expect(
      renderFailure({ valuesFiles: production, set: ['apps.approval-service.autoscaling.maxReplicas=7'] }),
    ).toContain('topics.partitions.command is 6 but approval-service can run 7 replicas');
    expect(renderFailure({ valuesFiles: production, set: ['topics.partitions.event=4'] })).toContain(
      'topics.partitions.event is 4 but webhook-dispatcher can run 6 replicas',
    );
  });

  it('counts replicas when an app has no HPA', () => {
    const error = renderFailure({
      valuesFiles: dev,
      set: ['apps.account-service.autoscaling.enabled=false', 'apps.account-service.replicas=3'],
    });
    expect(error).toContain('topics.partitions.command is 2 but account-service can run 3 replicas');
  });

  it('ignores a disabled app', () => {
    expect(() =>
      renderChart({
        valuesFiles: production,
        set: ['apps.approval-service.enabled=false', 'apps.approval-service.autoscaling.maxReplicas=50'],
      }),
    ).not.toThrow();
  });

  it('refuses a consumer that is not an app', () => {
    expect(
      renderFailure({ valuesFiles: production, set: ['topics.consumers.event={webhook-dispatchr}'] }),
    ).toContain('topics.consumers.event names "webhook-dispatchr", which is not an app');
  });
});

describe('secrets', () => {
  it('refuses the custody master key for any app but transfer-service', () => {
    const error = renderFailure({
      valuesFiles: production,
      set: ['apps.gateway.secretEnv={ADMIN_TOKEN,CUSTODY_MASTER_KEY}'],
    });
    expect(error).toContain('only transfer-service may hold the custody master key');
  });

  // SECRET_VARIABLES: every variable the chart reads from a Secret; none may arrive as a plain value.
  it.each(SECRET_VARIABLES)(
    'refuses %s in config, which every app reads from a plain ConfigMap',
    (variable) => {
      expect(renderFailure({ valuesFiles: production, set: [`config.${variable}=plain`] })).toContain(
        `config.${variable}: ${variable} is a secret and config goes into a plain ConfigMap`,
      );
    },
  );

  it.each(SECRET_VARIABLES.filter((variable) => variable !== 'CUSTODY_MASTER_KEY'))(
    'refuses %s in an app’s env, which goes into its plain ConfigMap',
    (variable) => {
      for (const app of ['gateway', 'webhook-dispatcher']) {
        expect(
          renderFailure({ valuesFiles: production, set: [`apps.${app}.env.${variable}=plain`] }),
        ).toContain(
          `apps.${app}.env.${variable}: ${variable} is a secret and env goes into a plain ConfigMap`,
        );
      }
    },
  );

  it('refuses the custody master key in any app’s env, transfer-service’s too', () => {
    expect(
      renderFailure({ valuesFiles: production, set: ['apps.gateway.env.CUSTODY_MASTER_KEY=plain'] }),
    ).toContain('apps.gateway.env.CUSTODY_MASTER_KEY: only transfer-service may hold the custody master key');
    expect(
      renderFailure({ valuesFiles: production, set: ['apps.transfer-service.env.CUSTODY_MASTER_KEY=plain'] }),
    ).toContain('apps.transfer-service.env.CUSTODY_MASTER_KEY: CUSTODY_MASTER_KEY is a secret');
  });

  it('refuses the ledger RPC URLs as plain values once they come from the Secret', () => {
    const set = ['ledger.rpcUrlsFromSecret=true', 'apps.transfer-service.env.LEDGER_RPC_URL_LIVE=https://k'];
    expect(renderFailure({ valuesFiles: production, set })).toContain(
      'apps.transfer-service.env.LEDGER_RPC_URL_LIVE: LEDGER_RPC_URL_LIVE is a secret',
    );
  });

  it('reads from the named existing Secret, and per variable from another Secret or key', () => {
    const { manifests } = renderChart({
      valuesFiles: production,
      set: [
        'secrets.existingSecret=prod-cts',
        'secrets.refs.CUSTODY_MASTER_KEY.name=cts-custody',
        'secrets.refs.CUSTODY_MASTER_KEY.key=master-key',
      ],
    });
    const refs = secretRefs(onlyContainer(named(manifests, 'Deployment', appResource('transfer-service'))));
    expect(refs).toMatchObject({
      DATABASE_URL: 'prod-cts/DATABASE_URL',
      CUSTODY_MASTER_KEY: 'cts-custody/master-key',
    });
    expect(secretRefs(onlyContainer(named(manifests, 'Job', 'cts-migrations')))).toEqual({
      DATABASE_URL: 'prod-cts/DATABASE_URL',
    });
  });

  it('reads INTERNAL_TOKEN where secrets.refs points it, and once for an app that lists it in secretEnv too', () => {
    const { manifests } = renderChart({
      valuesFiles: production,
      set: [
        'secrets.refs.INTERNAL_TOKEN.name=cts-internal',
        'secrets.refs.INTERNAL_TOKEN.key=token',
        'apps.account-service.secretEnv={DATABASE_URL,INTERNAL_TOKEN}',
      ],
    });
    for (const app of ['gateway', 'account-service', 'webhook-dispatcher'] as const) {
      const container = onlyContainer(named(manifests, 'Deployment', appResource(app)));
      expect(secretRefs(container).INTERNAL_TOKEN).toBe('cts-internal/token');
      expect((container.env ?? []).filter((env) => env.name === 'INTERNAL_TOKEN')).toHaveLength(1);
    }
  });

  it('wires broker credentials into every app and the topic Job when SASL is on, not into the migrations', () => {
    const { manifests } = renderChart({ valuesFiles: production, set: ['kafka.sasl.enabled=true'] });
    const sasl = {
      KAFKA_SASL_USERNAME: 'cts-secrets/KAFKA_SASL_USERNAME',
      KAFKA_SASL_PASSWORD: 'cts-secrets/KAFKA_SASL_PASSWORD',
    };
    expect(secretRefs(onlyContainer(named(manifests, 'Deployment', appResource('gateway'))))).toMatchObject(
      sasl,
    );
    expect(secretRefs(onlyContainer(named(manifests, 'Job', 'cts-topics')))).toEqual(sasl);
    expect(secretRefs(onlyContainer(named(manifests, 'Job', 'cts-migrations')))).toEqual({
      DATABASE_URL: 'cts-secrets/DATABASE_URL',
    });
    expect(dataOf(named(manifests, 'ConfigMap', 'cts-config')).KAFKA_SASL_MECHANISM).toBe('scram-sha-512');
  });

  it('takes the ledger RPC URLs from the Secret when asked', () => {
    const { manifests } = renderChart({ valuesFiles: production, set: ['ledger.rpcUrlsFromSecret=true'] });
    const refs = secretRefs(onlyContainer(named(manifests, 'Deployment', appResource('transfer-service'))));
    expect(Object.keys(refs)).toEqual(expect.arrayContaining(['LEDGER_RPC_URL_TEST', 'LEDGER_RPC_URL_LIVE']));
    expect(
      dataOf(named(manifests, 'ConfigMap', appResource('transfer-service'))).LEDGER_RPC_URL_TEST,
    ).toBeUndefined();
  });
});

describe('the ledger', () => {
  it('refuses cluster mode without an asset registry', () => {
    expect(renderFailure({ set: ['kafka.brokers=kafka:9092'] })).toContain(
      'ledger.test.assets is required in cluster mode',
    );
  });

  it('refuses an asset registry entry of the wrong shape', () => {
    expect(renderFailure({ valuesFiles: production, set: ['ledger.live.assets=USDC'] })).toContain(
      'ledger.live.assets: invalid entry "USDC"',
    );
  });

  it('refuses more than one transfer-service replica with the in-process ledger', () => {
    expect(renderFailure({ valuesFiles: dev, set: ['apps.transfer-service.replicas=2'] })).toContain(
      'ledger.mode in-process',
    );
    expect(
      renderFailure({ valuesFiles: dev, set: ['apps.transfer-service.autoscaling.enabled=true'] }),
    ).toContain('ledger.mode in-process');
  });

  it('keeps the in-process ledger state on a claim that outlives the release', () => {
    const { manifests } = renderChart({ valuesFiles: dev });
    const claim = named(manifests, 'PersistentVolumeClaim', 'cts-ledger');
    expect(claim.metadata.annotations).toEqual({ 'helm.sh/resource-policy': 'keep' });
    const container = onlyContainer(named(manifests, 'Deployment', appResource('transfer-service')));
    expect(container.volumeMounts).toContainEqual({ name: 'ledger', mountPath: '/var/lib/cts/ledger' });
  });

  it('requires the brokers', () => {
    expect(renderFailure({ valuesFiles: production, set: ['kafka.brokers='] })).toContain(
      'kafka.brokers is required',
    );
  });
});

describe('consumer-lag autoscaling', () => {
  it('adds an External metric on the app’s consumer group when enabled', () => {
    const { manifests } = renderChart({
      valuesFiles: production,
      set: ['apps.webhook-dispatcher.autoscaling.consumerLag.enabled=true', 'kafka.groupSuffix=-blue'],
    });
    expect(
      specOf<HpaSpec>(named(manifests, 'HorizontalPodAutoscaler', appResource('webhook-dispatcher'))).metrics,
    ).toContainEqual({
      type: 'External',
      external: {
        metric: {
          name: 'kafka_consumergroup_lag',
          selector: { matchLabels: { consumergroup: 'webhook-dispatcher-blue' } },
        },
        target: { type: 'AverageValue', averageValue: '100' },
      },
    });
  });

  it('refuses it for the gateway, which consumes only replies', () => {
    expect(
      renderFailure({ valuesFiles: production, set: ['apps.gateway.autoscaling.consumerLag.enabled=true'] }),
    ).toContain('the gateway consumes only reply topics');
  });
});

describe('every optional feature at once', () => {
  it('still renders manifests valid against the Kubernetes schemas', () => {
    const { yaml, manifests } = renderChart({
      valuesFiles: production,
      set: [
        'kafka.sasl.enabled=true',
        'kafka.ssl=true',
        'ledger.rpcUrlsFromSecret=true',
        'secrets.refs.CUSTODY_MASTER_KEY.name=cts-custody',
        'serviceAccount.annotations.example\\.com/role=cts',
        'image.pullSecrets={registry-credentials}',
        'apps.gateway.service.type=LoadBalancer',
        'apps.account-service.pdb.maxUnavailable=null',
        'apps.account-service.pdb.minAvailable=1',
        ...[
          'account-service',
          'transfer-service',
          'agent-policy-service',
          'approval-service',
          'webhook-dispatcher',
        ].map((app) => `apps.${app}.autoscaling.consumerLag.enabled=true`),
      ],
    });
    const report = validateAgainstKubernetes(yaml, '1.37.0');
    expect(report.problems).toEqual([]);
    expect(report.passed).toHaveLength(manifests.length);
  });
});
