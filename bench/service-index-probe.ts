/**
 * One loader measured in a process of its own, so that its memory is its own: loads the post
 * index from a build folder, reads every detail once, runs the queries, and prints one JSON line.
 * Usage: node service-index-probe.ts <current|json> <buildDir> <workload.json: {slugs, queries}>
 */
import { readFileSync } from 'node:fs'
import { performance } from 'node:perf_hooks'
import { keepYoungGenerationSmall, loadIndexFile } from '../post-index/index-file-loader.ts'
import type { PostIndexCore } from '../post-index/post-index.ts'
import { loadJsonIndex } from './references/json-post-index.ts'

const [kind, dir, workloadFile] = process.argv.slice(2)
// The service's own modules and libraries, so that the memory compared is a server's.
await import('../auth-service/app.ts')
const { slugs, queries } = JSON.parse(readFileSync(workloadFile!, 'utf8')) as { slugs: string[]; queries: string[] }

// As the service does (server.ts), for both loaders.
keepYoungGenerationSmall()
const rssMb = () => process.memoryUsage.rss() / 1024 / 1024
const started = performance.now()
const index: PostIndexCore =
  kind === 'json' ? loadJsonIndex(dir!, 'http://localhost:4321') : await loadIndexFile(dir!, 'http://localhost:4321')
const loadMs = performance.now() - started
const rssAfterLoad = rssMb()
for (const slug of slugs) index.detail(slug)
const rssAfterDetails = rssMb()

const wall: number[] = []
const cpu: number[] = []
for (const q of queries) {
  const c = process.cpuUsage()
  const t = performance.now()
  index.search(q, 20)
  wall.push(performance.now() - t)
  const u = process.cpuUsage(c)
  cpu.push((u.user + u.system) / 1000)
}
const at = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!
console.log(
  JSON.stringify({
    loadMs,
    rssAfterLoad,
    rssAfterDetails,
    searchP50: at(wall, 0.5),
    searchP99: at(wall, 0.99),
    searchCpuP99: at(cpu, 0.99),
  }),
)
