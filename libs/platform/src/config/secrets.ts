import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AppConfig } from './app-config';

export interface Secrets {
  adminToken: string;
  custodyMasterKey: string;
  dataSealingKey: string;
  apiKeyHashKey: string;
}

const key32 = () => randomBytes(32).toString('base64');

/**
 * Secrets from configuration. In the one-process mode, any that is unset is generated once and kept
 * under the data dir (mode 0600) so a restart reuses it; the distributed mode requires all of them.
 */
export function resolveSecrets(config: AppConfig, generateMissing: boolean): Secrets {
  const stored = generateMissing ? loadOrCreateStoredSecrets(config.CTS_DATA_DIR) : undefined;
  // Each service needs only some secrets: a missing one fails where it is used, with its name.
  const required = (name: string, value: string | undefined): string => {
    if (!value) {
      throw new Error(`${name} must be set`);
    }
    return value;
  };
  return {
    get adminToken() {
      return required('ADMIN_TOKEN', config.ADMIN_TOKEN ?? stored?.adminToken);
    },
    get custodyMasterKey() {
      return required('CUSTODY_MASTER_KEY', config.CUSTODY_MASTER_KEY ?? stored?.custodyMasterKey);
    },
    get dataSealingKey() {
      return required('DATA_SEALING_KEY', config.DATA_SEALING_KEY ?? stored?.dataSealingKey);
    },
    get apiKeyHashKey() {
      return required('API_KEY_HASH_KEY', config.API_KEY_HASH_KEY ?? stored?.apiKeyHashKey);
    },
  };
}

export const adminTokenPath = (dataDir: string) => join(dataDir, 'admin-token');

function loadOrCreateStoredSecrets(dataDir: string): Secrets {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, 'secrets.json');
  if (existsSync(path)) {
    return JSON.parse(readFileSync(path, 'utf8')) as Secrets;
  }
  const secrets: Secrets = {
    adminToken: `adm_${randomBytes(24).toString('base64url')}`,
    custodyMasterKey: key32(),
    dataSealingKey: key32(),
    apiKeyHashKey: key32(),
  };
  writeFileSync(path, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  writeFileSync(adminTokenPath(dataDir), `${secrets.adminToken}\n`, { mode: 0o600 });
  return secrets;
}
