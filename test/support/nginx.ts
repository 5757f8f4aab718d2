import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { waitForHttp } from './processes.ts'

const ROOT = join(import.meta.dirname, '..', '..')

/** The headers an answer of nginx (a refusal, an edge file) must share with the service's own. */
export const ANSWER_HEADERS = [
  'content-type',
  'cache-control',
  'access-control-allow-origin',
  'access-control-expose-headers',
  'content-security-policy',
  'x-content-type-options',
  'x-frame-options',
] as const

/** Renders one of the deployment's nginx templates the way the nginx image's envsubst does. */
export function renderTemplate(vars: Record<string, string>, name = 'default.conf.template'): string {
  const template = readFileSync(join(ROOT, 'deploy', 'nginx', name), 'utf8')
  return template.replace(/\$\{(\w+)\}/g, (whole, name: string) => vars[name] ?? whole)
}

/**
 * The deployment's variables for an nginx in `dir` in front of two replicas (`host:port`), serving
 * a build's site and edge files, with its API cache and these budgets per minute.
 */
export function edgeVars(options: {
  dir: string
  port: number
  distDir: string
  replicas: readonly string[]
  anonymousReadsPerMinute: number
  credentialedPerMinute: number
  /** The origin the build and the replicas were made for; nginx's own when not given. */
  baseUrl?: string
}): Record<string, string> {
  return {
    NGINX_PORT: String(options.port),
    BASE_URL: options.baseUrl ?? `http://127.0.0.1:${options.port}`,
    SITE_ROOT: join(options.distDir, 'current', 'site'),
    EDGE_ROOT: join(options.distDir, 'current', 'edge'),
    APP_1: options.replicas[0]!,
    APP_2: options.replicas[1]!,
    NGINX_API_CACHE_PARAMS: join(ROOT, 'deploy', 'nginx', 'api-cache.conf'),
    NGINX_CACHE_DIR: join(options.dir, 'api-cache'),
    NGINX_API_CACHE: 'lattice_api',
    ANONYMOUS_READS_PER_MINUTE: String(options.anonymousReadsPerMinute),
    CREDENTIALED_REQUESTS_PER_MINUTE: String(options.credentialedPerMinute),
  }
}

/**
 * The paths of the files the server block includes; the generated article locations, a
 * template too, are rendered into `dir` with the deployment's variables, as the nginx image
 * renders its templates.
 */
export function includedFiles(dir: string, deployment: Record<string, string>): Record<string, string> {
  const vars = {
    NGINX_PROXY_PARAMS: join(ROOT, 'deploy', 'nginx', 'proxy-params.conf'),
    NGINX_SECURITY_HEADERS: join(ROOT, 'deploy', 'nginx', 'security-headers.conf'),
    NGINX_API_SECURITY_HEADERS: join(ROOT, 'deploy', 'nginx', 'api-security-headers.conf'),
    NGINX_CORS_HEADERS: join(ROOT, 'deploy', 'nginx', 'cors-headers.conf'),
    NGINX_ARTICLE_LOCATIONS: join(dir, 'articles.conf'),
    NGINX_ARTICLE_BUCKETS: join(ROOT, 'deploy', 'nginx', 'article-buckets.conf'),
  }
  mkdirSync(dir, { recursive: true })
  writeFileSync(vars.NGINX_ARTICLE_LOCATIONS, renderTemplate({ ...deployment, ...vars }, 'articles.conf.template'))
  return vars
}

/**
 * Starts Debian's nginx in the foreground with the deployment's server config, wrapped in a
 * minimal main config whose paths all live in `dir` (what the nginx image provides otherwise).
 */
export async function startNginx(dir: string, vars: Record<string, string>): Promise<ChildProcess> {
  mkdirSync(join(dir, 'logs'), { recursive: true })
  writeFileSync(
    join(dir, 'default.conf'),
    renderTemplate({ NGINX_ACCESS_LOG: join(dir, 'logs', 'access.log'), ...vars, ...includedFiles(dir, vars) }),
  )
  writeFileSync(
    join(dir, 'nginx.conf'),
    `worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/logs/error.log warn;
events { worker_connections 512; }
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  access_log ${dir}/logs/access.log;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  include ${dir}/default.conf;
}
`,
  )
  const child = spawn('nginx', ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off; user root;'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout!.on('data', (d) => (output += d))
  child.stderr!.on('data', (d) => (output += d))
  try {
    await waitForHttp(`http://127.0.0.1:${vars.NGINX_PORT}/`, 10_000, child)
  } catch (e) {
    child.kill()
    throw new Error(`nginx did not start (${(e as Error).message}): ${output}`)
  }
  return child
}

/** Stops an nginx startNginx started, gracefully (SIGQUIT lets it finish what it serves). */
export async function stopNginx(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGQUIT')
  await exited
}
