import { writeFile } from 'node:fs/promises'
import { OPENAPI_FILE, openApiText } from './openapi-document.js'

// `npm run openapi:dump`: writes openapi.json, which the web app and the SDK generate their clients from.
const text = await openApiText()
await writeFile(OPENAPI_FILE, text)
const served = Buffer.byteLength(JSON.stringify(JSON.parse(text)))
console.log(`wrote openapi.json: ${Buffer.byteLength(text)} bytes (${served} bytes as served at /openapi.json)`)
