/**
 * Waits for something that happens on its own (a notification, a socket, another connection's
 * commit), polling every `everyMs`, and fails naming `what` after `timeoutMs`: never a fixed
 * sleep that a loaded machine can outlast.
 */
export async function eventually(
  condition: () => Promise<boolean> | boolean,
  what: string,
  options: { everyMs?: number; timeoutMs?: number } = {},
): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 30_000)
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, options.everyMs ?? 10))
  }
}
