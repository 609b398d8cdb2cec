import { type Command, Option } from 'commander';
import { z } from 'zod';
import { resolveAdminToken } from './config/admin-token';
import { ApiClient, type ApiRequest } from './http/api-client';
import { type CliIo } from './io';
import { renderHuman, renderJson } from './output/render';

export const DEFAULT_URL = 'http://localhost:8080';

const GlobalOptions = z.object({
  url: z.string(),
  token: z.string().optional(),
  json: z.boolean().optional(),
});
type GlobalOptions = z.infer<typeof GlobalOptions>;

type RequestWithoutAuth = Omit<ApiRequest, 'bearer'>;

/** How the human form differs from the response (`--json` always prints the response as sent). */
export interface HumanView {
  readonly view?: unknown;
  readonly notes?: readonly string[];
}

/** What every command needs: the program's I/O, API access with the global options, output. */
export class CommandContext {
  constructor(readonly io: CliIo) {}

  /** Calls the admin API with the admin token (flag, env, then file). */
  async admin(command: Command, request: RequestWithoutAuth): Promise<unknown> {
    const { url, token } = this.globals(command);
    const client = new ApiClient(url, this.io.fetch);
    const bearer = resolveAdminToken({ flag: token, env: this.io.env, cwd: this.io.cwd });
    return client.send({ ...request, bearer });
  }

  /** Calls the public API as the holder of an API key. */
  async withApiKey(command: Command, apiKey: string, request: RequestWithoutAuth): Promise<unknown> {
    const { url } = this.globals(command);
    return new ApiClient(url, this.io.fetch).send({ ...request, bearer: apiKey });
  }

  /** The gateway base URL (`--url`, else CTS_URL, else the default). */
  url(command: Command): string {
    return this.globals(command).url;
  }

  /**
   * `--json` prints the response untouched; otherwise aligned text under a title: `human.view` in
   * place of the response when given, then `human.notes`.
   */
  print(command: Command, title: string, response: unknown, human: HumanView = {}): void {
    if (this.globals(command).json === true) {
      this.io.stdout(renderJson(response));
      return;
    }
    const notes = (human.notes ?? []).map((note) => `note: ${note}\n`).join('');
    this.io.stdout(`${renderHuman(title, 'view' in human ? human.view : response)}${notes}`);
  }

  private globals(command: Command): GlobalOptions {
    return GlobalOptions.parse(command.optsWithGlobals());
  }
}

export function jsonOption(): Option {
  return new Option(
    '--json',
    'print the raw JSON response, and an error as one JSON line on stderr (for scripts)',
  );
}

/** Path parameters come from the operator's shell: never let one change the route. */
export function pathParam(value: string): string {
  return encodeURIComponent(value);
}
