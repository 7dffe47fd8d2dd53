/** `compute` once per key, the last `kept` keys remembered (then the oldest goes); a throw caches nothing. */
export function memo<T>(compute: (key: string) => T, kept = 1024): (key: string) => T {
  const values = new Map<string, T>()
  return (key) => {
    let value = values.get(key)
    if (value === undefined) {
      value = compute(key)
      if (values.size >= kept) values.delete(values.keys().next().value!)
      values.set(key, value)
    }
    return value
  }
}
