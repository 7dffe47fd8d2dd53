import { InvalidArgumentError, type Command } from 'commander'
import type { Services } from '../services.js'
import { command, openServices } from './cli.common.js'

/** An operator's command: the services, the operator named by --operator (an operator's email), and the work. */
async function asOperator(
  email: string,
  work: (services: Services, operator: { userId: string; requestId: string }) => Promise<unknown>,
): Promise<void> {
  const { services, close } = await openServices()
  try {
    const user = await services.db.global
      .selectFrom('users')
      .select('id')
      .where('email', '=', email.trim().toLowerCase())
      .where('kind', '=', 'person')
      .executeTakeFirst()
    if (!user || !(await services.partners.isOperator(user.id)))
      throw new Error(`${email} is not an operator (oeuvre operators add <email>)`)
    const result = await work(services, { userId: user.id, requestId: `cli_${Date.now()}` })
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`)
  } finally {
    await close()
  }
}

const positiveInt = (value: string) => {
  const parsed = Number(value)
  if (!Number.isInteger(parsed) || parsed < 1) throw new InvalidArgumentError('a whole number of at least 1')
  return parsed
}

const operatorOption = ['--operator <email>', 'the operator acting (their email)'] as const

/** `oeuvre operators add`. */
export function registerOperatorCommands(program: Command): void {
  program
    .command('operators')
    .description('Oeuvre staff who review partners')
    .command('add')
    .description(
      'make a user an operator; with --create, an email without an account gets one and a set-password email',
    )
    .argument('<email>', 'the user’s email')
    .option('--create', 'create the account when the email has none (they set a password from the emailed link)')
    .option('--name <name>', 'the new operator’s name (with --create; the email by default)')
    .action((email: string, options: { create?: boolean; name?: string }) =>
      command(async () => {
        const { services, close } = await openServices()
        try {
          const create = options.create ? { name: options.name ?? email } : null
          const result = await services.partners.addOperator(email, create)
          process.stdout.write(operatorAdded(email, result))
        } finally {
          await close()
        }
      }),
    )
}

/** `oeuvre partners ...`: an operator's review of partners. */
export function registerPartnerCommands(program: Command): void {
  const partnersCommand = program
    .command('partners')
    .description('review partners (operators); every decision is an org event naming the operator')
  registerPartnerReads(partnersCommand)
  registerPartnerDecisions(partnersCommand)
}

function registerPartnerReads(partnersCommand: Command): void {
  partnersCommand
    .command('list')
    .description('partners, newest first')
    .requiredOption(...operatorOption)
    .option('--status <status>', 'only partners with this status')
    .option('--limit <n>', 'how many (1..100)', positiveInt)
    .action((options: { operator: string; status?: string; limit?: number }) =>
      command(() =>
        asOperator(options.operator, (services) =>
          services.partners.list({
            limit: options.limit ?? 25,
            ...(options.status ? { status: options.status as never } : {}),
          }),
        ),
      ),
    )

  partnersCommand
    .command('show')
    .argument('<partnerId>')
    .description('a partner with its application, agreement evidence, steps and review requests')
    .requiredOption(...operatorOption)
    .action((id: string, options: { operator: string }) =>
      command(() => asOperator(options.operator, (services) => services.partners.show(id))),
    )
}

function registerPartnerDecisions(partnersCommand: Command): void {
  partnersCommand
    .command('approve')
    .argument('<partnerId>')
    .description('approve the open review: the partner goes live')
    .requiredOption(...operatorOption)
    .option('--rate-limit <n>', 'platform integrators: requests per minute of their production clients', positiveInt)
    .option('--burst <n>', 'platform integrators: bucket capacity', positiveInt)
    .action((id: string, options: { operator: string; rateLimit?: number; burst?: number }) =>
      command(() =>
        asOperator(options.operator, (services, operator) =>
          services.partners.approve(operator, id, {
            ...(options.rateLimit !== undefined ? { rateLimit: options.rateLimit } : {}),
            ...(options.burst !== undefined ? { burst: options.burst } : {}),
          }),
        ),
      ),
    )

  for (const [name, description] of [
    ['request-changes', 'ask the partner for changes'],
    ['reject', 'reject the partner'],
    ['suspend', 'suspend a live partner (its production clients get no more tokens)'],
  ] as const) {
    partnersCommand
      .command(name)
      .argument('<partnerId>')
      .description(description)
      .requiredOption(...operatorOption)
      .requiredOption('--reason <text>', 'shown to the partner')
      .action((id: string, options: { operator: string; reason: string }) =>
        command(() =>
          asOperator(options.operator, (services, operator) => {
            if (name === 'request-changes') return services.partners.requestChanges(operator, id, options.reason)
            if (name === 'reject') return services.partners.reject(operator, id, options.reason)
            return services.partners.suspend(operator, id, options.reason)
          }),
        ),
      )
  }

  partnersCommand
    .command('resume')
    .argument('<partnerId>')
    .description('resume a suspended partner')
    .requiredOption(...operatorOption)
    .action((id: string, options: { operator: string }) =>
      command(() => asOperator(options.operator, (services, operator) => services.partners.resume(operator, id))),
    )
}

function operatorAdded(
  email: string,
  { userId, added, created, link }: { userId: string; added: boolean; created: boolean; link?: string },
): string {
  if (created)
    return `${email} (${userId}) is now an operator; an email with a link to set their password is on its way.\nThe link, if the email does not arrive: ${link}\n`
  return added ? `${email} (${userId}) is now an operator\n` : `${email} is an operator already\n`
}
