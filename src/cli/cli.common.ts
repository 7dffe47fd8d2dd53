import { ConfigError, loadConfig, type Config } from '../config.js'
import type { Services } from '../services.js'

// What every command shares. Heavy modules load inside the functions that use them: a one-shot
// command does not pay for the HTTP stack, Redis or every service at start-up.

/** The configuration, or its error on one line and exit 1. */
export function config(): Config {
  try {
    return loadConfig()
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`configuration error: ${error.message}\n`)
      process.exit(1)
    }
    throw error
  }
}

/** The services a one-shot command needs (the audit log with its listeners, so webhooks see the events). */
export async function openServices(): Promise<{ services: Services; close(): Promise<void> }> {
  const cfg = config()
  const [{ systemClock }, { openRuntime }, { createServices }, { loadServiceKeys }, { createLogger }] =
    await Promise.all([
      import('../platform/clock.js'),
      import('../runtime.js'),
      import('../services.js'),
      import('../service-keys.js'),
      import('../platform/logger.js'),
    ])
  const { db, limiter } = await openRuntime(cfg, systemClock, createLogger(cfg, 2))
  const services = createServices({ config: cfg, db, clock: systemClock, limiter, ...(await loadServiceKeys(cfg)) })
  return {
    services,
    close: async () => {
      await db.close()
      await limiter.close()
    },
  }
}

/** Runs a command, printing an AppError's detail (not a stack) and exiting 1. */
export async function command(work: () => Promise<void>): Promise<void> {
  try {
    await work()
  } catch (error) {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exitCode = 1
  }
}

export const progressLine = (text: string) => {
  if (process.stderr.isTTY) process.stderr.write(`\r\x1b[2K${text}`)
}
