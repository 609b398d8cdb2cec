import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppConfigSchema } from './app-config';

const doc = readFileSync(join(__dirname, '../../../../docs/operations.md'), 'utf8');

describe('docs/operations.md configuration reference', () => {
  it.each(Object.keys(AppConfigSchema.shape))('documents %s', (variable) => {
    expect(doc).toContain(`\`${variable}\``);
  });
});
