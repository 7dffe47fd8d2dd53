import { buildApp } from '../src/app.js'
import { loadConfig } from '../src/config.js'
import { openDatabase, type Database } from '../src/database.js'

/** Where the document is kept for the web app's and the SDK's generators. */
export const OPENAPI_FILE = new URL('../openapi.json', import.meta.url)

/**
 * The text of `openapi.json`: the document the service serves at /openapi.json with its default
 * configuration (PUBLIC_URL http://127.0.0.1:3000). It comes from the route schemas alone; the
 * database (by default an embedded one in memory, not migrated) is only opened for the app to start.
 */
export async function openApiText(given?: Database): Promise<string> {
  const db = given ?? (await openDatabase({ databaseUrl: null, dataDir: 'memory://', migrate: false }))
  try {
    const config = loadConfig({ LOG_LEVEL: 'silent', SEED_DEMO: 'false' })
    const { app } = await buildApp({ config, db, logger: false })
    await app.ready()
    try {
      return `${JSON.stringify(app.swagger(), null, 2)}\n`
    } finally {
      await app.close()
    }
  } finally {
    if (!given) await db.close()
  }
}
