/**
 * The developer portal's script: live search, API key creation and revocation, try-it forms,
 * samples that carry the key, copy buttons, sample tabs and opening a linked schema.
 * Progressive: the reference reads without it. Bundled by the site build from these modules, one per concern.
 */
import { setUpCopyButtons } from './copy.ts'
import { setUpKeyPanel } from './key-panel.ts'
import { setUpKeySlots } from './key-slots.ts'
import { setUpOpenTarget } from './open-target.ts'
import { setUpSearch } from './search.ts'
import { setUpTabs } from './tabs.ts'
import { setUpTryIt } from './try-it.ts'

setUpSearch()
setUpKeySlots()
setUpKeyPanel()
setUpTryIt()
setUpCopyButtons()
setUpTabs()
setUpOpenTarget()
