/**
 * The session ended while a page was open (it expired, or the person logged out elsewhere): the
 * app asks to sign in again in a dialog over the page instead of leaving it, so nothing typed is
 * lost. `signInAgain()` opens the dialog (once, however many requests were refused) and settles
 * when the person has signed in, or rejects with `SignedOut` when they close it.
 */
export class SignedOut extends Error {
  constructor() {
    super('You are signed out. Sign in, then send this again: what you typed is kept.')
    this.name = 'SignedOut'
  }
}

let pending: { promise: Promise<void>; resolve: () => void; reject: (error: Error) => void } | null = null
const listeners = new Set<() => void>()
const notify = () => {
  for (const listener of listeners) listener()
}

export function signInAgain(): Promise<void> {
  if (!pending) {
    let resolve!: () => void
    let reject!: (error: Error) => void
    const promise = new Promise<void>((yes, no) => {
      resolve = yes
      reject = no
    })
    pending = { promise, resolve, reject }
    notify()
  }
  return pending.promise
}

/** For the dialog: whether it is open, and how it ends. */
export const signInStore = {
  subscribe(listener: () => void): () => void {
    listeners.add(listener)
    return () => listeners.delete(listener)
  },
  open: (): boolean => pending !== null,
  signedIn(): void {
    pending?.resolve()
    pending = null
    notify()
  },
  cancelled(): void {
    pending?.reject(new SignedOut())
    pending = null
    notify()
  },
}
