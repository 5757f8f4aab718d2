// A web worker of the search page (search-workers.js): it fetches the index's files and unpacks
// them, ranks the pages of the score groups it is given, and makes the results' data. The
// browser unpacks a stream on the thread that reads it and handles each download there: on the
// page's thread a query's megabytes of score files kept it busy as long again as ranking them,
// and two workers rank the groups side by side. Its downloads run together; unpacking, one at a
// time in the order asked, so that the first file is read while the next unpacks.
import { resultOfPlaces } from './search-excerpt.js'
import { Ranking, rankGroup } from './search-rank.js'
import { download, filesByUrl, unpack } from './search-unpack.js'

/** Score files kept: a session's queries reuse them (a group's small file is some 150 KB unpacked, a block 600 KB). */
const MAX_FILES = 64

let queue = Promise.resolve()
/** The file at `url`, unpacked after those asked before. */
function unpacked(url) {
  const downloaded = download(url)
  downloaded.catch(() => {})
  const done = queue.then(async () => unpack(await downloaded))
  queue = done.catch(() => {})
  return done
}

// Score files by URL: promises of their bytes.
const files = filesByUrl(MAX_FILES)
const scoreFile = (url) => files(url, unpacked)

// The index's statistics by its folder, as the page read them (methods.open): every shard's, as
// the ranking needs them all.
const indexes = new Map()

const methods = {
  /** Keeps the index at `base`, `text` its shards.json as the page read it. */
  open({ base, text }) {
    const { shards, stats } = JSON.parse(text)
    const shardStats = shards.map((name) => stats[name])
    indexes.set(base, { shardStats, position: new Map(shards.map((name, i) => [name, i])) })
    return { result: true, transfer: [] }
  },
  /** The file at `url`, unpacked. */
  async unpack({ url }) {
    const bytes = await unpacked(url)
    return { result: bytes, transfer: [bytes.buffer] }
  },
  /** The data of a result, from its places file at `url` (search-excerpt.js). */
  async result({ url, stems, baseUrl }) {
    return { result: resultOfPlaces(await unpacked(url), stems, baseUrl), transfer: [] }
  },
  /**
   * The sums of the pages of `groups` (as shards.json lists them) for the query's terms, as
   * Ranking.sumsOf keeps them, by shard position: the page ranks them with every shard's.
   */
  async rank({ base, stems, words, groups }) {
    const index = indexes.get(base)
    if (!index) throw new Error(`no search index opened at ${base}`)
    const ranking = new Ranking(index.shardStats, stems, words)
    await Promise.all(
      groups.flatMap((group) => {
        const positions = group.shards.map((shard) => index.position.get(shard))
        return stems.map((stem, t) =>
          rankGroup(ranking, group, positions, t, stem, (file) => scoreFile(`${base}${group.name}/${file}.pf_group`)),
        )
      }),
    )
    const sums = []
    const transfer = []
    ranking.sums.forEach(({ on, partial, inField }, s) => {
      sums.push([s, { on, partial, inField }])
      transfer.push(on.buffer, partial.buffer, inField.buffer)
    })
    return { result: sums, transfer }
  },
}

self.addEventListener('message', async ({ data: { id, method, args } }) => {
  try {
    const { result, transfer } = await methods[method](args)
    self.postMessage({ id, result }, transfer)
  } catch (error) {
    self.postMessage({ id, error: error instanceof Error ? error.message : String(error) })
  }
})
