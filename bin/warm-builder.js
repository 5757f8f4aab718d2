// The warm builder `npm start` keeps beside its server: warm-builder.ts, with the compile cache on before it loads.
import './compile-cache.js'

await import('./warm-builder.ts')
