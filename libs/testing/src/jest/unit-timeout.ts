// Unit tests that build real zero-knowledge proofs or boot a Nest module take a few seconds on a 2-core
// machine, and this machine's speed drifts; 15 s keeps jest's timeout for hangs, not for a slow minute.
jest.setTimeout(15_000);
