import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'

// The app is served by `oeuvre serve` from web/dist; `vite` (dev) proxies the API to a running service.
// The manifest (web/dist/.vite/, a dot-directory the service never serves) tells `npm run bench -- web`
// which chunks the first load needs.
// `@oeuvre/sdk` (the evidence checks the audit pages run) is compiled from its sources, so the app needs no SDK build.
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  resolve: { alias: { '@oeuvre/sdk': `${import.meta.dirname}/../packages/sdk/src/index.ts` } },
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', sourcemap: false, manifest: true },
  server: {
    proxy: Object.fromEntries(
      ['/api', '/v1', '/oauth', '/openapi.json', '/docs'].map((prefix) => [prefix, 'http://127.0.0.1:3000']),
    ),
  },
})
