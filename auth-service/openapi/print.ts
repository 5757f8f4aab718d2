/**
 * Prints the OpenAPI document for the origin given as the argument. The build runs this in a
 * process of its own (scripts/builder/openapi.ts), as it runs Astro: it imports nothing of the
 * service, and the document stays the service's own.
 */
import { buildOpenApiDocument } from './document.ts'

const baseUrl = process.argv[2]
if (!baseUrl) {
  console.error('usage: node auth-service/openapi/print.ts <origin, e.g. https://research.example.org>')
  process.exit(2)
}
process.stdout.write(JSON.stringify(buildOpenApiDocument(baseUrl)))
