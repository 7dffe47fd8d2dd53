import { execFileSync } from 'node:child_process'

/** The journeys drive the built app: build it when missing or out of date, as `npm start` does. */
export default function setup(): void {
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/web-build.ts', '--if-stale'], { stdio: 'inherit' })
}
