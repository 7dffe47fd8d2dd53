/** Email: the outbox (written with the write that causes each email), templates, the sending worker. */
export { createEmailModule, type EmailModule } from './email.module.js'
export { registerEmailRoutes } from './email.routes.js'
export type { EmailOutbox, NewEmail } from './email.outbox.js'
export { EMAIL_KINDS, EMAIL_KIND_SPECS, sampleVariables, type EmailKind } from './email.kinds.js'
export { EmailCounts } from './email.worker.js'
export { createEmailSender, type EmailSender } from './email.sender.js'
export { loadEmailTemplates, TemplateError, type EmailTemplates } from './email.templates.js'
