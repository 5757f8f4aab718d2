import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs'
import { dirname } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { tightenToOwner } from './private-file.ts'
import type { RedeemKeys, Redemption, Store, StoredValue } from './store.ts'

const SWEEP_EVERY_MS = 60_000

export interface SqliteStoreOptions {
  /** The clock expiries are computed and compared with, in ms since the epoch (tests move it). */
  now?: () => number
}

/**
 * The embedded store: one node:sqlite file, WAL with synchronous=FULL, so that a write that has
 * resolved is on disk and survives a crash or kill -9. Several processes may share the file.
 */
export function openSqliteStore(file: string, options: SqliteStoreOptions = {}): Store {
  const now = options.now ?? Date.now
  createPrivately(file)
  const db = new DatabaseSync(file)
  db.exec('PRAGMA journal_mode = WAL')
  db.exec('PRAGMA synchronous = FULL')
  db.exec('PRAGMA busy_timeout = 5000')
  db.exec(
    'CREATE TABLE IF NOT EXISTS kv (key TEXT PRIMARY KEY, value TEXT NOT NULL, expires_at INTEGER NOT NULL) STRICT',
  )

  const getStmt = db.prepare('SELECT value FROM kv WHERE key = ? AND expires_at > ?')
  const hasStmt = db.prepare('SELECT 1 FROM kv WHERE key = ? AND expires_at > ?')
  const putStmt = db.prepare(
    'INSERT INTO kv (key, value, expires_at) VALUES (?, ?, ?) ON CONFLICT(key) ' +
      'DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at',
  )
  // Replaces only an expired row, so the insert "wins" exactly when the key is absent or dead.
  const putIfAbsentStmt = db.prepare(
    'INSERT INTO kv (key, value, expires_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE ' +
      'SET value = excluded.value, expires_at = excluded.expires_at WHERE kv.expires_at <= ?',
  )
  const deleteStmt = db.prepare('DELETE FROM kv WHERE key = ?')
  // One statement: of concurrent takes (even from other processes) only one sees the row.
  const takeStmt = db.prepare('DELETE FROM kv WHERE key = ? RETURNING value, expires_at')
  // Rate-limit counters are worth nothing after a crash, and are written on every limited
  // request: they get their own connection that skips fsync (synchronous is per connection).
  const counters = new DatabaseSync(file)
  counters.exec('PRAGMA synchronous = OFF')
  counters.exec('PRAGMA busy_timeout = 5000')
  counters.exec(
    'CREATE TABLE IF NOT EXISTS counters (key TEXT PRIMARY KEY, ' +
      'count INTEGER NOT NULL, expires_at INTEGER NOT NULL) STRICT',
  )
  const incrementStmt = counters.prepare(
    `INSERT INTO counters (key, count, expires_at) VALUES (?, ?, ?)
     ON CONFLICT(key) DO UPDATE SET
       count = CASE WHEN counters.expires_at <= ? THEN excluded.count ELSE counters.count + excluded.count END,
       expires_at = CASE WHEN counters.expires_at <= ? THEN excluded.expires_at ELSE counters.expires_at END
     RETURNING count, expires_at`,
  )
  const sweepStmt = db.prepare('DELETE FROM kv WHERE expires_at <= ?')
  const sweepCounters = counters.prepare('DELETE FROM counters WHERE expires_at <= ?')
  const sweep = () => {
    sweepStmt.run(now())
    sweepCounters.run(now())
  }
  sweep()
  const sweeper = setInterval(sweep, SWEEP_EVERY_MS)
  sweeper.unref()

  const expiry = (ttlSeconds: number) => now() + windowMs(ttlSeconds)

  // Liveness checks are asked on every identified read. Those asked in one turn of the event
  // loop run together right after it (setImmediate), in one read transaction, each key once: a
  // check still runs after it was asked, so it sees every write acknowledged before, and a busy
  // caller's reads share one lookup and one pair of WAL locks instead of one each.
  let checks = new Map<string, { keys: readonly string[]; check: PromiseWithResolvers<boolean> }>()
  const runChecks = () => {
    const batch = checks
    checks = new Map()
    try {
      const at = now()
      db.exec('BEGIN')
      try {
        for (const { keys, check } of batch.values())
          check.resolve(keys.some((key) => hasStmt.get(key, at) !== undefined))
      } finally {
        db.exec('COMMIT')
      }
    } catch (err) {
      for (const { check } of batch.values()) check.reject(err)
    }
  }

  // Store.redeem: one write transaction (BEGIN IMMEDIATE takes the write lock first), so that of
  // concurrent redemptions, in this process or another on the same file, one sees the value.
  function redeem(keys: RedeemKeys, ttlSeconds: number): Redemption<string> {
    db.exec('BEGIN IMMEDIATE')
    try {
      const at = now()
      const live = (key: string) => hasStmt.get(key, at) !== undefined
      let outcome: Redemption<string>
      const row = takeStmt.get(keys.value) as { value: string; expires_at: number } | undefined
      if (live(keys.revoked)) outcome = 'revoked'
      else if (row && row.expires_at > at) {
        putStmt.run(keys.used, '{}', expiry(ttlSeconds))
        outcome = { value: row.value }
      } else if (live(keys.used)) {
        putStmt.run(keys.revoked, '{}', expiry(ttlSeconds))
        outcome = 'replayed'
      }
      db.exec('COMMIT')
      return outcome
    } catch (err) {
      db.exec('ROLLBACK')
      throw err
    }
  }

  return {
    async put(key: string, value: StoredValue, ttlSeconds: number) {
      putStmt.run(key, JSON.stringify(value), expiry(ttlSeconds))
    },
    async get<T extends StoredValue>(key: string) {
      const row = getStmt.get(key, now()) as { value: string } | undefined
      return row ? (JSON.parse(row.value) as T) : undefined
    },
    has(keys: string | readonly string[]) {
      const list = typeof keys === 'string' ? [keys] : keys
      const id = list.join('\n')
      let entry = checks.get(id)
      if (!entry) {
        if (checks.size === 0) setImmediate(runChecks)
        entry = { keys: list, check: Promise.withResolvers<boolean>() }
        checks.set(id, entry)
      }
      return entry.check.promise
    },
    async putIfAbsent(key: string, value: StoredValue, ttlSeconds: number) {
      return Number(putIfAbsentStmt.run(key, JSON.stringify(value), expiry(ttlSeconds), now()).changes) === 1
    },
    async take<T extends StoredValue>(key: string) {
      const row = takeStmt.get(key) as { value: string; expires_at: number } | undefined
      return row && row.expires_at > now() ? (JSON.parse(row.value) as T) : undefined
    },
    async redeem<T extends StoredValue>(keys: RedeemKeys, ttlSeconds: number): Promise<Redemption<T>> {
      const outcome = redeem(keys, ttlSeconds)
      return typeof outcome === 'object' ? { value: JSON.parse(outcome.value) as T } : outcome
    },
    async delete(key: string) {
      deleteStmt.run(key)
    },
    async increment(key: string, windowSeconds: number, by = 1) {
      const at = now()
      const row = incrementStmt.get(key, by, at + windowMs(windowSeconds), at, at) as {
        count: number
        expires_at: number
      }
      return { count: row.count, resetSeconds: Math.max(1, Math.ceil((row.expires_at - at) / 1000)) }
    },
    async ping() {
      db.prepare('SELECT 1').get()
    },
    async close() {
      clearInterval(sweeper)
      if (counters.isOpen) counters.close()
      if (db.isOpen) db.close()
    },
  }
}

/**
 * The file holds client addresses and credential digests: readable by its owner only (0600, in a
 * 0700 folder when the store creates it), whatever the umask. SQLite gives its -wal and -shm files
 * the database file's mode; files an older version left 0644 are tightened here.
 */
function createPrivately(file: string): void {
  const dir = dirname(file)
  if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 })
  closeSync(openSync(file, 'a', 0o600))
  for (const path of [file, `${file}-wal`, `${file}-shm`]) if (existsSync(path)) tightenToOwner(path)
}

const windowMs = (seconds: number) => Math.max(1, Math.round(seconds * 1000))
