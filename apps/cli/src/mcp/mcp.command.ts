import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CtsClient } from '@cts/sdk';
import { type Command } from 'commander';
import { z } from 'zod';
import { type CommandContext } from '../command-context';
import { CliError, EXIT_FAILURE } from '../errors';
import { checkAgentKey } from './agent-key-check';
import { createAgentMcpServer } from './agent-mcp-server';
import { startMcpHttpServer } from './http-server';

const Options = z.object({
  url: z.string(),
  apiKey: z.string().optional(),
  http: z.coerce.number().int().min(0).max(65535).optional(),
  host: z.string(),
});

/**
 * `cts mcp --api-key <agent key>`: an MCP server over stdio acting as that one agent. stdout carries
 * the protocol alone, so everything else goes to stderr; the key is never printed.
 */
export function registerMcpCommand(program: Command, context: CommandContext): void {
  program
    .command('mcp')
    .description(
      "serve an agent's wallet to an AI model over the Model Context Protocol (stdio); the API is --url (env CTS_URL)",
    )
    .option('--api-key <key>', "the agent's API key, svc_test_… or svc_live_… (else env CTS_API_KEY)")
    .option(
      '--http <port>',
      'serve Streamable HTTP at http://<host>:<port>/mcp instead of stdio; each request brings its agent key as Authorization: Bearer',
    )
    .option('--host <host>', 'interface for --http', '127.0.0.1')
    .action(async (_options: unknown, command: Command) => {
      const { url, apiKey, http, host } = Options.parse(command.optsWithGlobals());
      if (http !== undefined) {
        if (apiKey) {
          throw new CliError(
            '--http takes no --api-key: every HTTP request authenticates with its own agent key',
            EXIT_FAILURE,
          );
        }
        const server = await startMcpHttpServer({ host, port: http, apiUrl: url, fetch: context.io.fetch });
        const address = server.address();
        const port = typeof address === 'object' && address ? address.port : http;
        context.io.stderr(
          `cts mcp: Streamable HTTP at http://${host}:${port}/mcp (Authorization: Bearer <agent key>), API at ${url}\n`,
        );
        await new Promise<void>((resolve) => server.once('close', resolve));
        return;
      }
      const key = apiKey ?? context.io.env.CTS_API_KEY;
      if (!key) {
        throw new CliError('an API key is required: --api-key <agent key> or env CTS_API_KEY', EXIT_FAILURE);
      }
      const client = new CtsClient({ baseUrl: url, apiKey: key, fetch: context.io.fetch });
      const verdict = await checkAgentKey(client);
      // Only a key known to be no agent's stops it: a refused key or an unreachable API still
      // serves, and every tool says what is wrong (the tools check the account type again).
      if (!verdict.ok && verdict.status === 403) {
        throw new CliError(verdict.message, EXIT_FAILURE);
      }
      const server = createAgentMcpServer(client);
      const transport = new StdioServerTransport();
      const closed = new Promise<void>((resolve) => {
        transport.onclose = resolve;
      });
      await server.connect(transport);
      // The client closing our stdin ends the session (the transport itself does not watch for it).
      process.stdin.once('end', () => void server.close());
      context.io.stderr(`cts mcp: serving the agent wallet tools over stdio, API at ${url}\n`);
      await closed;
    });
}
