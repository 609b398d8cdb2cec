import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Command } from 'commander';
import { type CommandContext } from '../command-context';
import { CliError, EXIT_FAILURE } from '../errors';
import { findRepoRoot } from './repo-root';

export function registerMigrateCommand(
  program: Command,
  context: CommandContext,
  repoRoot = findRepoRoot(),
): void {
  program
    .command('migrate')
    .description('run the database migrations (same as npm run migrate)')
    .action(async () => {
      if (repoRoot === undefined) {
        throw new CliError(
          'cannot find the repository root (a package.json with workspaces) above the CLI',
          EXIT_FAILURE,
        );
      }
      const script = join(repoRoot, 'tools', 'migrate.mjs');
      if (!existsSync(script)) {
        throw new CliError(`${script} not found — is this checkout up to date?`, EXIT_FAILURE);
      }
      // Same script and working directory as `npm run migrate`, so both behave alike.
      const exitCode = await context.io.runNodeScript(script, repoRoot);
      if (exitCode !== 0) {
        throw new CliError(`migrations failed: ${script} exited with code ${exitCode}`, exitCode);
      }
    });
}
