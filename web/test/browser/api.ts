/** Bearer calls for a test's setup (the browser itself only ever holds the cookie). */
export async function apiCall<T = Record<string, unknown>>(
  baseUrl: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown } = {},
): Promise<{ status: number; body: T }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  })
  const text = await response.text()
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as T }
}

let counter = 0
export function uniqueEmail(label: string): string {
  counter += 1
  return `${label}.${process.pid}.${Date.now()}.${counter}@example.com`
}

export const PASSWORD = 'correct horse battery'

/** A user with a bearer session, made through the API. */
export async function apiUser(baseUrl: string, label: string): Promise<{ email: string; token: string }> {
  const email = uniqueEmail(label)
  const signup = await apiCall<{ token: string }>(baseUrl, 'POST', '/api/auth/signup', {
    body: { email, password: PASSWORD, name: label },
  })
  if (signup.status !== 201) throw new Error(`signup: ${signup.status} ${JSON.stringify(signup.body)}`)
  return { email, token: signup.body.token }
}
