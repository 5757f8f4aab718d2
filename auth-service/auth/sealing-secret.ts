import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { tightenToOwner } from '../store/private-file.ts'
import { randomSecret } from './secrets.ts'

/**
 * The secret that seals the signing key in the store: SIGNING_KEY_SECRET when given (replicas
 * sharing Redis must share it), else one generated on first start in DATA_DIR, readable by the
 * owner only. Keeping it out of the store means a copy of the store alone cannot sign tokens.
 */
export function loadSealingSecret(configured: string | undefined, dataDir: string): string {
  if (configured) return configured
  const file = join(dataDir, 'signing-key.secret')
  try {
    const secret = readFileSync(file, 'utf8').trim()
    tightenToOwner(file) // one an older version or a person left readable by others
    return secret
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e
  }
  mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  try {
    writeFileSync(file, `${randomSecret(32)}\n`, { mode: 0o600, flag: 'wx' })
  } catch (e) {
    // Another process created it first: use theirs.
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e
  }
  tightenToOwner(file)
  return readFileSync(file, 'utf8').trim()
}
