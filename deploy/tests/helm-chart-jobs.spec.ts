import { type Manifest, named, ofKind, renderChart, specOf, VALUE_SETS } from './support/chart';
import { onlyContainer, podSpecOf, secretRefs } from './support/pods';

jest.setTimeout(60_000);

const HOOK = 'pre-install,pre-upgrade';

describe.each(Object.keys(VALUE_SETS) as (keyof typeof VALUE_SETS)[])(
  'the Jobs with %s values',
  (valueSet) => {
    let manifests: Manifest[];
    beforeAll(() => {
      ({ manifests } = renderChart({ valuesFiles: VALUE_SETS[valueSet] }));
    });
    const env = (job: Manifest) =>
      Object.fromEntries(
        (onlyContainer(job).env ?? []).filter((e) => e.value !== undefined).map((e) => [e.name, e.value]),
      );

    it('renders exactly the migrations and topic Jobs', () => {
      expect(
        ofKind(manifests, 'Job')
          .map((job) => job.metadata.name)
          .sort(),
      ).toEqual(['cts-migrations', 'cts-topics']);
    });

    it('runs the migrations as a pre-install/pre-upgrade hook after the topics, with only DATABASE_URL from the Secret', () => {
      const job = named(manifests, 'Job', 'cts-migrations');
      expect(job.metadata.annotations).toEqual({
        'helm.sh/hook': HOOK,
        'helm.sh/hook-weight': '0',
        'helm.sh/hook-delete-policy': 'before-hook-creation',
      });
      expect(onlyContainer(job).command).toEqual(['node', 'tools/migrate.mjs']);
      expect(secretRefs(onlyContainer(job))).toEqual({ DATABASE_URL: 'cts-secrets/DATABASE_URL' });
    });

    it('provisions the topics as a pre-install/pre-upgrade hook, first, with the partitions and brokers inline', () => {
      const job = named(manifests, 'Job', 'cts-topics');
      expect(job.metadata.annotations).toEqual({
        'helm.sh/hook': HOOK,
        'helm.sh/hook-weight': '-5',
        'helm.sh/hook-delete-policy': 'before-hook-creation',
      });
      expect(onlyContainer(job).command).toEqual(['node', 'tools/provision-topics.mjs']);
      const partitions = valueSet === 'dev' ? ['2', '2', '2', '1'] : ['6', '6', '12', '1'];
      expect(env(job)).toMatchObject({
        TOPIC_PARTITIONS_COMMAND: partitions[0],
        TOPIC_PARTITIONS_REPLY: partitions[1],
        TOPIC_PARTITIONS_EVENT: partitions[2],
        TOPIC_PARTITIONS_DEAD_LETTER: partitions[3],
        TOPIC_REPLICATION_FACTOR: valueSet === 'dev' ? '1' : '3',
      });
      expect(env(job).KAFKA_BROKERS).toBeTruthy();
      expect(secretRefs(onlyContainer(job))).toEqual({});
    });

    it('needs no ConfigMap (hooks run before the release creates them)', () => {
      for (const job of ofKind(manifests, 'Job')) {
        const container = onlyContainer(job);
        expect(container.envFrom).toBeUndefined();
        expect((container.env ?? []).filter((e) => e.valueFrom?.configMapKeyRef)).toEqual([]);
      }
    });

    it('runs both Jobs locked down: non-root, read-only root, no escalation, no capabilities, no retries forever', () => {
      for (const job of ofKind(manifests, 'Job')) {
        const pod = podSpecOf(job);
        expect(pod.restartPolicy).toBe('Never');
        expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
        expect(onlyContainer(job).securityContext).toMatchObject({
          runAsNonRoot: true,
          readOnlyRootFilesystem: true,
          allowPrivilegeEscalation: false,
          capabilities: { drop: ['ALL'] },
        });
        expect(onlyContainer(job).resources?.limits).toBeDefined();
        const spec = specOf<{ backoffLimit: number; activeDeadlineSeconds: number }>(job);
        expect(spec.backoffLimit).toBeGreaterThan(0);
        expect(spec.activeDeadlineSeconds).toBeGreaterThan(0);
      }
    });
  },
);
