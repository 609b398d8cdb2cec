import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as contracts from './index';

const SCHEMAS_DIR = join(__dirname, '../../../docs/schemas');
const events = (Object.values(contracts) as unknown[]).filter(contracts.isEventContract);

describe('docs/schemas: one JSON Schema per event, generated from the zod contracts', () => {
  const generated = contracts.eventJsonSchemas(events);

  it('has a checked-in file for every event and no stale one (run `npm run schemas` after a change)', () => {
    expect(readdirSync(SCHEMAS_DIR).sort()).toEqual(Object.keys(generated).sort());
  });

  it.each(Object.keys(generated))('%s matches its contract', (file) => {
    expect(JSON.parse(readFileSync(join(SCHEMAS_DIR, file), 'utf8'))).toEqual(generated[file]);
  });
});

describe('envelope and result schemas', () => {
  it('are built once per payload schema, so zod compiles each once', () => {
    const { AgentCreated, envelopeSchema, resultSchema, TransferConfirmed } = contracts;
    expect(envelopeSchema(TransferConfirmed.payload)).toBe(envelopeSchema(TransferConfirmed.payload));
    expect(resultSchema(TransferConfirmed.payload)).toBe(resultSchema(TransferConfirmed.payload));
    expect(envelopeSchema(TransferConfirmed.payload)).not.toBe(envelopeSchema(AgentCreated.payload));
  });
});
