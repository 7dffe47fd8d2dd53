import { AsyncLocalStorage } from 'node:async_hooks'
import type {
  CompiledQuery} from 'kysely';
import {
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  type TransactionSettings,
} from 'kysely'
import type { SqlBackend, SqlSession } from './sql-backend.js'

/**
 * The tenant a unit of work runs for. The driver reads it when a connection is
 * acquired, so `set_config('app.org_id', ..., true)` travels in the same round trip
 * as the first statement: with BEGIN for a transaction, or with the statement
 * itself for a single read (one implicit transaction, one round trip).
 */
export interface OrgScope {
  orgId: string
}

export const orgScope = new AsyncLocalStorage<OrgScope>()

const ORG_ID = /^org_[0-9A-HJKMNP-TV-Z]{26}$/

export function quoteLiteral(value: string): string {
  // standard_conforming_strings is on (checked at start), so only quotes need doubling.
  if (value.includes('\0')) throw new Error('NUL byte in SQL literal')
  return `'${value.replaceAll("'", "''")}'`
}

function arrayLiteral(items: readonly unknown[]): string {
  const parts = items.map((item) => {
    if (item === null || item === undefined) return 'NULL'
    if (Array.isArray(item)) throw new Error('nested arrays are not supported in inline parameters')
    return `"${String(item).replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`
  })
  return `{${parts.join(',')}}`
}

/** A parameter as an untyped literal, resolved by context exactly as an extended-protocol parameter is. */
export function inlineParameter(value: unknown): string {
  if (value === null || value === undefined) return 'NULL'
  if (typeof value === 'boolean') return value ? 'true' : 'false'
  if (typeof value === 'number' || typeof value === 'bigint') return quoteLiteral(String(value))
  if (typeof value === 'string') return quoteLiteral(value)
  if (value instanceof Date) return quoteLiteral(value.toISOString())
  if (value instanceof Uint8Array) return quoteLiteral(`\\x${Buffer.from(value).toString('hex')}`)
  if (Array.isArray(value)) return quoteLiteral(arrayLiteral(value))
  return quoteLiteral(JSON.stringify(value))
}

function setOrgStatement(orgId: string): string {
  if (!ORG_ID.test(orgId)) throw new Error('invalid org id for tenant scope')
  return `select set_config('app.org_id', ${quoteLiteral(orgId)}, true)`
}

/** A statement whose parameters can be inlined: no string literal in its text, so `$n` is always a placeholder. */
function inlinable(sql: string): boolean {
  return !sql.includes("'")
}

function inline(sql: string, parameters: readonly unknown[]): string {
  return sql.replace(/\$(\d+)/g, (_, index: string) => inlineParameter(parameters[Number(index) - 1]))
}

class ScopedConnection implements DatabaseConnection {
  private inTransaction = false
  /** BEGIN (and the tenant scope) not sent yet: they travel with the transaction's first statement. */
  private pendingBegin: string | null = null

  constructor(
    readonly session: SqlSession,
    private readonly scope: OrgScope | undefined,
  ) {}

  async begin(settings: TransactionSettings): Promise<void> {
    let begin = 'begin'
    if (settings.isolationLevel) begin += ` isolation level ${settings.isolationLevel}`
    this.pendingBegin = this.scope ? `${begin}; ${setOrgStatement(this.scope.orgId)}` : begin
    this.inTransaction = true
  }

  async end(command: 'commit' | 'rollback'): Promise<void> {
    this.inTransaction = false
    // Nothing was sent: there is no transaction to end on the server.
    if (this.pendingBegin !== null) {
      this.pendingBegin = null
      return
    }
    await this.session.simple(command)
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const { sql, parameters } = compiled
    let result
    if (this.inTransaction && this.pendingBegin !== null) {
      // The transaction's first statement: BEGIN, the tenant scope and the statement in one round trip.
      const begin = this.pendingBegin
      this.pendingBegin = null
      if (inlinable(sql)) {
        result = await this.session.simple(`${begin}; ${inline(sql, parameters)}`)
      } else {
        await this.session.simple(begin)
        result = await this.session.query(sql, parameters)
      }
    } else if (this.scope && !this.inTransaction) {
      // Outside a transaction a tenant read is one round trip: set_config and the statement
      // run in the simple protocol's single implicit transaction.
      if (inlinable(sql)) {
        result = await this.session.simple(`${setOrgStatement(this.scope.orgId)}; ${inline(sql, parameters)}`)
      } else {
        await this.session.simple(`begin; ${setOrgStatement(this.scope.orgId)}`)
        try {
          result = await this.session.query(sql, parameters)
        } finally {
          await this.session.simple('commit')
        }
      }
    } else {
      result = await this.session.query(sql, parameters)
    }
    return { rows: result.rows as R[], numAffectedRows: BigInt(result.affectedRows) }
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is done with keyset batches, not cursors')
  }
}

class ScopedDriver implements Driver {
  constructor(private readonly backend: SqlBackend) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new ScopedConnection(await this.backend.acquire(), orgScope.getStore())
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    await (connection as ScopedConnection).begin(settings)
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as ScopedConnection).end('commit')
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as ScopedConnection).end('rollback')
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    ;(connection as ScopedConnection).session.release()
  }

  async destroy(): Promise<void> {
    await this.backend.end()
  }
}

export function createScopedDialect(backend: SqlBackend): Dialect {
  return {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new ScopedDriver(backend),
    createQueryCompiler: () => new PostgresQueryCompiler(),
    createIntrospector: (db: Kysely<unknown>) => new PostgresIntrospector(db),
  }
}
