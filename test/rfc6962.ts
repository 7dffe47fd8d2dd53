import { createHash } from 'node:crypto'

// An RFC 6962 / RFC 9162 verifier written from the RFC, sharing no code with the service.
export const sha256 = (...parts: Buffer[]): Buffer => createHash('sha256').update(Buffer.concat(parts)).digest()
export const node = (left: Buffer, right: Buffer): Buffer => sha256(Buffer.from([1]), left, right)
export const hex = (value: string): Buffer => Buffer.from(value, 'hex')
/** RFC 6962's leaf hash of an entry's bytes. */
export const leafOf = (entry: Buffer): Buffer => sha256(Buffer.from([0]), entry)

export function rfcVerifyInclusion(
  leafIndex: number,
  treeSize: number,
  leaf: Buffer,
  path: string[],
  root: Buffer,
): boolean {
  if (leafIndex >= treeSize) return false
  let fn = leafIndex
  let sn = treeSize - 1
  let r = leaf
  for (const p of path.map(hex)) {
    if (sn === 0) return false
    if (fn % 2 === 1 || fn === sn) {
      r = node(p, r)
      while (fn % 2 === 0 && fn !== 0) {
        fn = Math.floor(fn / 2)
        sn = Math.floor(sn / 2)
      }
    } else {
      r = node(r, p)
    }
    fn = Math.floor(fn / 2)
    sn = Math.floor(sn / 2)
  }
  return sn === 0 && r.equals(root)
}
