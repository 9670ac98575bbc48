/**
 * Esplora's `scriptpubkey_asm` / `scriptsig_asm` text of a script (`OP_0 OP_PUSHBYTES_20 ab…`).
 */
import { hex } from '@scure/base'

const NAMES: Record<number, string> = {
  97: 'OP_NOP',
  99: 'OP_IF',
  100: 'OP_NOTIF',
  103: 'OP_ELSE',
  104: 'OP_ENDIF',
  105: 'OP_VERIFY',
  106: 'OP_RETURN',
  117: 'OP_DROP',
  118: 'OP_DUP',
  135: 'OP_EQUAL',
  136: 'OP_EQUALVERIFY',
  168: 'OP_SHA256',
  169: 'OP_HASH160',
  170: 'OP_HASH256',
  171: 'OP_CODESEPARATOR',
  172: 'OP_CHECKSIG',
  173: 'OP_CHECKSIGVERIFY',
  174: 'OP_CHECKMULTISIG',
  175: 'OP_CHECKMULTISIGVERIFY',
  177: 'OP_CLTV',
  178: 'OP_CSV',
  186: 'OP_CHECKSIGADD',
}

/**
 * The asm text of `script` in Esplora's notation; a truncated push ends it with `<push past end>`.
 *
 * @example
 * scriptAsm(hex.decode('0014' + '00'.repeat(20))) // 'OP_0 OP_PUSHBYTES_20 0000…'
 */
export function scriptAsm(script: Uint8Array): string {
  const out: string[] = []
  let i = 0
  while (i < script.length) {
    const op = script[i++]!
    let size = -1
    let name: string
    if (op === 0) name = 'OP_0'
    else if (op <= 0x4b) [name, size] = [`OP_PUSHBYTES_${op}`, op]
    else if (op <= 0x4e) {
      const width = op === 0x4c ? 1 : op === 0x4d ? 2 : 4
      size = 0
      for (let b = 0; b < width; b++) size += (script[i + b] ?? 0) * 256 ** b
      i += width
      name = `OP_PUSHDATA${width === 1 ? 1 : width === 2 ? 2 : 4}`
    } else if (op === 0x4f) name = 'OP_PUSHNUM_NEG1'
    else if (op >= 0x51 && op <= 0x60) name = `OP_PUSHNUM_${op - 0x50}`
    else name = NAMES[op] ?? `OP_UNKNOWN_0x${op.toString(16).padStart(2, '0')}`
    out.push(name)
    if (size >= 0) {
      if (i + size > script.length) {
        out.push('<push past end>')
        break
      }
      out.push(hex.encode(script.subarray(i, i + size)))
      i += size
    }
  }
  return out.join(' ')
}
