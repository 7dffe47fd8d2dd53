export interface CatalogTables {
  catalog_entries: {
    org_id: string
    id: string
    kind: 'work' | 'recording' | 'release'
    title: string
    version_title: string | null
    display_artist: string | null
    isrc: string | null
    iswc: string | null
    upc: string | null
    /** YYYY-MM-DD */
    release_date: string | null
    territories: string[]
    work_id: string | null
    supersedes: string | null
    superseded_by: string | null
    created_at: Date
    created_by: string
  }
  catalog_splits: {
    org_id: string
    catalog_id: string
    position: number
    creator_id: string
    role: string
    share_bps: number
  }
}
