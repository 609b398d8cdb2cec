import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { type CtsClient } from '@cts/sdk';
import { AgentSession } from './agent-session';
import { registerGetBalancesTool } from './tools/get-balances.tool';
import { registerGetPaymentStatusTool } from './tools/get-payment-status.tool';
import { registerGetPolicyTool } from './tools/get-policy.tool';
import { registerListPaymentsTool } from './tools/list-payments.tool';
import { registerPayForResourceTool } from './tools/pay-for-resource.tool';
import { registerPayTool } from './tools/pay.tool';

export const MCP_SERVER_NAME = 'cts-agent-wallet';
export const MCP_SERVER_VERSION = '0.1.0';

const INSTRUCTIONS = [
  'You hold a confidential stablecoin wallet as an AI agent, under a spend policy set by your owner and enforced by the payment service.',
  'Read get_policy before planning payments. Pay with pay, always with an idempotency_key, and the same key when retrying the same payment.',
  "A payment above the owner's approval threshold is held (pending_approval): nothing moves until the owner approves; follow it with get_payment_status instead of paying again.",
  'Amounts are confidential: get_balances tells which assets hold funds, never how much; your key cannot decrypt amounts.',
  'To use an API that charges per request (HTTP 402, x402), call pay_for_resource: it pays within the same policy; an x402 payment is public on chain.',
].join(' ');

/**
 * The MCP server of one agent wallet, on top of the SDK client that holds the agent's own key.
 * Each tool is one register call over the same session.
 */
export function createAgentMcpServer(client: CtsClient): McpServer {
  const server = new McpServer(
    { name: MCP_SERVER_NAME, version: MCP_SERVER_VERSION },
    { instructions: INSTRUCTIONS, capabilities: { tools: {} } },
  );
  const session = new AgentSession(client);
  registerGetPolicyTool(server, session);
  registerGetBalancesTool(server, session);
  registerPayTool(server, session);
  registerGetPaymentStatusTool(server, session);
  registerListPaymentsTool(server, session);
  registerPayForResourceTool(server, session);
  return server;
}
