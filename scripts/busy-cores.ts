/**
 * Runs a command beside processes that keep every core busy, as a laptop doing other work does:
 * `npm run test:busy` runs the whole suite that way (`-- <command>` runs another).
 *
 *   tsx scripts/busy-cores.ts [--cores N] -- <command> [args...]
 *
 * Each busy process spins at the same priority as the command until the command ends; the exit
 * code is the command's.
 */
import { fork, spawn, type ChildProcess } from 'node:child_process'
import os from 'node:os'

if (process.argv[2] === '--spin') {
  for (;;) Math.sqrt(Math.random())
}

const args = process.argv.slice(2)
const separator = args.indexOf('--')
const options = separator === -1 ? args : args.slice(0, separator)
const command = separator === -1 ? ['npm', 'test'] : args.slice(separator + 1)
const coresAt = options.indexOf('--cores')
const cores = coresAt === -1 ? os.availableParallelism() : Number(options[coresAt + 1])
if (!Number.isInteger(cores) || cores < 1) {
  process.stderr.write('--cores takes a whole number of at least 1\n')
  process.exit(2)
}

const spinners: ChildProcess[] = Array.from({ length: cores }, () =>
  fork(new URL(import.meta.url).pathname, ['--spin'], { stdio: 'ignore', execArgv: ['--import', 'tsx'] }),
)
const stopSpinners = () => {
  for (const spinner of spinners) spinner.kill('SIGKILL')
}
process.on('exit', stopSpinners)
process.stderr.write(`busy-cores: ${cores} spinning processes beside: ${command.join(' ')}\n`)
const child = spawn(command[0]!, command.slice(1), { stdio: 'inherit' })
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal))
child.on('exit', (code, signal) => {
  stopSpinners()
  process.exit(code ?? (signal ? 1 : 0))
})
