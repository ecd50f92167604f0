/**
 * Run in a plugin's isolate before its bundle: the few web globals plain V8 lacks that effect and
 * ordinary plugin code expect, each computing only. Nothing here reaches the host. There are no
 * timers: `setTimeout(fn, 0)` (effect's scheduler yielding) runs `fn` as a microtask, and any
 * other delay is refused; console output is dropped. URL exists so `instanceof URL` checks work,
 * and parses nothing.
 */
export const isolatePrelude = `
(() => {
  const define = (name, value) => Object.defineProperty(globalThis, name, { value, writable: true, configurable: true })
  define("setTimeout", (fn, delay = 0, ...args) => {
    if (delay > 0) throw new Error("timers are not available to a plugin: ask the schedule capability instead")
    Promise.resolve().then(() => fn(...args))
    return 0
  })
  define("clearTimeout", () => undefined)
  define("queueMicrotask", (fn) => { Promise.resolve().then(fn) })
  const quiet = () => undefined
  define("console", Object.freeze({ log: quiet, info: quiet, debug: quiet, warn: quiet, error: quiet, trace: quiet }))
  define("URL", class URL { constructor() { throw new Error("URL is not available to a plugin") } })
  define("TextEncoder", class TextEncoder {
    get encoding() { return "utf-8" }
    encode(text = "") {
      const bytes = []
      for (const char of String(text)) {
        const c = char.codePointAt(0)
        if (c < 0x80) bytes.push(c)
        else if (c < 0x800) bytes.push(0xc0 | (c >> 6), 0x80 | (c & 63))
        else if (c < 0x10000) bytes.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63))
        else bytes.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63))
      }
      return new Uint8Array(bytes)
    }
  })
  define("TextDecoder", class TextDecoder {
    get encoding() { return "utf-8" }
    decode(input) {
      if (input === undefined) return ""
      const bytes = input instanceof Uint8Array ? input : new Uint8Array(input.buffer ?? input)
      let out = ""
      for (let i = 0; i < bytes.length;) {
        const b = bytes[i]
        const n = b < 0x80 ? 1 : b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1
        let c = n === 1 ? (b < 0x80 ? b : 0xfffd) : b & (0xff >> (n + 1))
        for (let k = 1; k < n; k++) c = (c << 6) | ((bytes[i + k] ?? 0) & 63)
        out += String.fromCodePoint(c > 0x10ffff ? 0xfffd : c)
        i += n
      }
      return out
    }
  })
})()
`
