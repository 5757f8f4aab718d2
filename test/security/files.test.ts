/**
 * The embedded store and the generated secret are readable by their owner only: the store holds
 * client addresses and credential digests, the secret seals the signing key.
 */
import { chmodSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadSealingSecret } from '../../auth-service/auth/sealing-secret.ts'
import { openSqliteStore } from '../../auth-service/store/sqlite-store.ts'
import { tempDir } from '../support/temp.ts'

const mode = (path: string) => statSync(path).mode & 0o777

describe('files of the embedded store', () => {
  it(
    'creates the data folder 0700 and the database with ' + 'its -wal and -shm files 0600, whatever the umask',
    async () => {
      const previous = process.umask(0o002)
      try {
        const dataDir = join(tempDir('files'), 'data', 'nested')
        const file = join(dataDir, 'store.sqlite')
        const store = openSqliteStore(file)
        await store.put('client:1', { address: '203.0.113.7' }, 60)
        await store.increment('budget:203.0.113.7', 60)
        expect(mode(dataDir)).toBe(0o700)
        for (const path of [file, `${file}-wal`, `${file}-shm`]) expect(mode(path), path).toBe(0o600)
        await store.close()
      } finally {
        process.umask(previous)
      }
    },
  )

  it('tightens files that an older version left readable by others', async () => {
    const dir = tempDir('files')
    const file = join(dir, 'store.sqlite')
    const first = openSqliteStore(file)
    await first.put('k', { v: 1 }, 60)
    for (const path of [file, `${file}-wal`, `${file}-shm`]) chmodSync(path, 0o644)
    const second = openSqliteStore(file)
    for (const path of [file, `${file}-wal`, `${file}-shm`]) expect(mode(path), path).toBe(0o600)
    expect(await second.get('k')).toEqual({ v: 1 })
    await second.close()
    await first.close()
  })

  it('writes the generated sealing secret 0600, and tightens an existing one', () => {
    const dataDir = join(tempDir('files'), 'fresh')
    loadSealingSecret(undefined, dataDir)
    expect(mode(dataDir)).toBe(0o700)
    expect(mode(join(dataDir, 'signing-key.secret'))).toBe(0o600)
    const other = tempDir('files')
    writeFileSync(join(other, 'signing-key.secret'), 'x'.repeat(43), { mode: 0o644 })
    loadSealingSecret(undefined, other)
    expect(mode(join(other, 'signing-key.secret'))).toBe(0o600)
  })
})
