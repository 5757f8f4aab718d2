// A score group's file (search/formats/group-file.ts writes it), read in place. Once
// unpacked it is the signature, then per word in order: the word's UTF-8 length and bytes, the
// length of the rest of its entry, how many shards list it, and per shard a list: its shard's
// position in the group's shards, how many pages, its weight unit times two plus one if it
// holds field bits, the length of its pages, then per page the difference from the page before
// times two plus one if its weight is not the unit, that weight in units if so, and its field
// bits if the list holds any. Every number is an unsigned LEB128 varint (as in WebAssembly's
// binary format, https://webassembly.github.io/spec/core/binary/values.html). Most places weigh
// the unit, and few words are in a title, so that most pages take one byte.
//
// A query term finds the words it starts without JSON to parse, and their scores are read where
// they lie, by the ranking, with no array per list: at 50,000 articles a two-letter prefix spans
// 70,000 lists of 2 million pages.

/** The format `shards.json` names for each group (its `format`); an index without it is read from its shards. */
export const GROUP_FORMAT = 4
/** The first bytes of every group file: "pfg" and the format's number. */
export const GROUP_SIGNATURE = [0x70, 0x66, 0x67, GROUP_FORMAT]

/**
 * The files of a group (as `shards.json` lists it) to fetch for its small files at positions
 * `wanted` (consecutive, as chunksOf gives them): a block where two or more of its files are
 * wanted, as one request costs the browser more than the bytes of a few small files. Block `b`
 * holds small files `b * blockFiles` onwards, as the group says.
 * @param {{ files: string[], blocks?: string[], blockFiles?: number }} group
 * @param {number[]} wanted
 */
export function filesFor({ files, blocks, blockFiles = 1 }, wanted) {
  const out = []
  for (let i = 0; i < wanted.length; ) {
    const block = Math.floor(wanted[i] / blockFiles)
    let end = i
    while (end < wanted.length && Math.floor(wanted[end] / blockFiles) === block) end++
    if (end - i >= 2 && blocks?.[block]) out.push(blocks[block])
    else for (let k = i; k < end; k++) out.push(files[wanted[k]])
    i = end
  }
  return out
}

const encoder = new TextEncoder()
const decoder = new TextDecoder()
// Where a file is read next (varint): one variable rather than a cursor object per number.
let at = 0

/**
 * A shard's list of a word, where it lies in its file: `count` pages from byte `at`, weights in
 * `unit`s, and field bits if `fields`.
 * @typedef {{ bytes: Uint8Array, at: number, count: number, unit: number, fields: boolean }} PackedList
 */

/**
 * Calls `take(word, shard, list)` for each word of the file `bytes` that starts with `stem`, once per
 * shard listing it: `shard` its position in the group's shards, `list` its scores, for unpackList.
 * `list` is one object, changed for each call: read it during the call, do not keep it.
 * @param {Uint8Array} bytes
 * @param {string} stem
 * @param {(word: string, shard: number, list: PackedList) => void} take
 */
export function readGroupWords(bytes, stem, take) {
  if (!GROUP_SIGNATURE.every((b, i) => bytes[i] === b)) throw new Error('not a search score group file')
  const want = encoder.encode(stem)
  const list = { bytes, at: 0, count: 0, unit: 0, fields: false }
  at = GROUP_SIGNATURE.length
  // The words are in order: those starting with the stem are one run.
  let seen = false
  while (at < bytes.length) {
    const length = varint(bytes)
    const start = at
    at += length
    const end = varint(bytes) + at
    // A varint read past the end reads as 0: the entry's end tells a file cut short.
    if (end > bytes.length) throw new Error('search score group file cut short')
    if (!startsWith(bytes, start, length, want)) {
      if (seen) return
      at = end
      continue
    }
    seen = true
    const word = decoder.decode(bytes.subarray(start, start + length))
    for (let lists = varint(bytes); lists > 0; lists--) {
      const shard = varint(bytes)
      const count = varint(bytes)
      const mode = varint(bytes)
      const next = varint(bytes) + at
      // Every page takes a byte at least.
      if (next > end || count > next - at) throw new Error('search score group file: a list runs past its entry')
      list.at = at
      list.count = count
      list.unit = Math.floor(mode / 2)
      list.fields = mode % 2 === 1
      // `take` may read the list (unpackList), which moves the shared position.
      take(word, shard, list)
      at = next
    }
    if (at !== end) throw new Error('search score group file: an entry is not the length it says')
  }
}

function startsWith(bytes, start, length, want) {
  if (length < want.length) return false
  for (let i = 0; i < want.length; i++) if (bytes[start + i] !== want[i]) return false
  return true
}

/**
 * @typedef {{ pages: Int32Array, weights: Float64Array, fields: Int32Array }} PageArrays
 */

/**
 * A list's pages as arrays, for reading a list whole (the ranking reads them in its own loop,
 * sumPacked in search-rank.js; the browser test checks its results against the score files').
 * Reads a list readGroupWords found into `into` (`{ pages, weights, fields }`, typed arrays, grown
 * when too short): per page its number (the differences summed), weight and field bits. Returns
 * how many pages.
 * @param {PackedList} list
 * @param {PageArrays} into
 */
export function unpackList(list, into) {
  const { bytes, count, unit } = list
  if (into.pages.length < count) grow(into, count)
  const { pages, weights, fields } = into
  at = list.at
  let page = 0
  for (let i = 0; i < count; i++) {
    const step = varint(bytes)
    pages[i] = page += Math.floor(step / 2)
    weights[i] = step % 2 === 1 ? varint(bytes) * unit : unit
    fields[i] = list.fields ? varint(bytes) : 0
  }
  return count
}

/** Moves where varint reads next to `to`: the ranking reads a list's pages itself (search-rank.js, sumPacked). */
export function seek(to) {
  at = to
}

/** The unsigned LEB128 varint at `at`, which moves past it (0 past the end of `bytes`). */
export function varint(bytes) {
  let byte = bytes[at++]
  if (byte < 0x80) return byte
  if (byte === undefined) return 0
  let value = byte & 0x7f
  let scale = 0x80
  do {
    byte = bytes[at++]
    value += (byte & 0x7f) * scale
    scale *= 0x80
  } while (byte & 0x80)
  return value
}

/** Room for `count` pages in `into`'s arrays. */
export function grow(into, count) {
  const size = Math.max(count, into.pages.length * 2, 1024)
  into.pages = new Int32Array(size)
  into.weights = new Float64Array(size)
  into.fields = new Int32Array(size)
}
