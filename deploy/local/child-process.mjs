// Helpers for the local servers' child processes (Kafka, Redis).

export function hasExited(child) {
  return child.exitCode !== null || child.signalCode !== null;
}

/** Resolves to true when the child has exited, false when `timeoutMs` passed first. */
export function waitForExit(child, timeoutMs) {
  if (hasExited(child) || child.pid === undefined) {
    return Promise.resolve(true);
  }
  return new Promise((resolve) => {
    const timer = timeoutMs ? setTimeout(() => resolve(false), timeoutMs) : null;
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** If this Node process exits without stopping the server (crash, process.exit), don't leave it behind. */
export function killOnExit(child) {
  const kill = () => child.kill('SIGKILL');
  process.on('exit', kill);
  child.once('exit', () => process.off('exit', kill));
  child.once('error', () => process.off('exit', kill));
}
