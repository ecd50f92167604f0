/**
 * The byte encodings of the wire: base64url without padding for keys, signatures and ciphertext
 * (RFC 4648 §5), UTF-8 for text. Strict on decode: a padded or otherwise malformed string is
 * refused rather than guessed at, so one document has one spelling.
 */
import { base64urlnopad } from "@scure/base"

/** Node's own encoder writes the same unpadded RFC 4648 §5 text, natively. */
export const toBase64Url = (bytes: Uint8Array): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64url")

/** The bytes of a base64url string, or null when it is not one. */
export const fromBase64Url = (text: string): Uint8Array | null => {
  try {
    return base64urlnopad.decode(text)
  } catch {
    return null
  }
}

const encoder = new TextEncoder()
const decoder = new TextDecoder("utf-8", { fatal: true })

export const utf8 = (text: string): Uint8Array => encoder.encode(text)

/** The text of UTF-8 bytes, or null when they are not valid UTF-8. */
export const fromUtf8 = (bytes: Uint8Array): string | null => {
  try {
    return decoder.decode(bytes)
  } catch {
    return null
  }
}
