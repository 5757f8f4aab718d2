/** Pagefind over a folder of HTML pages (the reference: Hugo's plain output). */
import * as pagefind from 'pagefind'

const { index } = await pagefind.createIndex({})
await index!.addDirectory({ path: process.argv[2]! })
await index!.writeFiles({ outputPath: `${process.argv[2]}/pagefind` })
await pagefind.close()
