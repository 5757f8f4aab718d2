/**
 * The deployment's publisher (the Compose `publisher` service): publishes scheduled articles when
 * their date arrives, by running the build then (scripts/publish-schedule.ts), as `npm start`
 * does beside its server. It runs until stopped.
 */
import { buildEnv } from '../scripts/builder/build-env.ts'
import { publishOnSchedule } from '../scripts/publish-schedule.ts'

const { contentDir, baseUrl, distDir } = buildEnv(process.env)
const schedule = publishOnSchedule({ ...process.env, BASE_URL: baseUrl, CONTENT_DIR: contentDir, DIST_DIR: distDir })
// The schedule's timers do not hold the process: this one does, until a signal stops it.
const alive = setInterval(() => {}, 2 ** 30)
for (const signal of ['SIGTERM', 'SIGINT'] as const)
  process.once(signal, () => {
    schedule.stop()
    clearInterval(alive)
  })
console.log(`Publishing scheduled articles for ${baseUrl} when their dates arrive.`)
