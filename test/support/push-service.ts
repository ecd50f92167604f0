/**
 * A push service of the tests' own (RFC 8030), on loopback: a real HTTP server that takes a node's messages, checks
 * each one's VAPID JWT (RFC 8292: ES256 over the key `GET /api/push/key` answers, the audience its own origin) and
 * decrypts it (RFC 8291, `aes128gcm` of RFC 8188) with the private key of the subscription it made, written here with
 * node:crypto alone, apart from the node's library. Each endpoint answers 201 unless a test scripts other answers.
 */
import { createECDH, createHmac, createDecipheriv, createPublicKey, randomBytes, verify } from "node:crypto"
import { createServer, type IncomingMessage, type Server } from "node:http"
import type { AddressInfo } from "node:net"

/** A subscription as a browser would make it, with the private half the browser keeps. */
export interface DeviceSubscription {
  readonly name: string
  readonly endpoint: string
  readonly keys: { readonly p256dh: string; readonly auth: string }
  readonly privateKey: Buffer
  readonly publicKey: Buffer
  readonly authSecret: Buffer
}

export interface PushedMessage {
  readonly device: string
  readonly at: number
  readonly headers: Readonly<Record<string, string>>
  /** The decrypted JSON payload. */
  readonly payload: Record<string, unknown>
  readonly claims: { readonly aud: string; readonly exp: number; readonly sub: string }
  /** What the service answered. */
  readonly status: number
}

interface Scripted {
  readonly status: number
  readonly headers?: Readonly<Record<string, string>>
}

const hmac = (key: Buffer, data: Buffer) => createHmac("sha256", key).update(data).digest()

/** RFC 8291 section 3.4 and RFC 8188: the plaintext of one `aes128gcm` body for the subscription. */
export const decryptMessage = (device: DeviceSubscription, body: Buffer): string => {
  const salt = body.subarray(0, 16)
  const recordSize = body.readUInt32BE(16)
  const idLength = body[20]!
  const senderKey = body.subarray(21, 21 + idLength)
  const record = body.subarray(21 + idLength)
  if (record.length > recordSize) throw new Error("one record only is expected")
  const ecdh = createECDH("prime256v1")
  ecdh.setPrivateKey(device.privateKey)
  const shared = ecdh.computeSecret(senderKey)
  const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), device.publicKey, senderKey])
  const ikm = hmac(hmac(device.authSecret, shared), Buffer.concat([keyInfo, Buffer.from([1])]))
  const prk = hmac(salt, ikm)
  const cek = hmac(prk, Buffer.from("Content-Encoding: aes128gcm\0\x01", "latin1")).subarray(0, 16)
  const nonce = hmac(prk, Buffer.from("Content-Encoding: nonce\0\x01", "latin1")).subarray(0, 12)
  const decipher = createDecipheriv("aes-128-gcm", cek, nonce)
  decipher.setAuthTag(record.subarray(record.length - 16))
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()])
  let end = padded.length - 1
  while (end >= 0 && padded[end] === 0) end -= 1
  if (padded[end] !== 2) throw new Error("the last record's delimiter is missing")
  return padded.subarray(0, end).toString("utf8")
}

/** RFC 8292: `vapid t=<JWT>, k=<key>`, the JWT's ES256 signature checked against `publicKey` (base64url point). */
export const verifyVapid = (authorization: string, publicKey: string, audience: string) => {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization)
  if (match === null) throw new Error(`not a vapid Authorization: ${authorization.slice(0, 40)}`)
  const [, token, key] = match
  if (key !== publicKey) throw new Error("the k= key is not the node's")
  const [header, claims, signature] = token!.split(".")
  const point = Buffer.from(publicKey, "base64url")
  const jwk = {
    kty: "EC",
    crv: "P-256",
    x: point.subarray(1, 33).toString("base64url"),
    y: point.subarray(33, 65).toString("base64url")
  }
  const valid = verify(
    "sha256",
    Buffer.from(`${header}.${claims}`),
    { key: createPublicKey({ key: jwk, format: "jwk" }), dsaEncoding: "ieee-p1363" },
    Buffer.from(signature!, "base64url")
  )
  if (!valid) throw new Error("the VAPID JWT's signature does not verify")
  if (JSON.parse(Buffer.from(header!, "base64url").toString()).alg !== "ES256") throw new Error("not ES256")
  const parsed = JSON.parse(Buffer.from(claims!, "base64url").toString()) as PushedMessage["claims"]
  if (parsed.aud !== audience) throw new Error(`the JWT's audience is ${parsed.aud}, not ${audience}`)
  const now = Date.now() / 1000
  if (!(parsed.exp > now && parsed.exp <= now + 24 * 3600 + 60)) throw new Error("the JWT's exp is out of range")
  return parsed
}

