// `npm run dev`: bin/dev.ts, with the compile cache on before it loads (compile-cache.js says why).
import './compile-cache.js'

await import('./dev.ts')
