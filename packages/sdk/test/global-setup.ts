import { buildIsStale, buildSdk } from '../scripts/build.js'

/**
 * The SDK's tests (and the example's) import the built package, as integrators do: build it
 * first when dist/ is missing or older than a source file.
 */
export default async function setup(): Promise<void> {
  if (await buildIsStale()) await buildSdk()
}
