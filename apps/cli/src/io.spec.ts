import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runNodeScript } from './io';
import { emptyDir } from './testing/test-io';

describe('runNodeScript', () => {
  it("resolves to the script's exit code, run in the given directory", async () => {
    const dir = emptyDir();
    const script = join(dir, 'exit.mjs');
    writeFileSync(script, `process.exit(process.cwd() === ${JSON.stringify(dir)} ? 3 : 4);\n`);

    await expect(runNodeScript(script, dir)).resolves.toBe(3);
  });
});
