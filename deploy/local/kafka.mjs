// A real single-node Apache Kafka broker (combined KRaft broker + controller), run from the
// Maven Central jars with the local JDK: no Docker, no Kafka download outside Maven.
//
//   node deploy/local/kafka.mjs fetch    fetches the jars into the user cache (idempotent)
import { execFile, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, openSync, closeSync } from 'node:fs';
import { appendFile, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import kafkajs from 'kafkajs';
import { findFreePorts } from './ports.mjs';
import { hasExited, killOnExit, waitForExit } from './child-process.mjs';

const { Kafka, logLevel } = kafkajs;

// 3.9 is the last line that keeps every old protocol version kafkajs 2.2.4 speaks (4.0 removed them, KIP-896).
export const KAFKA_VERSION = '3.9.2';
const SLF4J_VERSION = '1.7.36'; // the slf4j-api version kafka_2.13 3.9.x depends on
const RELOAD4J_VERSION = '1.2.25'; // what the Kafka 3.9 distribution ships as its log4j
const DEPENDENCY_PLUGIN_VERSION = '3.8.1';

const STARTUP_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 20_000;

const cacheDir = join(
  process.env.XDG_CACHE_HOME || join(homedir(), '.cache'),
  'cts',
  `kafka-${KAFKA_VERSION}`,
);
const libsDir = join(cacheDir, 'libs');
const fetchedMarker = join(libsDir, '.fetched');

/** Makes sure the broker jars are in the cache; returns the directory holding them. */
export async function fetchKafka() {
  if (existsSync(fetchedMarker)) {
    return libsDir;
  }

  console.error(
    `[kafka] fetching Apache Kafka ${KAFKA_VERSION} jars from Maven Central into ${libsDir} (first run only)`,
  );
  await mkdir(cacheDir, { recursive: true });
  // Fetch into a private staging dir and rename it into place, so concurrent first runs cannot see half a libs dir.
  const stagingDir = await mkdtemp(join(cacheDir, 'staging-'));
  try {
    const pomPath = join(stagingDir, 'pom.xml');
    const stagedLibs = join(stagingDir, 'libs');
    await writeFile(pomPath, throwawayPom());
    await run('mvn', [
      '-q',
      '-B',
      '-f',
      pomPath,
      'dependency:copy-dependencies',
      '-DincludeScope=runtime',
      `-DoutputDirectory=${stagedLibs}`,
    ]);
    await writeFile(join(stagedLibs, '.fetched'), `${new Date().toISOString()}\n`);
    await moveIntoPlace(stagedLibs);
  } finally {
    await rm(stagingDir, { recursive: true, force: true });
  }
  return libsDir;
}

async function moveIntoPlace(stagedLibs) {
  if (existsSync(libsDir) && !existsSync(fetchedMarker)) {
    await rm(libsDir, { recursive: true, force: true });
  }
  try {
    await rename(stagedLibs, libsDir);
  } catch (error) {
    if (!existsSync(fetchedMarker)) {
      throw error;
    } // otherwise a concurrent run finished first: fine
  }
}

function throwawayPom() {
  const dependency = (groupId, artifactId, version) =>
    `<dependency><groupId>${groupId}</groupId><artifactId>${artifactId}</artifactId><version>${version}</version></dependency>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local.cts</groupId>
  <artifactId>kafka-runtime</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <dependencies>
    ${dependency('org.apache.kafka', 'kafka_2.13', KAFKA_VERSION)}
    ${dependency('org.slf4j', 'slf4j-reload4j', SLF4J_VERSION)}
    ${dependency('ch.qos.reload4j', 'reload4j', RELOAD4J_VERSION)}
  </dependencies>
  <build>
    <pluginManagement>
      <plugins>
        <plugin>
          <groupId>org.apache.maven.plugins</groupId>
          <artifactId>maven-dependency-plugin</artifactId>
          <version>${DEPENDENCY_PLUGIN_VERSION}</version>
        </plugin>
      </plugins>
    </pluginManagement>
  </build>
</project>
`;
}

/**
 * Starts a broker whose files (config, data, logs) live in `dir`; a `dir` that already holds a
 * formatted broker is reused with its topics. Resolves once the broker serves kafkajs clients.
 */
export async function startKafka({ dir, port, controllerPort } = {}) {
  if (!dir) {
    throw new Error('startKafka: `dir` is required');
  }
  const libs = await fetchKafka();
  let saslPort;
  [port, controllerPort, saslPort] = await choosePorts(port, controllerPort);
  const sasl = {
    brokers: `127.0.0.1:${saslPort}`,
    username: 'cts-test',
    password: randomBytes(18).toString('hex'),
  };

  const paths = kafkaPaths(resolve(dir));
  await mkdir(paths.logs, { recursive: true });
  await writeFile(
    paths.serverProperties,
    serverProperties({ port, controllerPort, saslPort, sasl, dataDir: paths.data }),
    { mode: 0o600 },
  );
  await writeFile(paths.log4jProperties, log4jProperties(paths.serverLog));

  const classSharing = await classDataSharing(libs);
  if (!existsSync(join(paths.data, 'meta.properties'))) {
    await formatStorage(libs, paths, classSharing.useArchive);
  }

  const brokers = `127.0.0.1:${port}`;
  const broker = spawnBroker(libs, paths, classSharing.brokerJvmArgs);
  try {
    await waitUntilBrokerAnswers(brokers, broker, paths);
  } catch (error) {
    await stopProcess(broker);
    await classSharing.discardArchive();
    throw error;
  }
  const stop = once(async () => {
    const stoppedCleanly = await stopProcess(broker);
    await (stoppedCleanly ? classSharing.publishArchive() : classSharing.discardArchive());
  });
  return { brokers, sasl, stop };
}

/**
 * Class-data sharing: the JVM maps the classes an earlier broker run loaded from an archive instead of
 * loading them from ~60 jars again, which roughly halves broker startup. The first broker run writes
 * the archive when it exits. It is keyed by the exact JVM build (another build would ignore it) and
 * kept next to the jars it was made from (the JVM checks those too; `libs/*` only matches *.jar).
 */
async function classDataSharing(libs) {
  const archive = join(libs, `classes-${await jvmBuildId()}.jsa`);
  if (existsSync(archive)) {
    const useArchive = [`-XX:SharedArchiveFile=${archive}`];
    return {
      useArchive,
      brokerJvmArgs: useArchive,
      publishArchive: async () => {},
      discardArchive: async () => {},
    };
  }
  // Written under a private name, renamed into place only after a clean exit: concurrent runs and
  // a killed JVM cannot leave a half-written archive behind.
  const pending = `${archive}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  return {
    useArchive: [],
    brokerJvmArgs: [`-XX:ArchiveClassesAtExit=${pending}`],
    publishArchive: () => rename(pending, archive).catch(() => rm(pending, { force: true })),
    discardArchive: () => rm(pending, { force: true }),
  };
}

async function jvmBuildId() {
  const { stderr } = await promisify(execFile)('java', ['-version']);
  return createHash('sha256').update(stderr).digest('hex').slice(0, 12);
}

async function choosePorts(port, controllerPort) {
  const free = (await findFreePorts(4)).filter(
    (candidate) => candidate !== port && candidate !== controllerPort,
  );
  return [port ?? free[0], controllerPort ?? free[1], free[2]];
}

function kafkaPaths(dir) {
  const logs = join(dir, 'logs');
  return {
    data: join(dir, 'data'),
    logs,
    serverLog: join(logs, 'server.log'),
    jvmLog: join(logs, 'jvm.log'), // the JVM's own stdout/stderr: crashes before log4j is up
    serverProperties: join(dir, 'server.properties'),
    log4jProperties: join(dir, 'log4j.properties'),
  };
}

function serverProperties({ port, controllerPort, saslPort, sasl, dataDir }) {
  return `${[
    'process.roles=broker,controller',
    'node.id=1',
    `controller.quorum.voters=1@127.0.0.1:${controllerPort}`,
    // A second client listener that wants SASL/PLAIN (one user, a password made per start): the
    // integration test of the apps' broker credentials connects there. Everything else uses PLAINTEXT.
    `listeners=PLAINTEXT://127.0.0.1:${port},SASL_PLAINTEXT://127.0.0.1:${saslPort},CONTROLLER://127.0.0.1:${controllerPort}`,
    `advertised.listeners=PLAINTEXT://127.0.0.1:${port},SASL_PLAINTEXT://127.0.0.1:${saslPort}`,
    'listener.security.protocol.map=PLAINTEXT:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT,CONTROLLER:PLAINTEXT',
    'listener.name.sasl_plaintext.sasl.enabled.mechanisms=PLAIN',
    'listener.name.sasl_plaintext.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule ' +
      `required user_${sasl.username}="${sasl.password}";`,
    'controller.listener.names=CONTROLLER',
    'inter.broker.listener.name=PLAINTEXT',
    `log.dirs=${dataDir}`,
    'num.partitions=1',
    'default.replication.factor=1',
    'min.insync.replicas=1',
    'offsets.topic.replication.factor=1',
    'offsets.topic.num.partitions=4',
    'transaction.state.log.replication.factor=1',
    'transaction.state.log.min.isr=1',
    'transaction.state.log.num.partitions=4',
    'auto.create.topics.enable=false',
    'group.initial.rebalance.delay.ms=0',
    // At rest (issue 15): the controller writes a no-op to the metadata log every 500 ms by default,
    // and every idle network, request and background thread wakes a few times a second. One node on
    // a developer machine needs neither: measured 2.8–3.3 % of a core at rest, 2.1 % with these.
    'metadata.max.idle.interval.ms=5000',
    'num.network.threads=1',
    'num.io.threads=2',
    'background.threads=2',
    'num.recovery.threads.per.data.dir=1',
    'log.cleaner.threads=1',
  ].join('\n')}\n`;
}

function log4jProperties(serverLog) {
  return `${[
    'log4j.rootLogger=INFO, file',
    'log4j.appender.file=org.apache.log4j.FileAppender',
    `log4j.appender.file.File=${serverLog}`,
    'log4j.appender.file.layout=org.apache.log4j.PatternLayout',
    'log4j.appender.file.layout.ConversionPattern=[%d] %p %m (%c)%n',
  ].join('\n')}\n`;
}

function javaArgs(libs, paths, extraJvmArgs, mainClassAndArgs) {
  return [
    '-Xmx512m',
    // C1 only: the broker starts ~1 s sooner; peak throughput does not matter for tests and dev.
    '-XX:TieredStopAtLevel=1',
    '-Djava.awt.headless=true',
    ...extraJvmArgs,
    `-Dlog4j.configuration=${pathToFileURL(paths.log4jProperties)}`,
    '-cp',
    `${libs}/*`, // expanded by java itself, not by a shell
    ...mainClassAndArgs,
  ];
}

async function formatStorage(libs, paths, jvmArgs) {
  const storageTool = [
    'kafka.tools.StorageTool',
    'format',
    '-t',
    newClusterId(),
    '-c',
    paths.serverProperties,
  ];
  await run('java', javaArgs(libs, paths, jvmArgs, storageTool), { logFile: paths.jvmLog });
}

function newClusterId() {
  // 16 random bytes, base64url without padding (what `StorageTool random-uuid` prints). An id starting
  // with '-' would be parsed as an option by the CLI, which is why Kafka's own generator skips those too.
  for (;;) {
    const id = randomBytes(16).toString('base64url');
    if (!id.startsWith('-')) {
      return id;
    }
  }
}

function spawnBroker(libs, paths, jvmArgs) {
  const jvmLogFd = openSync(paths.jvmLog, 'a');
  try {
    const broker = spawn('java', javaArgs(libs, paths, jvmArgs, ['kafka.Kafka', paths.serverProperties]), {
      stdio: ['ignore', jvmLogFd, jvmLogFd],
      // Own process group: a Ctrl-C in the terminal reaches the command under test, not the broker,
      // so the broker is stopped after that command has shut down (see with-infra.mjs).
      detached: true,
    });
    killOnExit(broker);
    return broker;
  } finally {
    closeSync(jvmLogFd);
  }
}

async function waitUntilBrokerAnswers(brokers, broker, paths) {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (!(await brokerIsReady(brokers))) {
    if (hasExited(broker)) {
      throw new Error(
        `Kafka exited during startup (code ${broker.exitCode ?? broker.signalCode}).\n${await logExcerpt(paths)}`,
      );
    }
    if (Date.now() > deadline) {
      throw new Error(
        `Kafka did not answer on ${brokers} within ${STARTUP_TIMEOUT_MS / 1000} s.\n${await logExcerpt(paths)}`,
      );
    }
    await sleep(200);
  }
}

/**
 * Topics can be listed and a group coordinator answers. The latter makes the broker create
 * __consumer_offsets now, not when a test's first consumer joins (and logs coordinator errors).
 */
async function brokerIsReady(brokers) {
  const kafka = new Kafka({
    clientId: 'cts-infra-probe',
    brokers: [brokers],
    logLevel: logLevel.NOTHING,
    connectionTimeout: 1_000,
    requestTimeout: 2_000,
    retry: { retries: 0 },
  });
  const admin = kafka.admin();
  try {
    await admin.connect();
    await admin.listTopics();
    await admin.describeGroups(['cts-infra-probe']);
    return true;
  } catch {
    return false;
  } finally {
    await admin.disconnect().catch(() => {});
  }
}

/** The broker's first errors (the cause, usually) and its last lines (the shutdown that followed). */
async function logExcerpt(paths) {
  const sections = [];
  for (const file of [paths.jvmLog, paths.serverLog]) {
    const lines = (await readFile(file, 'utf8').catch(() => '')).trimEnd().split('\n').filter(Boolean);
    const firstErrors = lines.filter(isErrorOrItsException).slice(0, 8);
    if (firstErrors.length > 0) {
      sections.push(`--- first errors in ${file} ---`, ...firstErrors);
    }
    if (lines.length > 0) {
      sections.push(`--- last lines of ${file} ---`, ...lines.slice(-20));
    }
  }
  return sections.join('\n') || `(no broker log in ${paths.logs})`;
}

// An ERROR/FATAL line, or the exception line right after one (which says e.g. "Address already in use").
function isErrorOrItsException(line, index, lines) {
  const isError = (text) => /\] (ERROR|FATAL) /.test(text ?? '');
  return isError(line) || (isError(lines[index - 1]) && !line.startsWith('['));
}

// --- child processes ---

/** SIGTERM, then SIGKILL after STOP_TIMEOUT_MS. Resolves to whether the broker shut down by itself. */
async function stopProcess(child) {
  if (hasExited(child)) {
    return false;
  }
  child.kill('SIGTERM');
  if (await waitForExit(child, STOP_TIMEOUT_MS)) {
    return true;
  }
  child.kill('SIGKILL');
  await waitForExit(child);
  return false;
}

function once(fn) {
  let result;
  return () => (result ??= fn());
}

/** Runs a command to completion, its output appended to `logFile` if given; fails with the output's tail. */
async function run(command, args, { logFile } = {}) {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exitCode = await new Promise((resolve, reject) => {
    child.once('error', (error) =>
      reject(error.code === 'ENOENT' ? new Error(`${command} not found on PATH`) : error),
    );
    child.once('close', (code, signal) => resolve(code ?? signal));
  });
  if (logFile) {
    await appendFile(logFile, output);
  }
  if (exitCode !== 0) {
    const tail = output.trimEnd().split('\n').slice(-30).join('\n');
    throw new Error(`\`${command} ${args.join(' ')}\` failed with ${exitCode}:\n${tail}`);
  }
}

const isMain = process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href;
if (isMain) {
  const [command] = process.argv.slice(2);
  if (command !== 'fetch') {
    console.error('usage: node deploy/local/kafka.mjs fetch');
    process.exit(2);
  }
  try {
    console.log(await fetchKafka());
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
