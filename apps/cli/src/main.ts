import { errorCode } from './errors';
import { processIo } from './io';
import { run } from './program';

// `cts --help | head` closes the pipe early: that is the reader's choice, not a crash.
process.stdout.on('error', (error) => {
  if (errorCode(error) !== 'EPIPE') {
    throw error;
  }
});

// exitCode rather than process.exit(): lets stdout finish flushing when piped.
void run(process.argv.slice(2), processIo()).then((code) => {
  process.exitCode = code;
});
