/**
 * The flags node runs the API server with: `npm start` passes them (package.json), and the
 * benchmarks and the first-run test start the server with the same ones.
 *
 * A young generation of 64 MiB per semi-space instead of V8's 16. Under load, with 16, a
 * scavenge came every ~25 ms: a request waiting that long (for a pooled connection, Redis,
 * PostgreSQL) had its frames promoted to the old generation, and the rows it read afterwards
 * were kept alive by those dead old frames until the next full collection, so they were
 * copied and promoted too. The server promoted 55–120 MB/s and spent 12–16% of its time
 * collecting; with 64 the same load promotes a fraction of that (docs/decisions-operations.md, Performance).
 * The price is up to ~128 MiB more resident memory under load. Not for the CLI's import,
 * whose memory budget (256 MB) it would eat.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=64']
