/**
 * The one seam between the service and its state. Route code sees only this interface;
 * Redis (many replicas) and node:sqlite (the embedded default) implement it and pass
 * one contract suite (test/support/store-contract.ts).
 */
/** Any JSON object (records are plain data: no classes, dates or functions). */
export type StoredValue = object

export interface Store {
  /** Writes a JSON value that disappears after `ttlSeconds`. Resolves once durable. */
  put(key: string, value: StoredValue, ttlSeconds: number): Promise<void>
  /** The value, or undefined on a miss or once expired. */
  get<T extends StoredValue = StoredValue>(key: string): Promise<T | undefined>
  /**
   * Whether the key (or any of the keys) holds a live value: what a liveness check needs, in one
   * round trip, without reading values. Keys checked together share one hash tag (a Cluster slot).
   */
  has(keys: string | readonly string[]): Promise<boolean>
  /** Writes only if the key is absent (or expired); false if it exists. For one-time values. */
  putIfAbsent(key: string, value: StoredValue, ttlSeconds: number): Promise<boolean>
  /**
   * Removes the key and returns the value it held, in one atomic step: of many concurrent takes
   * of one key, exactly one gets the value. For single-use values (authorization codes).
   */
  take<T extends StoredValue = StoredValue>(key: string): Promise<T | undefined>
  /**
   * One use of a single-use value, in one atomic step across replicas (RFC 6749 §4.1.2, RFC 9700
   * §4.14.2): while `revoked` is not live, takes `value` and marks `used`; when `value` is gone but
   * `used` is live, the use is a replay: marks `revoked` and answers 'replayed'. Marks live
   * `ttlSeconds`. The three keys share one hash tag, so one script runs on a Redis Cluster too.
   */
  redeem<T extends StoredValue = StoredValue>(keys: RedeemKeys, ttlSeconds: number): Promise<Redemption<T>>
  /** Removes the key; a miss is not an error. */
  delete(key: string): Promise<void>
  /**
   * Adds `by` (default 1) to a counter and returns its new value with the seconds left in its
   * window. The first increment creates the counter with `windowSeconds`; later ones keep it.
   */
  increment(key: string, windowSeconds: number, by?: number): Promise<{ count: number; resetSeconds: number }>
  /** Resolves when the backing store answers; rejects when it cannot be reached. */
  ping(): Promise<void>
  /** Flushes and releases connections. The store is unusable afterwards. */
  close(): Promise<void>
}

/** The keys of one single-use value: the value, its used mark and its grant's revocation mark. */
export interface RedeemKeys {
  value: string
  used: string
  revoked: string
}

/** A redemption: the value (first use), a replay (now revoked), a revoked grant, or nothing to redeem. */
export type Redemption<T> = { value: T } | 'replayed' | 'revoked' | undefined

/** Thrown when the backing store cannot be reached; the family maps it to 503. */
export { StoreUnavailableError } from '../errors.ts'
