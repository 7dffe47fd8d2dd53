/**
 * `npm run bench`: the benchmark scenarios of the Performance issue register here.
 * None is implemented yet; this says so rather than printing figures it did not measure.
 */
const scenarios: Record<string, () => Promise<void>> = {}

const wanted = process.argv.slice(2)
const names = wanted.length ? wanted : Object.keys(scenarios)
if (names.length === 0) {
  process.stderr.write('No benchmark scenarios are implemented yet (see the Performance issue).\n')
  process.exit(1)
}
for (const name of names) {
  const scenario = scenarios[name]
  if (!scenario) {
    process.stderr.write(`unknown scenario ${name}; known: ${Object.keys(scenarios).join(', ')}\n`)
    process.exit(1)
  }
  await scenario()
}
