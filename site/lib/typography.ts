/**
 * No-break spaces where a line break would split what reads as one thing: a number and its
 * unit ("12 KB", "12 ms") and a short relation ("ε = 1", "p < 0.05"); and no space at all
 * before a percent sign, as English prose writes it ("95%", not "95 %"). Applied to the text
 * readers see (the article's prose when it is rendered, titles and descriptions where shown),
 * never to the data the API and feeds carry.
 */
const NBSP = '\u00a0'

/** As data, so that the renderer's version changes when a rule does (scripts/builder/render/options.ts). */
export const KEEP_TOGETHER = [
  // A number, a space, a percent (or per mille) sign: the space goes.
  { pattern: String.raw`(\d)[ \u00a0\u202f](?=[%‰‱](?![\p{L}\d]))`, replacement: '$1' },
  // A number, a space, a unit (one that cannot start an ordinary word: "5 s" but not "5 sets").
  {
    pattern:
      String.raw`(\d) (?=(?:°[CF]?|[kMGTµμmn]?(?:s|B|b|Hz|m|g|W|V)|min|px|pt|dB|` +
      String.raw`KB|KiB|MiB|GiB|TiB)(?![\p{L}\d]))`,
    replacement: `$1${NBSP}`,
  },
  // A relation between two short terms: both spaces around the sign.
  { pattern: String.raw`(?<=\S) ([=<>≤≥≈≠±×]) (?=\S)`, replacement: `${NBSP}$1${NBSP}` },
] as const

const RULES = KEEP_TOGETHER.map((r) => ({ re: new RegExp(r.pattern, 'gu'), replacement: r.replacement }))

export function keepTogether(text: string): string {
  let out = text
  for (const { re, replacement } of RULES) out = out.replace(re, replacement)
  return out
}
