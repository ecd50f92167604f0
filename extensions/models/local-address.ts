/**
 * Whether a model server's base URL points at this host or its own network, read from the address
 * alone (no DNS lookup, so the answer cannot change under the node's feet). Local means prompts
 * stay off the internet: loopback, private and link-local ranges, `localhost`, names under the
 * `.localhost`, `.local`, `.internal`, `.lan` and `.home.arpa` domains, and single-label names
 * (a container or LAN host such as `ollama`). `LLM_LOCAL` / `LLM_<TIER>_LOCAL` correct the reading
 * when the address misleads (a loopback proxy to a remote provider is not local).
 */
import { isIPv4, isIPv6 } from "node:net"

const localSuffixes = [".localhost", ".local", ".internal", ".lan", ".home.arpa"]

const localIPv4 = (address: string): boolean => {
  const [a, b] = address.split(".").map(Number)
  return (
    a === 127 || // loopback
    a === 10 ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 169 && b === 254) || // link-local
    (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT, as VPN meshes use
    a === 0
  )
}

const localIPv6 = (address: string): boolean => {
  const lower = address.toLowerCase()
  if (lower === "::1" || lower === "::") return true
  // An IPv4 address mapped into IPv6; URL parsing writes it in hex (::ffff:7f00:1).
  const mappedHex = lower.match(/^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/)
  if (mappedHex !== null) {
    const [high, low] = [parseInt(mappedHex[1], 16), parseInt(mappedHex[2], 16)]
    return localIPv4(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`)
  }
  // fc00::/7 unique local, fe80::/10 link-local.
  return /^f[cd][0-9a-f]{0,2}:/.test(lower) || /^fe[89ab][0-9a-f]?:/.test(lower)
}

export const isLocalBaseUrl = (baseUrl: string): boolean => {
  let host: string
  try {
    host = new URL(baseUrl).hostname.toLowerCase()
  } catch {
    return false
  }
  const bare = host.startsWith("[") ? host.slice(1, -1) : host
  if (isIPv4(bare)) return localIPv4(bare)
  if (isIPv6(bare)) return localIPv6(bare)
  return bare === "localhost" || !bare.includes(".") || localSuffixes.some((suffix) => bare.endsWith(suffix))
}
