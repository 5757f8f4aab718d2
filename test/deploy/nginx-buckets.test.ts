import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ARTICLE_BUCKETS, articleBucket, murmurHash2 } from '../../model/article-bucket.ts'
import { BUCKETS_CONF } from '../../scripts/deploy/nginx-articles.ts'
import { freePort, waitForHttp } from '../support/processes.ts'
import { tempDir } from '../support/temp.ts'

/*
 * nginx finds an article's bucket from its address with split_clients (article-buckets.conf);
 * the build chose it with model/article-bucket.ts. A slug they put in different buckets would be
 * a page nginx cannot find, so they are compared on real nginx, on the slugs closest to the
 * bounds between buckets too.
 */
describe('the bucket of an article, in nginx and in the build', () => {
  let nginx: ChildProcess
  let origin: string
  beforeAll(async () => {
    const dir = tempDir('nginx-buckets')
    mkdirSync(join(dir, 'logs'))
    const port = await freePort()
    writeFileSync(
      join(dir, 'nginx.conf'),
      `worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/logs/error.log warn;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  include ${BUCKETS_CONF};
  server {
    listen 127.0.0.1:${port};
    location / { return 200 "$lattice_bucket $lattice_article_slug$lattice_answer_slug"; }
  }
}
`,
    )
    nginx = spawn('nginx', ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off; user root;'], {
      stdio: 'ignore',
    })
    origin = `http://127.0.0.1:${port}`
    await waitForHttp(`${origin}/`, 10_000, nginx)
  })
  afterAll(async () => {
    if (nginx.exitCode !== null) return
    await new Promise((resolve) => {
      nginx.once('exit', resolve)
      nginx.kill()
    })
  })

  it('is the same for every address of an article, bounds between buckets included', async () => {
    // Slugs whose hash is just past or short of a bound, where rounding the parts otherwise
    // would move them, found by trying names in turn.
    const encoder = new TextEncoder()
    const part = Math.floor((40 * 0xffffffff) / 10000)
    const near: string[] = []
    for (let n = 0; near.length < 12; n++) {
      const slug = `near-${n.toString(36)}`
      const offset = murmurHash2(encoder.encode(slug)) % part
      if (offset < 50 || offset > part - 50) near.push(slug)
    }
    const slugs = [
      ...near,
      'a',
      'ab',
      'abc',
      'abcd',
      'hashing-rings',
      ...Array.from({ length: 200 }, (_, i) => `article-${i}`),
    ]
    const seen = new Set<string>()
    for (const slug of slugs) {
      const bucket = articleBucket(slug)
      seen.add(bucket)
      for (const path of [
        `/posts/${slug}`,
        `/posts/${slug}.html`,
        `/posts/${slug}.md`,
        `/posts/${slug}.csl.json`,
        `/api/v1/posts/${slug}`,
      ])
        expect(await (await fetch(`${origin}${path}`)).text(), path).toBe(`${bucket} ${slug}`)
    }
    expect(seen.size).toBeGreaterThan(ARTICLE_BUCKETS / 4)
  })

  it('names no slug for an address that is no article', async () => {
    for (const path of ['/posts/A-b', '/posts/a/b', '/posts/a.link', '/posts/a.json', '/api/v1/posts/a.md', '/tags/a'])
      expect((await (await fetch(`${origin}${path}`)).text()).split(' ')[1], path).toBe('')
  })
})
