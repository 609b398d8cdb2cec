import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load, YAML11_SCHEMA } from 'js-yaml';
import { APPS, CHART_DIR, REPO_ROOT } from './support/chart';
import { SECRET_VARIABLES } from './support/pods';
import { CHECK_JSONSCHEMA, run } from './support/tools';

jest.setTimeout(60_000);

const COMPOSE_FILE = join(REPO_ROOT, 'docker-compose.yml');

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile?: string };
  command?: string | string[];
  environment?: Record<string, string | number | boolean | null>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string | string[] };
  ports?: string[];
}

interface ComposeFile {
  services: Record<string, ComposeService>;
}

// Compose resolves `<<:` merge keys (YAML 1.1), which the file uses for the apps' shared settings.
const compose = load(readFileSync(COMPOSE_FILE, 'utf8'), { schema: YAML11_SCHEMA }) as ComposeFile;
const service = (name: string): ComposeService => {
  const found = compose.services[name];
  if (!found) {
    throw new Error(`docker-compose.yml has no service ${name}`);
  }
  return found;
};
const commandText = (s: ComposeService) =>
  Array.isArray(s.command) ? s.command.join(' ') : (s.command ?? '');

describe('docker-compose.yml', () => {
  it('is valid against the compose-spec JSON schema', () => {
    const result = run(CHECK_JSONSCHEMA, ['--builtin-schema', 'vendor.compose-spec', COMPOSE_FILE]);
    expect(`${result.stdout}${result.stderr}`).toContain('ok -- validation done');
    expect(result.status).toBe(0);
  });

  it('runs Kafka in KRaft mode (broker and controller, no ZooKeeper)', () => {
    const kafka = service('kafka');
    expect(kafka.environment?.KAFKA_PROCESS_ROLES).toBe('broker,controller');
    expect(kafka.environment?.KAFKA_CONTROLLER_QUORUM_VOTERS).toBeTruthy();
    expect(kafka.environment?.KAFKA_CONTROLLER_LISTENER_NAMES).toBeTruthy();
    expect(kafka.environment?.KAFKA_ZOOKEEPER_CONNECT).toBeUndefined();
    expect(Object.keys(compose.services).some((name) => /zookeeper/i.test(name))).toBe(false);
    // Topics come from the init step with their partition counts, never from auto-creation.
    expect(kafka.environment?.KAFKA_AUTO_CREATE_TOPICS_ENABLE).toBe('false');
  });

  it('runs PostgreSQL and Redis with health checks', () => {
    expect(service('postgres').image).toMatch(/^postgres:/);
    expect(service('redis').image).toMatch(/^redis:/);
    for (const name of ['kafka', 'postgres', 'redis']) {
      expect(service(name).healthcheck?.test).toBeDefined();
    }
  });

  it('provisions topics and applies migrations in an init service once Kafka and PostgreSQL are healthy', () => {
    const init = service('init');
    expect(commandText(init)).toContain('node tools/provision-topics.mjs');
    expect(commandText(init)).toContain('node tools/migrate.mjs');
    expect(init.depends_on).toMatchObject({
      kafka: { condition: 'service_healthy' },
      postgres: { condition: 'service_healthy' },
    });
    expect(init.environment).toMatchObject({
      KAFKA_BROKERS: expect.any(String),
      DATABASE_URL: expect.any(String),
    });
  });

  it.each(APPS)('runs %s from the Dockerfile after the init service, in the distributed mode', (app) => {
    const s = service(app);
    expect(s.build?.dockerfile).toBe('deploy/Dockerfile');
    expect(s.environment?.APP).toBe(app);
    expect(s.environment).toMatchObject({ KAFKA_BROKERS: 'kafka:9092', KAFKA_PROVISION_TOPICS: 'false' });
    expect(s.depends_on?.init).toEqual({ condition: 'service_completed_successfully' });
  });

  it('gives each app only the secrets it reads, as the Helm chart does (its secretEnv, and INTERNAL_TOKEN)', () => {
    const values = load(readFileSync(join(CHART_DIR, 'values.yaml'), 'utf8')) as {
      apps: Record<string, { secretEnv?: string[] }>;
    };
    const secretsOf = (name: string) =>
      Object.keys(service(name).environment ?? {})
        .filter((key) => (SECRET_VARIABLES as readonly string[]).includes(key))
        .sort();
    for (const app of APPS) {
      expect({ app, secrets: secretsOf(app) }).toEqual({
        app,
        secrets: [...(values.apps[app]?.secretEnv ?? []), 'INTERNAL_TOKEN'].sort(),
      });
    }
    expect(secretsOf('init')).toEqual(['DATABASE_URL']);
    const holders = Object.keys(compose.services).filter((name) =>
      secretsOf(name).includes('CUSTODY_MASTER_KEY'),
    );
    expect(holders).toEqual(['transfer-service']);
  });

  it('requires every key and token from the environment, with no default to fall back on', () => {
    const keys = [
      'ADMIN_TOKEN',
      'INTERNAL_TOKEN',
      'CUSTODY_MASTER_KEY',
      'DATA_SEALING_KEY',
      'API_KEY_HASH_KEY',
    ];
    for (const [name, s] of Object.entries(compose.services)) {
      for (const key of keys.filter((k) => s.environment?.[k] !== undefined)) {
        expect({ name, key, value: s.environment?.[key] }).toEqual({
          name,
          key,
          value: expect.stringMatching(new RegExp(`^\\$\\{${key}:\\?[^}]+\\}$`)),
        });
      }
    }
  });

  it('passes INTERNAL_TOKEN to every app from the environment, and not to the init step', () => {
    for (const app of APPS) {
      expect({ app, token: service(app).environment?.INTERNAL_TOKEN }).toEqual({
        app,
        token: '${INTERNAL_TOKEN:?set INTERNAL_TOKEN (at least 32 characters)}',
      });
    }
    expect(service('init').environment?.INTERNAL_TOKEN).toBeUndefined();
  });

  it('publishes the gateway on 8080', () => {
    expect(service('gateway').ports).toContain('8080:8080');
    expect(service('gateway').depends_on?.redis).toEqual({ condition: 'service_healthy' });
  });
});
