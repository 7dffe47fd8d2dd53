import { writeFile } from 'node:fs/promises'
import { WEB_SCHEMA_FILE, webClientTypes } from './web-client.js'

// `npm run web:generate`: the web app's typed client follows openapi.json (test/web-client.test.ts fails while stale).
const types = await webClientTypes()
await writeFile(WEB_SCHEMA_FILE, types)
console.log(`wrote ${WEB_SCHEMA_FILE}: ${Buffer.byteLength(types)} bytes`)
