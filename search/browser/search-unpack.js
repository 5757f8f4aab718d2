// The index's files: the build writes them gzip (RFC 1952), which a server may have unpacked
// already (sending them with a Content-Encoding).

/** The bytes of the file at `url`, as served. */
export async function download(url) {
  const response = await fetch(url)
  if (!response.ok) throw new Error(`${response.status} fetching ${url}`)
  return new Uint8Array(await response.arrayBuffer())
}

/**
 * `bytes` unpacked, if gzip: the stream's chunks read into one array, the size the gzip trailer
 * gives (ISIZE, RFC 1952 2.3.1: the length mod 2^32, which the stream checks; one member, as
 * DecompressionStream reads). Reading the stream into a Response's arrayBuffer() took half as
 * long again (Chromium).
 */
export async function unpack(bytes) {
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes
  const stream = new DecompressionStream('gzip')
  const writer = stream.writable.getWriter()
  writer.write(bytes).catch(() => {})
  writer.close().catch(() => {})
  const n = bytes.length
  const size = n >= 18 ? (bytes[n - 4] | (bytes[n - 3] << 8) | (bytes[n - 2] << 16) | (bytes[n - 1] << 24)) >>> 0 : 0
  // Deflate packs at most 1,032 bytes into one (RFC 1951's longest match in its shortest code):
  // a larger size is not a trailer, as in a file cut short.
  if (size > n * 1032) throw new Error('not a whole gzip file')
  const out = new Uint8Array(size)
  let length = 0
  const reader = stream.readable.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    // Past the trailer's size, set() throws, as the stream would once it checks the size.
    out.set(value, length)
    length += value.length
  }
  return length === out.length ? out : out.slice(0, length)
}

/** The file at `url`, unpacked. */
export const fetchUnpacked = async (url) => unpack(await download(url))

/**
 * A cache of the index's files by URL (their names are their contents' hashes), `max` at most,
 * the oldest dropped first: `(url, read)` gives the promise kept for `url`, else `read(url)`'s,
 * which is dropped if it fails so that a later query asks again.
 */
export function filesByUrl(max) {
  const files = new Map()
  return (url, read) => {
    let file = files.get(url)
    if (!file) {
      file = read(url)
      file.catch(() => files.delete(url))
      files.set(url, file)
      if (files.size > max) files.delete(files.keys().next().value)
    }
    return file
  }
}
