/**
 * RFC 8785 JSON Canonicalization Scheme: the one spelling of a JSON value that is signed and
 * digested (sorted keys by UTF-16 code units, ECMAScript number form, no whitespace). The
 * `canonicalize` package is the scheme's reference implementation for JavaScript.
 */
import canonicalize from "canonicalize"

/** The canonical text of a JSON value; throws on what JSON cannot hold (undefined, a function). */
export const canonical = (value: unknown): string => {
  const text = canonicalize(value)
  if (text === undefined) throw new TypeError("This value has no JSON form")
  return text
}
