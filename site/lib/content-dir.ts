import { resolve } from 'node:path'

/** Where the articles live: `CONTENT_DIR` (default ./content), one `<slug>.md` per article. */
export const CONTENT_DIR = resolve(process.env.CONTENT_DIR ?? 'content')
