import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll } from 'vitest'

/**
 * A fresh folder under the system temp dir, removed when the test file that made it finishes
 * (after its own afterAll hooks, which stop whatever still writes there).
 */
export function tempDir(purpose: string): string {
  const dir = mkdtempSync(join(tmpdir(), `lattice-${purpose}-`))
  made.push(dir)
  return dir
}

const made: string[] = []
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
})
