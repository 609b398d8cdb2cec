import { x402Facilitator } from '@x402/core/facilitator';
import { type PaymentPayload, type PaymentRequirements, type SupportedResponse } from '@x402/core/types';
import { type FacilitatorClient, type RouteConfig } from '@x402/core/server';
import { paymentMiddleware, x402ResourceServer } from '@x402/express';
import { toFacilitatorSvmSigner } from '@x402/svm';
import { registerExactSvmScheme as registerFacilitatorScheme } from '@x402/svm/exact/facilitator';
import { ExactSvmScheme as ExactSvmServerScheme } from '@x402/svm/exact/server';
import { createSolanaRpc, generateKeyPairSigner, lamports } from '@solana/kit';
import express from 'express';
import { type Server } from 'node:http';
import { type AddressInfo } from 'node:net';

/** Devnet's CAIP-2 id: what a test key pays on; here the local ledger stands in for devnet. */
export const DEVNET = 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1' as const;

export interface PricedRoute {
  path: string;
  /** Base units of the asset. */
  amount: string;
  maxTimeoutSeconds?: number;
}

export interface X402Merchant {
  url: string;
  feePayer: string;
  settlements: { success: boolean; transaction: string; errorReason?: string }[];
  close(): Promise<void>;
}

/**
 * A resource server built with the official `@x402/express` middleware, its facilitator the official
 * `@x402/svm` exact facilitator (in the same process, behind the FacilitatorClient interface), both on
 * the local ledger's JSON-RPC. Each route answers `{ ok: true, path }` once paid.
 */
export async function startX402Merchant(options: {
  rpcUrl: string;
  asset: string;
  payTo: string;
  routes: PricedRoute[];
}): Promise<X402Merchant> {
  const feePayer = await generateKeyPairSigner();
  await createSolanaRpc(options.rpcUrl).requestAirdrop(feePayer.address, lamports(10_000_000_000n)).send();
  const facilitator = new x402Facilitator();
  registerFacilitatorScheme(facilitator, {
    signer: toFacilitatorSvmSigner(feePayer, { defaultRpcUrl: options.rpcUrl }),
    networks: DEVNET,
  });
  const settlements: X402Merchant['settlements'] = [];
  const facilitatorClient: FacilitatorClient = {
    verify: (payload: PaymentPayload, requirements: PaymentRequirements) =>
      facilitator.verify(payload, requirements),
    settle: async (payload: PaymentPayload, requirements: PaymentRequirements) => {
      const settled = await facilitator.settle(payload, requirements);
      settlements.push(settled);
      return settled;
    },
    getSupported: () => Promise.resolve(facilitator.getSupported() as SupportedResponse),
  };
  const resourceServer = new x402ResourceServer(facilitatorClient).register(
    DEVNET,
    new ExactSvmServerScheme(),
  );
  const routes: Record<string, RouteConfig> = Object.fromEntries(
    options.routes.map((route) => [
      `GET ${route.path}`,
      {
        accepts: {
          scheme: 'exact',
          network: DEVNET,
          payTo: options.payTo,
          price: { amount: route.amount, asset: options.asset },
          maxTimeoutSeconds: route.maxTimeoutSeconds ?? 60,
        },
        description: `paid ${route.path}`,
      },
    ]),
  );
  const app = express();
  app.use(paymentMiddleware(routes, resourceServer));
  for (const route of options.routes) {
    app.get(route.path, (_req, res) => {
      res.json({ ok: true, path: route.path });
    });
  }
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    feePayer: feePayer.address,
    settlements,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
