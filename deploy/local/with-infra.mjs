// Runs a command with Kafka, PostgreSQL and Redis around it:
//
//   node deploy/local/with-infra.mjs <command> [args…]
//
// The command gets KAFKA_BROKERS, DATABASE_URL and REDIS_URL in its environment. Everything started
// here is stopped when the command ends or on SIGINT/SIGTERM/SIGHUP; the exit code is the command's.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { startInfra } from './infra.mjs';

const HANDLED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'];

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: node deploy/local/with-infra.mjs <command> [args…]');
  process.exit(2);
}

let phase = 'starting'; // → 'running' → 'stopping'
let firstSignal = null;
let commandProcess = null;
for (const signal of HANDLED_SIGNALS) {
  process.on(signal, () => onSignal(signal));
}

const infra = await startInfra().catch((error) => {
  // After a Ctrl-C the servers starting in our process group got it too and failed: not worth reporting.
  if (firstSignal) {
    process.exit(exitCodeForSignal(firstSignal));
  }
  report(error.message);
  process.exit(1);
});
if (firstSignal) {
  await stopAndExit(exitCodeForSignal(firstSignal));
}

phase = 'running';
const exitCode = await runCommand(command, args, { ...process.env, ...infra.env });
await stopAndExit(exitCode);

function onSignal(signal) {
  const repeated = firstSignal !== null;
  firstSignal ??= signal;
  if (phase === 'running') {
    // The command may already have had this signal from the terminal; forwarding covers a signal
    // sent to this process alone (CI cancelling a job). A repeated signal forces the command down.
    commandProcess.kill(repeated ? 'SIGKILL' : signal);
  } else if (repeated) {
    // Impatient second signal while starting or stopping: exit now; the 'exit' hooks of
    // kafka.mjs, postgres.mjs, redis.mjs and infra.mjs kill the servers and delete the temp dir.
    process.exit(exitCodeForSignal(signal));
  } else if (phase === 'starting') {
    report(`${signal}: stopping once the infra has finished starting (send it again to force)`);
  }
}

function runCommand(file, argv, env) {
  return new Promise((resolve) => {
    commandProcess = spawn(file, argv, { stdio: 'inherit', env });
    commandProcess.once('error', (error) => {
      report(`cannot run ${file}: ${error.message}`);
      resolve(127);
    });
    commandProcess.once('exit', (code, signal) => resolve(code ?? exitCodeForSignal(signal)));
  });
}

async function stopAndExit(exitCode) {
  phase = 'stopping';
  try {
    await infra.stop();
  } catch (error) {
    report(`stopping infra failed: ${error.message}`);
    if (exitCode === 0) {
      exitCode = 1;
    }
  }
  process.exit(exitCode);
}

function exitCodeForSignal(signal) {
  return 128 + (constants.signals[signal] ?? 0);
}

function report(line) {
  process.stderr.write(`[with-infra] ${line}\n`);
}
