/** A configuration variable that is wrong, named, with what is wrong in one line. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`)
  }
}
