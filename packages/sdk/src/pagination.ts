/** The list envelope every list operation answers. */
export interface ListEnvelope<Item> {
  data: Item[]
  pagination: { cursor: string | null; hasMore: boolean }
}

/** One page of a list, with the way to the next. Iterating it yields its items and every later page's. */
export class Page<Item> implements AsyncIterable<Item> {
  readonly data: Item[]
  readonly pagination: { cursor: string | null; hasMore: boolean }

  constructor(
    envelope: ListEnvelope<Item>,
    /** The request id of this page's answer. */
    readonly requestId: string | undefined,
    private readonly fetchPage: (cursor: string) => Promise<Page<Item>>,
  ) {
    this.data = envelope.data
    this.pagination = envelope.pagination
  }

  hasNextPage(): boolean {
    return this.pagination.hasMore && this.pagination.cursor !== null
  }

  /** The page after this one; throws when there is none (`hasNextPage()` is false). */
  nextPage(): Promise<Page<Item>> {
    if (!this.hasNextPage()) return Promise.reject(new RangeError('this is the last page'))
    return this.fetchPage(this.pagination.cursor!)
  }

  /** This page and every later one, fetched one at a time as the loop asks for them. */
  async *pages(): AsyncGenerator<Page<Item>, void, undefined> {
    yield this
    let next = this.hasNextPage() ? await this.nextPage() : undefined
    while (next) {
      yield next
      next = next.hasNextPage() ? await next.nextPage() : undefined
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    for await (const page of this.pages()) yield* page.data
  }
}

/**
 * What a list method returns: `await` it for the first page, or `for await` over it for every
 * item of every page (pages are fetched as the loop reaches them, each exactly once).
 */
export class PagePromise<Item> implements PromiseLike<Page<Item>>, AsyncIterable<Item> {
  private first: Promise<Page<Item>> | undefined

  constructor(private readonly load: () => Promise<Page<Item>>) {}

  /** The first page, requested once however often it is asked for. */
  firstPage(): Promise<Page<Item>> {
    return (this.first ??= this.load())
  }

  then<Result = Page<Item>, Failure = never>(
    onFulfilled?: ((page: Page<Item>) => Result | PromiseLike<Result>) | null,
    onRejected?: ((reason: unknown) => Failure | PromiseLike<Failure>) | null,
  ): Promise<Result | Failure> {
    return this.firstPage().then(onFulfilled, onRejected)
  }

  catch<Failure = never>(
    onRejected?: ((reason: unknown) => Failure | PromiseLike<Failure>) | null,
  ): Promise<Page<Item> | Failure> {
    return this.firstPage().catch(onRejected)
  }

  finally(onFinally?: (() => void) | null): Promise<Page<Item>> {
    return this.firstPage().finally(onFinally)
  }

  /** Every page, from the first. */
  async *pages(): AsyncGenerator<Page<Item>, void, undefined> {
    yield* (await this.firstPage()).pages()
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    yield* await this.firstPage()
  }

  /** Every item of every page, in order (up to `max`, when given). */
  async toArray(max = Number.POSITIVE_INFINITY): Promise<Item[]> {
    const items: Item[] = []
    if (max <= 0) return items
    for await (const item of this) if (items.push(item) >= max) break
    return items
  }

  get [Symbol.toStringTag](): string {
    return 'PagePromise'
  }
}
