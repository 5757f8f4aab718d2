/**
 * Turns on Node's module compile cache (https://nodejs.org/api/module.html#module-compile-cache)
 * for this process and, through NODE_COMPILE_CACHE, for every thread and process it starts
 * (render threads, the build started again under its heap limit, search shard processes): each
 * module's code, its TypeScript stripped and compiled, is read back instead of made again.
 *
 * JavaScript on purpose, as are the npm scripts' entries that load it first (build.js, start.js,
 * dev.js): Node strips the types of a .ts entry, and of every module its static imports reach,
 * before any of its code can turn the cache on, and its type stripper (amaro, WebAssembly) takes
 * 0.1–0.2 s to load in each process and thread that strips anything (docs/benchmark.md).
 */
import { enableCompileCache } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

process.env.NODE_COMPILE_CACHE ||= join(tmpdir(), 'node-compile-cache')
enableCompileCache(process.env.NODE_COMPILE_CACHE)
