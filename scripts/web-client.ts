import { readFile } from 'node:fs/promises'
import openapiTS, { astToString } from 'openapi-typescript'
import { format } from 'prettier'

/** Where the web app's generated API types live (checked in; `npm run web:generate` rewrites them). */
export const WEB_SCHEMA_FILE = 'web/src/api/schema.d.ts'

const HEADER = '// Generated from openapi.json by `npm run web:generate`. Do not edit.\n\n'

/** The web app's API types as generated now from the checked-in openapi.json, formatted as the tree is. */
export async function webClientTypes(): Promise<string> {
  const document = JSON.parse(await readFile('openapi.json', 'utf8')) as object
  const types = astToString(await openapiTS(document as never, { exportType: true }))
  return format(HEADER + types, { filepath: WEB_SCHEMA_FILE, semi: false, singleQuote: true, printWidth: 120 })
}
