/**
 * The service's OpenAPI document, which the developer portal and /auth.md are built from. The
 * service prints it in a process of its own (auth-service/openapi/print.ts), so that the build
 * imports nothing of the service; it starts early and runs while the articles are read.
 */
import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { ROOT } from './build-env.ts'

const PRINT = join(ROOT, 'auth-service', 'openapi', 'print.ts')

/** The document as JSON text, for `baseUrl`. A failure rejects with what the service printed. */
export function serviceOpenApi(baseUrl: string): Promise<string> {
  const printed = new Promise<string>((resolve, reject) => {
    execFile(process.execPath, [PRINT, baseUrl], { maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`The service could not print its OpenAPI document: ${stderr.trim() || err.message}`))
      else resolve(stdout)
    })
  })
  // A build that fails before it needs the document must not end on this promise's rejection.
  printed.catch(() => {})
  return printed
}
