import { verifyWebhook, type Oeuvre, type WebhookHeaders } from '@oeuvre/sdk'
import { applyEvent, saveMirror, type MirrorState } from './mirror.js'

/** The org events this integration mirrors. */
export const MIRRORED_ACTIONS = ['catalog.created', 'catalog.superseded', 'revenue.created']

/**
 * Keeps a mirror current two ways: the feed (the source of truth, resumed from the stored
 * cursor, never skipping or repeating) and webhooks (real time, verified, at least once).
 */
export class PartnerSync {
  constructor(
    private readonly oeuvre: Oeuvre,
    readonly state: MirrorState,
    private readonly file: string,
  ) {}

  /** Reads the feed from the stored cursor to its end; answers how many events it applied. */
  async catchUp(signal?: AbortSignal): Promise<number> {
    let applied = 0
    for await (const event of this.oeuvre.events.poll(this.state.orgId, {
      cursor: this.state.cursor,
      limit: 100,
      stopWhenIdle: true,
      ...(signal ? { signal } : {}),
      // The page's events are applied by now: store them and the cursor together.
      onCursor: async (cursor) => {
        this.state.cursor = cursor
        await saveMirror(this.file, this.state)
      },
    }))
      if (applyEvent(this.state, event)) applied += 1
    return applied
  }

  /** Registers the webhook endpoint once (kept in the mirror file with its secret). */
  async ensureWebhook(url: string): Promise<void> {
    if (this.state.webhook?.url === url) return
    const endpoint = await this.oeuvre.webhooks.create(
      this.state.orgId,
      { url, events: MIRRORED_ACTIONS },
      { idempotencyKey: `partner-sync:${this.state.orgId}:${url}` },
    )
    // A replayed create (a retry, or an earlier run with this key) answers without the secret,
    // which is shown once: a rotation issues a new one. For the rotation's overlap (24 h) the
    // service still signs X-Service-Signature with the lost one, so those deliveries are refused
    // and the feed, read every POLL_SECONDS, brings their events instead.
    const secret =
      endpoint.signingSecret ?? (await this.oeuvre.webhooks.rotateSecret(this.state.orgId, endpoint.id)).signingSecret
    if (!secret) throw new Error(`no signing secret for ${endpoint.id}`)
    this.state.webhook = { id: endpoint.id, secret, url }
    await saveMirror(this.file, this.state)
  }

  /** A delivery as received: verified (throws if it does not), then applied. */
  async receive(rawBody: Uint8Array, headers: WebhookHeaders): Promise<void> {
    if (!this.state.webhook) throw new Error('no webhook endpoint registered')
    const delivery = await verifyWebhook(rawBody, headers, this.state.webhook.secret)
    if (delivery.orgId !== this.state.orgId) return
    if (applyEvent(this.state, delivery.data.event)) await saveMirror(this.file, this.state)
  }
}
