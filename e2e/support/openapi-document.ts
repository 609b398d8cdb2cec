import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Schema {
  $ref?: string;
  type?: string;
  enum?: unknown[];
  format?: string;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  anyOf?: Schema[];
  oneOf?: Schema[];
}

export interface Operation {
  parameters?: { name: string; in: string }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
}

/** The checked-in OpenAPI document (docs/openapi.json): the routes the e2e sweeps drive. */
export const openApi = JSON.parse(readFileSync(join(__dirname, '../../docs/openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
};
