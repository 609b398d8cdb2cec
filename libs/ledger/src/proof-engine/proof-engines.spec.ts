import { ciphertextEncrypts, zk } from '@cts/crypto';
import { enginesUnderTest } from './engines-under-test';
import { proofsOfEveryKind, sampleAccount as account } from './every-proof-kind';
import { PROOF_KINDS } from './proof-engine';
import { proofEngineChoiceFromEnv, proofEngineNamed } from './select-proof-engine';

// Parity: every proof kind built by each engine verifies under each engine (see enginesUnderTest).
const engines = enginesUnderTest().map(proofEngineNamed);

describe.each(engines.map((engine) => [engine.name, engine] as const))(
  'proofs built by the %s engine',
  (_, prover) => {
    const proofs = proofsOfEveryKind(prover);

    it('names its library, and natively the curve arithmetic this CPU runs (the startup log line)', () => {
      const expected = {
        wasm: /^@solana\/zk-sdk 0\.4\.1 \(WebAssembly\)$/,
        native: /^solana-zk-sdk 8\.1\.0, (AVX-512 IFMA|AVX2|portable) \(native\)$/,
      };
      expect(prover.library).toMatch(expected[prover.name]);
    });

    it.each(engines.map((engine) => [engine.name, engine] as const))(
      'verify under the %s engine',
      (_name, verifier) => {
        for (const kind of PROOF_KINDS) {
          expect({ kind, verified: verifier.verify(kind, proofs[kind]) }).toEqual({ kind, verified: true });
        }
      },
    );

    it.each(engines.map((engine) => [engine.name, engine] as const))(
      'are rejected by the %s engine once altered or misfiled',
      (_name, verifier) => {
        for (const kind of PROOF_KINDS) {
          const altered = new Uint8Array(proofs[kind]);
          altered[altered.length - 40] ^= 0x01;
          expect({ kind, verified: verifier.verify(kind, altered) }).toEqual({ kind, verified: false });
        }
        expect(verifier.verify('batched-range-u64', proofs['batched-range-u128'])).toBe(false);
        expect(verifier.verify('pubkey-validity', new Uint8Array(3))).toBe(false);
      },
    );

    it('carries the auditor its own ciphertext of each half of the amount', () => {
      const source = account(5n << 20n);
      const auditor = new zk.ElGamalKeypair();
      const amount = (3n << 16n) + 7n;
      const transfer = prover.transfer({
        elgamalSecret: source.secret,
        availableBalance: source.available,
        newAvailable: (5n << 20n) - amount,
        amount,
        destinationPubkey: account(0n).pubkey,
        auditorPubkey: auditor.pubkey().toBytes(),
      });
      const secret = auditor.secret().toBytes();
      expect(ciphertextEncrypts(secret, transfer.auditorCiphertextLo, 7n)).toBe(true);
      expect(ciphertextEncrypts(secret, transfer.auditorCiphertextHi, 3n)).toBe(true);
      expect(ciphertextEncrypts(secret, transfer.auditorCiphertextHi, 4n)).toBe(false);
    });

    it('reads a 32-bit ciphertext (a pending balance half) as the other engine does, and only with its key', () => {
      const keypair = new zk.ElGamalKeypair();
      const secret = keypair.secret().toBytes();
      const other = new zk.ElGamalKeypair().secret().toBytes();
      for (const amount of [0n, 70_000n, 4_294_967_295n]) {
        const ciphertext = keypair.pubkey().encryptU64(amount).toBytes();
        for (const reader of engines) {
          expect(reader.decryptU32(secret, ciphertext)).toBe(amount);
        }
      }
      expect(prover.decryptU32(other, keypair.pubkey().encryptU64(42n).toBytes())).toBeUndefined();
      expect(
        prover.decryptU32(
          secret,
          keypair
            .pubkey()
            .encryptU64(1n << 40n)
            .toBytes(),
        ),
      ).toBeUndefined();
      expect(() => prover.decryptU32(secret, new Uint8Array(10))).toThrow();
    });

    it('refuses inputs that do not match the balance or do not fit the proofs', () => {
      const source = account(100n);
      const input = {
        elgamalSecret: source.secret,
        availableBalance: source.available,
        destinationPubkey: account(0n).pubkey,
        auditorPubkey: new Uint8Array(32),
      };
      expect(() => prover.transfer({ ...input, amount: 10n, newAvailable: 91n })).toThrow();
      expect(() => prover.transfer({ ...input, amount: 1n << 48n, newAvailable: 0n })).toThrow(/48 bits/);
      expect(() => prover.withdraw({ ...input, amount: 10n, newAvailable: 89n })).toThrow();
      expect(() => prover.pubkeyValidity(new Uint8Array(31))).toThrow();
    });
  },
);

it('has the native engine in the run when CI asks for it', () => {
  const names = engines.map((engine) => engine.name);
  expect(names[0]).toBe('wasm');
  if (proofEngineChoiceFromEnv() === 'native') {
    expect(names).toEqual(['wasm', 'native']);
  }
});