const readBody = (request: IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => resolve(Buffer.concat(chunks)))
    request.on("error", reject)
  })

export interface PushService {
  readonly url: string
  /** The node's public key the JWTs are checked against (set before the first message). */
  nodeKey: string
  readonly messages: Array<PushedMessage>
  /** Messages that failed a check, with why. */
  readonly faults: Array<string>
  readonly subscribe: (name: string) => DeviceSubscription
  /** The next answers of one device's endpoint, in order; 201 after them. */
  readonly script: (name: string, ...answers: ReadonlyArray<Scripted>) => void
  readonly received: (device: string) => ReadonlyArray<PushedMessage>
  readonly close: () => Promise<void>
}

/**
 * `check: false` (the bench) takes each message unread, as a vendor's service would before handing it on: no JWT
 * check, no decryption; its payload is then only `{ id }` from its Topic.
 */
export const startPushService = async ({ check = true }: { readonly check?: boolean } = {}): Promise<PushService> => {
  const devices = new Map<string, DeviceSubscription>()
  const scripts = new Map<string, Array<Scripted>>()
  const messages: Array<PushedMessage> = []
  const faults: Array<string> = []
  let url = ""
  const service: PushService = {
    get url() {
      return url
    },
    nodeKey: "",
    messages,
    faults,
    subscribe: (name) => {
      const ecdh = createECDH("prime256v1")
      const publicKey = ecdh.generateKeys()
      const authSecret = randomBytes(16)
      const device: DeviceSubscription = {
        name,
        endpoint: `${url}/push/${name}`,
        keys: { p256dh: publicKey.toString("base64url"), auth: authSecret.toString("base64url") },
        privateKey: ecdh.getPrivateKey(),
        publicKey,
        authSecret
      }
      devices.set(name, device)
      return device
    },
    script: (name, ...answers) => scripts.set(name, [...(scripts.get(name) ?? []), ...answers]),
    received: (name) => messages.filter((message) => message.device === name),
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
  const server: Server = createServer(async (request, response) => {
    const name = decodeURIComponent((request.url ?? "").replace(/^\/push\//, ""))
    const body = await readBody(request)
    const device = devices.get(name)
    if (request.method !== "POST" || device === undefined) {
      response.writeHead(404).end()
      return
    }
    try {
      const headers = Object.fromEntries(
        Object.entries(request.headers).map(([key, value]) => [key, Array.isArray(value) ? value.join(", ") : value!])
      )
      if (headers["content-encoding"] !== "aes128gcm") throw new Error("not aes128gcm")
      const claims = check
        ? verifyVapid(headers.authorization ?? "", service.nodeKey, url)
        : { aud: url, exp: 0, sub: "" }
      const payload = check
        ? (JSON.parse(decryptMessage(device, body)) as Record<string, unknown>)
        : { id: headers.topic ?? "" }
      const answer = scripts.get(name)?.shift() ?? { status: 201 }
      messages.push({ device: name, at: Date.now(), headers, payload, claims, status: answer.status })
      response.writeHead(answer.status, { ...answer.headers }).end()
    } catch (error) {
      faults.push(`${name}: ${error instanceof Error ? error.message : String(error)}`)
      response.writeHead(400).end()
    }
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return service
}
