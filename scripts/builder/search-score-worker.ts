/**
 * The scores and places of one shard of the search index (search/build/scores.ts), in a process of its
 * own, started once the shard's Pagefind process has ended: it needs a fraction of Pagefind's
 * memory, so that the build can index the next shard meanwhile (memory-plan.ts). Its arguments:
 * the pid of the build that starts it, and the shard's folder.
 */
import { stopWhenOrphaned } from './orphaned.ts'
import { writeShardScores } from '../../search/build/scores.ts'

stopWhenOrphaned(Number(process.argv[2]))
const dir = process.argv[3]
if (!dir) throw new Error('usage: search-score-worker.ts <build pid> <shard folder>')
writeShardScores(dir)
