// WARNING: '@cts/crypto' redirects '@solana/zk-sdk/bundler' to the Node build; it must load before the
// token-2022 confidential entry, or that entry fails on its .wasm import (and would hold a second wasm
// instance whose objects cannot mix with ours).
import '@cts/crypto';

export { getApplyConfidentialPendingBalanceInstructionFromToken } from '@solana-program/token-2022/confidential';
