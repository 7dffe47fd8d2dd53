import type { Config } from './config.js'
import { createSecretBox, type SecretBox } from './platform/crypto.js'
import { loadEvidenceSigner, type EvidenceSigner } from './modules/evidence/index.js'
import { loadSecretsKey } from './platform/secrets-key.js'

/** The keys a process keeps across restarts: from configuration, or DATA_DIR (generated there on first run). */
export async function loadServiceKeys(
  config: Config,
): Promise<{ secretBox: SecretBox; evidenceSigner: EvidenceSigner }> {
  const key = await loadSecretsKey(config)
  const evidenceSigner = await loadEvidenceSigner({
    secretsKey: config.secretsKey ? key : null,
    dataDir: config.dataDir,
  })
  return { secretBox: createSecretBox(key), evidenceSigner }
}
