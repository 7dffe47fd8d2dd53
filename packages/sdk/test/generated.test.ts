import { readdir, readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import {
  DOCUMENT_FILE,
  GENERATED_DIR,
  generateSdkSources,
  methodSpecs,
  partnerDocument,
  resourcesSource,
} from '../scripts/generate.js'

const documentText = () => readFile(DOCUMENT_FILE, 'utf8')

describe('the generated sources', () => {
  it('are what `npm run sdk:generate` makes of the checked-in openapi.json', async () => {
    const files = await generateSdkSources(await documentText())
    expect((await readdir(GENERATED_DIR)).sort()).toEqual(files.map((file) => file.name).sort())
    for (const file of files)
      expect(
        await readFile(new URL(file.name, GENERATED_DIR), 'utf8'),
        `${file.name} is stale: run npm run sdk:generate`,
      ).toBe(file.text)
  })

  it('keep the partner surface only: /v1 and the token endpoint, with the components they reach', async () => {
    const document = partnerDocument(JSON.parse(await documentText()))
    expect(Object.keys(document.paths).every((path) => path.startsWith('/v1/') || path === '/oauth/token')).toBe(true)
    const schemas = Object.keys(document.components.schemas ?? {})
    expect(schemas).toEqual(expect.arrayContaining(['OrgEvent', 'Seal', 'InclusionProof', 'Problem', 'AccessToken']))
    expect(schemas).not.toContain('Session')
  })

  it('follow a new /v1 operation into a method, and refuse one without its SDK name', async () => {
    const document = JSON.parse(await documentText())
    document.paths['/v1/orgs/{orgId}/catalog/{id}/archive'] = {
      post: {
        operationId: 'v1ArchiveCatalogEntry',
        summary: 'Archive a catalog entry',
        parameters: [
          { in: 'path', name: 'orgId', required: true, schema: { type: 'string' } },
          { in: 'path', name: 'id', required: true, schema: { type: 'string' } },
        ],
        responses: {
          200: { content: { 'application/json': { schema: { $ref: '#/components/schemas/CatalogEntry' } } } },
        },
        security: [{ oauth: ['catalog:write'] }],
        'x-oeuvre-resource': 'catalog',
        'x-oeuvre-method': 'archive',
      },
    }
    const partner = partnerDocument(document)
    const specs = methodSpecs(partner)
    expect(specs).toContainEqual(
      expect.objectContaining({
        resource: 'catalog',
        method: 'archive',
        httpMethod: 'POST',
        pathParams: ['orgId', 'id'],
        input: 'none',
        paginated: false,
        auth: true,
        scope: 'catalog:write',
      }),
    )
    expect(resourcesSource(partner, specs)).toMatch(
      /archive\(orgId: string, id: string, options\?: RequestOptions\): Promise<ResultOf<["']v1ArchiveCatalogEntry["']>>/,
    )
    delete document.paths['/v1/orgs/{orgId}/catalog/{id}/archive'].post['x-oeuvre-method']
    expect(() => methodSpecs(partnerDocument(document))).toThrow(/x-oeuvre-method/)
  })
})
