import { resolve } from 'node:path'
import { loadSiteConfig } from '../../model/site-config.ts'

/** The project's root: where the build finds its sources, node_modules and the service's scripts. */
export const ROOT = resolve(import.meta.dirname, '..', '..')

/** The build's settings, parsed (and refused) exactly as the server parses them. */
export function buildEnv(env: NodeJS.ProcessEnv): { contentDir: string; baseUrl: string; distDir: string } {
  const { contentDir, baseUrl, distDir } = loadSiteConfig(env, ROOT)
  return { contentDir, baseUrl, distDir }
}
